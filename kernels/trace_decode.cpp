#include "kernels/trace_decode.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tclens::kernels {
namespace {

// One block's %clock readings: 32-bit and wrapping on the device, put on one 64-bit count here
// (each reading taken as the nearest count to the one before it, so readings less than 2^31
// cycles apart, about a second, unwrap right), and the global times of its full records'
// readings, the anchors that place clock-only records in time.
class BlockClock {
  public:
    // `raw` read after (or shortly before) `previous`, an unwrapped reading of this block.
    static std::int64_t unwrap(std::uint32_t raw, std::int64_t previous) {
        return previous + static_cast<std::int32_t>(raw - static_cast<std::uint32_t>(previous));
    }

    void add_anchor(std::int64_t clock, std::int64_t ns) { anchors_.emplace_back(clock, ns); }

    // Sorts the anchors for time(). False when no two of them differ in clock: no rate.
    bool prepare() {
        std::sort(anchors_.begin(), anchors_.end());
        return anchors_.size() >= 2 && anchors_.front().first < anchors_.back().first;
    }

    // The global time of `clock`: linear between the anchors around it, else from the nearest
    // anchor at the rate of the block's first to last anchor. Needs prepare().
    std::int64_t time(std::int64_t clock) const {
        const auto above = std::lower_bound(
            anchors_.begin(), anchors_.end(), std::make_pair(clock, std::int64_t{0}),
            [](const Anchor& a, const Anchor& b) { return a.first < b.first; });
        if (above != anchors_.end() && above->first == clock) return above->second;
        const double block_rate = ns_per_cycle(anchors_.front(), anchors_.back());
        if (above == anchors_.begin()) return along(anchors_.front(), block_rate, clock);
        if (above == anchors_.end()) return along(anchors_.back(), block_rate, clock);
        const Anchor& below = *std::prev(above);
        return along(below, ns_per_cycle(below, *above), clock);
    }

  private:
    using Anchor = std::pair<std::int64_t, std::int64_t>;  // clock, ns

    // From a to b, a.first < b.first.
    static double ns_per_cycle(const Anchor& a, const Anchor& b) {
        return static_cast<double>(b.second - a.second) / static_cast<double>(b.first - a.first);
    }
    // The time of `clock`, `rate` ns a cycle on from `origin`.
    static std::int64_t along(const Anchor& origin, double rate, std::int64_t clock) {
        return origin.second + std::llround(static_cast<double>(clock - origin.first) * rate);
    }

    std::vector<Anchor> anchors_;
};

std::string not_a_phase(std::size_t i, int block, int warp, const TraceRecord& r,
                        bool ends_before_start) {
    return "trace record " + std::to_string(i) + " of block " + std::to_string(block) + " warp " +
           std::to_string(warp) + " is not a phase (phase id " + std::to_string(r.phase) +
           ", k_tile " + std::to_string(r.k_tile) +
           (ends_before_start ? ", ends before it starts)" : ")");
}

}  // namespace

std::string decode_trace(const std::vector<TraceRecord>& records,
                         const std::vector<std::uint32_t>& counts, const TraceSink& layout,
                         viz::WarpTrace& trace) {
    const std::size_t warps =
        static_cast<std::size_t>(layout.blocks) * static_cast<std::size_t>(layout.warps_per_block);
    const std::size_t per_warp = static_cast<std::size_t>(layout.records_per_warp);
    if (counts.size() != warps || records.size() != warps * per_warp) {
        return "trace buffers hold " + std::to_string(counts.size()) + " counters and " +
               std::to_string(records.size()) + " records; the layout needs " +
               std::to_string(warps) + " and " + std::to_string(warps * per_warp);
    }
    std::vector<viz::WarpPhase> phases;
    std::int64_t dropped = 0;
    for (int block = 0; block < layout.blocks; ++block) {
        BlockClock clock;
        // The block's clock-only phases, timed once the block is read: index into phases, start
        // and end clock (unwrapped).
        struct ClockOnly {
            std::size_t phase;
            std::int64_t start;
            std::int64_t end;
        };
        std::vector<ClockOnly> clock_only;
        bool first_in_block = true;
        std::int64_t block_start = 0;
        for (int warp = 0; warp < layout.warps_per_block; ++warp) {
            const std::size_t slot = static_cast<std::size_t>(block) * layout.warps_per_block +
                                     static_cast<std::size_t>(warp);
            const std::size_t kept = std::min<std::size_t>(counts[slot], per_warp);
            dropped += static_cast<std::int64_t>(counts[slot] - kept);
            std::int64_t previous = 0;  // this warp's last start, unwrapped
            for (std::size_t i = 0; i < kept; ++i) {
                const TraceRecord& r = records[slot * per_warp + i];
                const bool timed_by_clock = (r.phase & kClockOnlyRecord) != 0;
                const int phase_id = r.phase & ~kClockOnlyRecord;
                const bool ends_before_start = !timed_by_clock && r.end_ns < r.start_ns;
                if (phase_id >= viz::kTracePhaseCount || ends_before_start || r.k_tile < -1) {
                    return not_a_phase(i, block, warp, r, ends_before_start);
                }
                if (first_in_block) {
                    block_start = r.start_clock;
                    first_in_block = false;
                }
                const std::int64_t start =
                    BlockClock::unwrap(r.start_clock, i == 0 ? block_start : previous);
                previous = start;
                viz::WarpPhase p;
                p.block = block;
                p.warp = warp;
                p.sm = r.sm;
                p.phase = static_cast<viz::TracePhase>(phase_id);
                p.k_tile = r.k_tile;
                p.cycles = r.cycles;
                if (timed_by_clock) {
                    clock_only.push_back({phases.size(), start, start + r.cycles});
                } else {
                    p.start_ns = static_cast<std::int64_t>(r.start_ns);
                    p.end_ns = static_cast<std::int64_t>(r.end_ns);
                    clock.add_anchor(start, p.start_ns);
                    clock.add_anchor(start + r.cycles, p.end_ns);
                }
                phases.push_back(p);
            }
        }
        if (clock_only.empty()) continue;
        if (!clock.prepare()) {
            return "trace block " + std::to_string(block) +
                   " has clock-only records but not two clock readings of full records to place "
                   "them in time";
        }
        for (const ClockOnly& c : clock_only) {
            viz::WarpPhase& p = phases[c.phase];
            p.start_ns = clock.time(c.start);
            p.end_ns = std::max(p.start_ns, clock.time(c.end));
        }
    }
    trace.phases = std::move(phases);
    trace.dropped = dropped;
    viz::normalise_trace(trace);
    return "";
}

}  // namespace tclens::kernels
