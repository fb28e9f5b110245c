#include "viz/warp_trace_json.h"

#include <cmath>
#include <cstdint>
#include <set>

#include "common/one_line.h"

namespace tclens::viz {
namespace {

constexpr std::int64_t kMaxTraceSide = std::int64_t{1} << 30;
constexpr std::int64_t kMaxBlocks = 2147483647;
constexpr std::int64_t kMaxWarps = 32;                    // 1024 threads
constexpr std::int64_t kMaxTime = std::int64_t{1} << 50;  // ns: 13 days
constexpr std::int64_t kMaxSm = 1023;

// A whole number in [min, max]; false (with `error` naming `what`) otherwise.
bool whole(const nlohmann::json& value, const std::string& what, std::int64_t min, std::int64_t max,
           std::int64_t& out, std::string& error) {
    const bool integer = value.is_number_integer() &&
                         (!value.is_number_unsigned() ||
                          value.get<std::uint64_t>() <= static_cast<std::uint64_t>(max));
    if (!integer || value.get<std::int64_t>() < min || value.get<std::int64_t>() > max) {
        error = what + " must be a whole number from " + std::to_string(min) + " to " +
                std::to_string(max);
        return false;
    }
    out = value.get<std::int64_t>();
    return true;
}

bool key_whole(const nlohmann::json& object, const char* key, std::int64_t min, std::int64_t max,
               std::int64_t& out, std::string& error) {
    return whole(object.at(key), std::string("key '") + key + "'", min, max, out, error);
}

bool key_ms(const nlohmann::json& object, const char* key, double& out, std::string& error) {
    const nlohmann::json& value = object.at(key);
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
        error = std::string("key '") + key + "' must be a number >= 0 (milliseconds)";
        return false;
    }
    out = value.get<double>();
    return true;
}

const char* const kKeys[] = {"kernel",
                             "m",
                             "n",
                             "k",
                             "blocks_launched",
                             "blocks_traced",
                             "warps_per_block",
                             "wgmma_per_phase",
                             "dropped",
                             "kernel_ms",
                             "untraced_ms",
                             "phases"};

bool read_phase(const nlohmann::json& row, std::size_t index, const WarpTrace& trace,
                WarpPhase& out, std::string& error) {
    const std::string what = "phase " + std::to_string(index);
    if (!row.is_array() || row.size() != 8) {
        error = what + " must be [block, warp, sm, phase, k_tile, start_ns, end_ns, cycles]";
        return false;
    }
    std::int64_t block = 0, warp = 0, sm = 0, k_tile = 0, start = 0, end = 0, cycles = 0;
    if (!whole(row[0], what + ": block", 0, trace.blocks_traced - 1, block, error) ||
        !whole(row[1], what + ": warp", 0, trace.warps_per_block - 1, warp, error) ||
        !whole(row[2], what + ": sm", 0, kMaxSm, sm, error)) {
        return false;
    }
    const std::optional<TracePhase> phase =
        row[3].is_string() ? phase_from_name(row[3].get<std::string>()) : std::nullopt;
    if (!phase) {
        error = what +
                ": phase must be one of load_issue, full_wait, empty_wait, wgmma, "
                "block_sync, epilogue, store";
        return false;
    }
    if (!whole(row[4], what + ": k_tile", -1, kMaxTraceSide, k_tile, error) ||
        !whole(row[5], what + ": start_ns", 0, kMaxTime, start, error) ||
        !whole(row[6], what + ": end_ns", start, kMaxTime, end, error) ||
        !whole(row[7], what + ": cycles", 0, kMaxTime, cycles, error)) {
        return false;
    }
    out.block = static_cast<int>(block);
    out.warp = static_cast<int>(warp);
    out.sm = static_cast<int>(sm);
    out.phase = *phase;
    out.k_tile = static_cast<int>(k_tile);
    out.start_ns = start;
    out.end_ns = end;
    out.cycles = cycles;
    return true;
}

}  // namespace

