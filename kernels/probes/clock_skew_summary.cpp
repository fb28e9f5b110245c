// The host half of kernels/probes/clock_skew_probe.h: spreads of rounds of samples, pure.
#include <algorithm>
#include <set>

#include "kernels/probes/clock_skew_probe.h"

namespace tclens::kernels {
namespace {

// The lower middle element of `values` (sorted in place); 0 for none.
std::int64_t median_of(std::vector<std::int64_t>& values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[(values.size() - 1) / 2];
}

}  // namespace

std::string summarize_clock_skew(const std::vector<std::vector<ClockSkewSample>>& rounds,
                                 ClockSkewSummary& out) {
    if (rounds.empty()) return "clock skew: no rounds";
    std::vector<std::int64_t> spreads;
    std::vector<std::int64_t> clock_spreads;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        const std::vector<ClockSkewSample>& round = rounds[r];
        if (round.empty()) return "clock skew: round " + std::to_string(r) + " has no samples";
        if (round.size() != rounds.front().size()) {
            return "clock skew: round " + std::to_string(r) + " has " +
                   std::to_string(round.size()) + " samples, round 0 has " +
                   std::to_string(rounds.front().size());
        }
        const auto [ns_low, ns_high] = std::minmax_element(
            round.begin(), round.end(), [](const ClockSkewSample& a, const ClockSkewSample& b) {
                return a.global_ns < b.global_ns;
            });
        const auto [clock_low, clock_high] = std::minmax_element(
            round.begin(), round.end(),
            [](const ClockSkewSample& a, const ClockSkewSample& b) { return a.clock < b.clock; });
        spreads.push_back(static_cast<std::int64_t>(ns_high->global_ns - ns_low->global_ns));
        clock_spreads.push_back(static_cast<std::int64_t>(clock_high->clock - clock_low->clock));
    }
    std::set<std::uint32_t> sms;
    for (const ClockSkewSample& s : rounds.front()) sms.insert(s.sm);
    ClockSkewSummary summary;
    summary.rounds = static_cast<int>(rounds.size());
    summary.blocks = static_cast<int>(rounds.front().size());
    summary.distinct_sms = static_cast<int>(sms.size());
    summary.min_spread_ns = *std::min_element(spreads.begin(), spreads.end());
    summary.max_spread_ns = *std::max_element(spreads.begin(), spreads.end());
    summary.median_spread_ns = median_of(spreads);
    summary.median_clock_spread = median_of(clock_spreads);
    out = summary;
    return "";
}

std::string clock_skew_text(const ClockSkewSummary& s) {
    return "globaltimer spread between SMs over " + std::to_string(s.rounds) + " rounds of " +
           std::to_string(s.blocks) + " blocks on " + std::to_string(s.distinct_sms) +
           " SMs: min " + std::to_string(s.min_spread_ns) + " ns, median " +
           std::to_string(s.median_spread_ns) + " ns, max " + std::to_string(s.max_spread_ns) +
           " ns (tick " + (s.tick_ns > 0 ? std::to_string(s.tick_ns) + " ns" : "unknown") +
           "; bounds the skew plus the flag's propagation; clock64 spread " +
           std::to_string(s.median_clock_spread) + " cycles, per-SM counters)";
}

}  // namespace tclens::kernels
