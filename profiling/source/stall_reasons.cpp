#include "profiling/source/stall_reasons.h"

#include "common/text.h"

namespace tclens::profiling {
namespace {

constexpr const char* kPrefix = "smsp__pcsamp_warps_issue_stalled_";
constexpr const char* kNotIssued = "_not_issued";

}  // namespace

const std::vector<StallReasonInfo>& stall_reasons() {
    static const std::vector<StallReasonInfo> reasons = {
        {"long_scoreboard", "Long scoreboard", "stall_long_sb",
         "Waiting for a global-memory load to return: the K loop's next A/B tiles are not in "
         "registers or shared memory yet; more pipeline stages (cp.async, TMA) or more warps "
         "hide it."},
        {"short_scoreboard", "Short scoreboard", "stall_short_sb",
         "Waiting for a shared-memory load (LDS/LDSM) to reach the registers: the MMA operands "
         "are still in flight; double-buffer fragments in registers, and bank conflicts make the "
         "wait longer."},
        {"barrier", "Barrier", "stall_barrier",
         "Waiting at __syncthreads for the block's other warps: stages handed over with a "
         "block-wide barrier idle the fast warps; more stages or per-stage mbarriers shrink it."},
        {"math_pipe_throttle", "Math pipe throttle", "stall_math",
         "The tensor (or FMA) pipe is busy with earlier instructions: the good stall for a GEMM, "
         "the math units are the bottleneck."},
        {"wait", "Wait", "stall_wait",
         "A fixed-latency dependency the compiler waits out, e.g. an MMA on the previous MMA's "
         "result or an address computed just before a load; long dependent chains show here."},
        {"mio_throttle", "MIO throttle", "stall_mio",
         "The shared-memory / special-function instruction queue is full: too many LDS, LDSM or "
         "STS in flight; wider loads (LDSM.x4, 128-bit LDS) and fewer conflicts relieve it."},
        {"lg_throttle", "LG throttle", "stall_lg",
         "The global-memory instruction queue is full: too many loads or stores in flight; "
         "16-byte vector loads, cp.async or TMA issue fewer instructions."},
        {"gmma", "Warpgroup MMA", "stall_gmma",
         "Waiting for a warpgroup MMA (wgmma) to finish or for its operands: the warpgroup sits "
         "in wgmma.wait_group while the tensor cores work."},
        {"sleeping", "Sleeping", "stall_sleep",
         "The warp sleeps (nanosleep or a back-off while waiting on an mbarrier): a producer or "
         "consumer waits for the other side of the pipeline."},
        {"not_selected", "Not selected", "stall_not_selected",
         "Ready to issue, but the scheduler picked another warp: enough warps are ready, nothing "
         "to fix."},
        {"selected", "Selected", "stall_selected",
         "Issuing an instruction this cycle: the warp is doing work."},
        {"dispatch_stall", "Dispatch stall", "stall_dispatch",
         "The instruction could not be dispatched to its pipe; rare in GEMMs."},
        {"no_instructions", "No instruction", "stall_no_inst",
         "The next instruction is not in the instruction cache (or a branch was taken): a fully "
         "unrolled K loop can outgrow the cache."},
        {"branch_resolving", "Branch resolving", "stall_branch",
         "Waiting for a branch target: loop and boundary checks."},
        {"drain", "Drain", "stall_drain",
         "Waiting for the warp's stores to drain before it exits: the epilogue's C stores."},
        {"imc_miss", "IMC miss", "stall_imc",
         "Waiting for the constant cache: kernel arguments or constants were not cached."},
        {"membar", "Memory barrier", "stall_membar",
         "Waiting at a memory fence (__threadfence, fence.proxy) for earlier writes."},
        {"tex_throttle", "TEX throttle", "stall_tex",
         "The texture unit's queue is full; the ladder uses no texture loads."},
        {"misc", "Misc", "stall_misc", "Another reason the hardware does not name."},
    };
    return reasons;
}

const StallReasonInfo* find_stall_reason(const std::string& key) {
    for (const StallReasonInfo& reason : stall_reasons()) {
        if (reason.key == key) return &reason;
    }
    return nullptr;
}

StallName parse_stall_name(const std::string& cupti_name) {
    StallName name;
    std::string key = cupti_name;
    const std::string prefix = kPrefix;
    if (key.compare(0, prefix.size(), prefix) == 0) key = key.substr(prefix.size());
    if (common::ends_with(key, kNotIssued)) {
        key.resize(key.size() - std::string(kNotIssued).size());
        name.not_issued = true;
    }
    name.key = key;
    return name;
}

StallReasonInfo stall_reason_or_unknown(const std::string& key) {
    if (const StallReasonInfo* known = find_stall_reason(key)) return *known;
    return {key, key, "",
            "A stall reason tclens does not describe yet (CUPTI name " + std::string(kPrefix) +
                key + ")."};
}

}  // namespace tclens::profiling