nlohmann::json warp_trace_json(const WarpTrace& trace) {
    nlohmann::json phases = nlohmann::json::array();
    for (const WarpPhase& p : trace.phases) {
        phases.push_back(
            {p.block, p.warp, p.sm, phase_name(p.phase), p.k_tile, p.start_ns, p.end_ns, p.cycles});
    }
    return {{"kernel", trace.kernel},
            {"m", trace.m},
            {"n", trace.n},
            {"k", trace.k},
            {"blocks_launched", trace.blocks_launched},
            {"blocks_traced", trace.blocks_traced},
            {"warps_per_block", trace.warps_per_block},
            {"wgmma_per_phase", trace.wgmma_per_phase},
            {"dropped", trace.dropped},
            {"kernel_ms", trace.kernel_ms},
            {"untraced_ms", trace.untraced_ms},
            {"phases", phases}};
}

bool warp_trace_from_json(const nlohmann::json& json, WarpTrace& trace, std::string& error) {
    if (!json.is_object()) {
        error = "a warp trace must be a JSON object";
        return false;
    }
    const std::set<std::string> known(std::begin(kKeys), std::end(kKeys));
    for (const auto& item : json.items()) {
        if (known.count(item.key()) == 0) {
            error =
                "unknown key '" + common::one_line_excerpt(item.key(), 60) + "' in a warp trace";
            return false;
        }
    }
    for (const char* key : kKeys) {
        if (!json.contains(key)) {
            error = std::string("missing key '") + key + "' in a warp trace";
            return false;
        }
    }
    WarpTrace t;
    if (!json.at("kernel").is_string() || json.at("kernel").get<std::string>().empty() ||
        json.at("kernel").get<std::string>().size() > 200) {
        error = "key 'kernel' must be a kernel id (1 to 200 characters)";
        return false;
    }
    t.kernel = json.at("kernel").get<std::string>();
    std::int64_t launched = 0, traced = 0, warps = 0, per_phase = 0;
    if (!key_whole(json, "m", 1, kMaxTraceSide, t.m, error) ||
        !key_whole(json, "n", 1, kMaxTraceSide, t.n, error) ||
        !key_whole(json, "k", 1, kMaxTraceSide, t.k, error) ||
        !key_whole(json, "blocks_launched", 1, kMaxBlocks, launched, error) ||
        !key_whole(json, "blocks_traced", 1, launched, traced, error) ||
        !key_whole(json, "warps_per_block", 1, kMaxWarps, warps, error) ||
        !key_whole(json, "wgmma_per_phase", 0, 1024, per_phase, error) ||
        !key_whole(json, "dropped", 0, kMaxTime, t.dropped, error) ||
        !key_ms(json, "kernel_ms", t.kernel_ms, error) ||
        !key_ms(json, "untraced_ms", t.untraced_ms, error)) {
        return false;
    }
    t.blocks_launched = static_cast<int>(launched);
    t.blocks_traced = static_cast<int>(traced);
    t.warps_per_block = static_cast<int>(warps);
    t.wgmma_per_phase = static_cast<int>(per_phase);
    const nlohmann::json& phases = json.at("phases");
    if (!phases.is_array() || phases.size() > kMaxTracePhases) {
        error = "key 'phases' must be an array of at most " + std::to_string(kMaxTracePhases) +
                " phases";
        return false;
    }
    t.phases.resize(phases.size());
    for (std::size_t i = 0; i < phases.size(); ++i) {
        if (!read_phase(phases[i], i, t, t.phases[i], error)) return false;
    }
    trace = std::move(t);
    return true;
}

bool parse_warp_trace(std::string_view text, WarpTrace& trace, std::string& error) {
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded()) {
        error = "a warp trace is not valid JSON";
        return false;
    }
    return warp_trace_from_json(json, trace, error);
}

}  // namespace tclens::viz
