#include "viz/warp_trace_summary.h"

#include <algorithm>
#include <map>
#include <utility>

namespace tclens::viz {

TraceSummary summarize_trace(const WarpTrace& trace) {
    TraceSummary summary;
    for (int i = 0; i < kTracePhaseCount; ++i) {
        summary.shares[i].phase = static_cast<TracePhase>(i);
    }
    struct WarpState {
        WarpSummary warp;
        std::int64_t first = 0;
        std::int64_t last = 0;
        std::int64_t last_mma_end = -1;
    };
    std::map<std::pair<int, int>, WarpState> warps;
    std::int64_t first = 0;
    std::int64_t last = 0;
    bool any = false;
    for (const WarpPhase& p : trace.phases) {
        const std::int64_t duration = p.end_ns - p.start_ns;
        PhaseShare& share = summary.shares[static_cast<int>(p.phase) % kTracePhaseCount];
        ++share.count;
        share.total_ns += duration;
        first = any ? std::min(first, p.start_ns) : p.start_ns;
        last = any ? std::max(last, p.end_ns) : p.end_ns;
        any = true;

        auto [it, fresh] = warps.try_emplace({p.block, p.warp});
        WarpState& w = it->second;
        if (fresh) {
            w.warp.block = p.block;
            w.warp.warp = p.warp;
            w.warp.sm = p.sm;
            w.first = p.start_ns;
            w.last = p.end_ns;
        }
        w.first = std::min(w.first, p.start_ns);
        w.last = std::max(w.last, p.end_ns);
        if (is_multiply_phase(p.phase)) {
            ++w.warp.mma_phases;
            w.warp.mma_ns += duration;
            if (w.last_mma_end >= 0) {
                const std::int64_t gap = std::max<std::int64_t>(0, p.start_ns - w.last_mma_end);
                w.warp.idle_ns += gap;
                w.warp.longest_idle_ns = std::max(w.warp.longest_idle_ns, gap);
            }
            w.last_mma_end = std::max(w.last_mma_end, p.end_ns);
        }
    }
    summary.span_ns = any ? last - first : 0;
    std::int64_t warp_time = 0;
    for (auto& [key, w] : warps) {
        w.warp.span_ns = w.last - w.first;
        warp_time += w.warp.span_ns;
        summary.mma_instructions +=
            static_cast<std::int64_t>(w.warp.mma_phases) * trace.wgmma_per_phase;
        summary.warps.push_back(w.warp);
    }
    for (PhaseShare& share : summary.shares) {
        share.share = warp_time > 0 ? static_cast<double>(share.total_ns) / warp_time : 0.0;
    }
    return summary;
}

TensorPipeIdle tensor_pipe_idle(const TraceSummary& summary) {
    TensorPipeIdle idle;
    for (const WarpSummary& warp : summary.warps) {
        if (warp.mma_phases == 0) continue;
        ++idle.warps;
        idle.idle_ns += warp.idle_ns;
        idle.longest_ns = std::max(idle.longest_ns, warp.longest_idle_ns);
    }
    return idle;
}

}  // namespace tclens::viz
