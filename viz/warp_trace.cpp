#include "viz/warp_trace.h"

#include <algorithm>
#include <tuple>

namespace tclens::viz {
namespace {

struct PhaseText {
    TracePhase phase;
    const char* name;
    const char* words;
    const char* meaning;
};

// Indexed by TracePhase: the one table of phase id -> words -> meaning.
constexpr PhaseText kPhases[kTracePhaseCount] = {
    {TracePhase::kLoadIssue, "load_issue", "issues loads",
     "issuing a stage's copies (TMA or cp.async)"},
    {TracePhase::kFullWait, "full_wait", "waits for a full stage",
     "waiting for a stage's bytes (full barrier or cp.async.wait_group)"},
    {TracePhase::kEmptyWait, "empty_wait", "waits for an empty stage",
     "waiting for consumers to free a stage, then issuing its loads"},
    {TracePhase::kWgmma, "wgmma", "multiplies (wgmma)",
     "one K tile's wgmma issued, the previous group waited for"},
    {TracePhase::kBlockSync, "block_sync", "waits for the block",
     "waiting at __syncthreads in the K loop"},
    {TracePhase::kEpilogue, "epilogue", "drains the multiplies", "draining the last wgmma group"},
    {TracePhase::kStore, "store", "stores C",
     "writing the C tile (or a partial tile) to global memory"},
    {TracePhase::kMmaSync, "mma_sync", "multiplies (mma.sync)", "one k16 step's mma.sync issued"},
    {TracePhase::kTileSchedule, "tile_schedule", "picks the next tile",
     "picking the block's next output tile"},
    {TracePhase::kFixupWait, "fixup_wait", "waits for a partial tile",
     "waiting for a contributor's partial tile (stream-K)"},
    {TracePhase::kFixupReduce, "fixup_reduce", "adds a partial tile",
     "adding a contributor's partial tile (stream-K)"},
};

const PhaseText& text_of(TracePhase phase) {
    return kPhases[static_cast<int>(phase) % kTracePhaseCount];
}

}  // namespace

const char* phase_name(TracePhase phase) { return text_of(phase).name; }

const char* phase_words(TracePhase phase) { return text_of(phase).words; }

const char* phase_meaning(TracePhase phase) { return text_of(phase).meaning; }

std::optional<TracePhase> phase_from_name(std::string_view name) {
    for (const PhaseText& p : kPhases) {
        if (name == p.name) return p.phase;
    }
    return std::nullopt;
}

void normalise_trace(WarpTrace& trace) {
    std::sort(trace.phases.begin(), trace.phases.end(), [](const WarpPhase& a, const WarpPhase& b) {
        return std::tie(a.block, a.warp, a.start_ns, a.end_ns) <
               std::tie(b.block, b.warp, b.start_ns, b.end_ns);
    });
    if (trace.phases.empty()) return;
    std::int64_t first = trace.phases.front().start_ns;
    for (const WarpPhase& p : trace.phases) first = std::min(first, p.start_ns);
    for (WarpPhase& p : trace.phases) {
        p.start_ns -= first;
        p.end_ns -= first;
    }
}

WarpTrace first_blocks(const WarpTrace& trace, int blocks) {
    WarpTrace first = trace;
    if (trace.blocks_traced <= blocks) return first;
    first.blocks_traced = std::max(blocks, 0);
    first.phases.erase(std::remove_if(first.phases.begin(), first.phases.end(),
                                      [blocks](const WarpPhase& p) { return p.block >= blocks; }),
                       first.phases.end());
    return first;
}

}  // namespace tclens::viz
