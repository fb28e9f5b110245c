#include "kernels/trace_decode.h"

#include <algorithm>

namespace tclens::kernels {

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
    for (std::size_t slot = 0; slot < warps; ++slot) {
        const std::size_t kept = std::min<std::size_t>(counts[slot], per_warp);
        dropped += static_cast<std::int64_t>(counts[slot] - kept);
        for (std::size_t i = 0; i < kept; ++i) {
            const TraceRecord& r = records[slot * per_warp + i];
            const int block = static_cast<int>(slot / layout.warps_per_block);
            const int warp = static_cast<int>(slot % layout.warps_per_block);
            if (r.phase >= viz::kTracePhaseCount || r.end_ns < r.start_ns || r.k_tile < -1) {
                return "trace record " + std::to_string(i) + " of block " + std::to_string(block) +
                       " warp " + std::to_string(warp) + " is not a phase (phase id " +
                       std::to_string(r.phase) + ", k_tile " + std::to_string(r.k_tile) +
                       (r.end_ns < r.start_ns ? ", ends before it starts)" : ")");
            }
            viz::WarpPhase p;
            p.block = block;
            p.warp = warp;
            p.sm = r.sm;
            p.phase = static_cast<viz::TracePhase>(r.phase);
            p.k_tile = r.k_tile;
            p.start_ns = static_cast<std::int64_t>(r.start_ns);
            p.end_ns = static_cast<std::int64_t>(r.end_ns);
            p.cycles = r.cycles;
            phases.push_back(p);
        }
    }
    trace.phases = std::move(phases);
    trace.dropped = dropped;
    viz::normalise_trace(trace);
    return "";
}

}  // namespace tclens::kernels
