#pragma once
// The SASS instruction mix of a registry kernel for the worker that runs it. A full build's
// worker sends its census (kernels/instruction_mix.h) with its hello (HelloResult::mixes), so a
// client without one (a client build: TCLENS_CLIENT_ONLY), or one built for other GPUs, shows
// and records the worker's; a hello without mixes (an earlier tclens, a client build's worker)
// leaves this build's own census, as before. The one home of that choice: `tclens kernels
// --json`, `tclens record`, the GUI's session recording and its Profile panel read it here.

#include <optional>
#include <string>
#include <vector>

#include "app/worker/results.h"
#include "kernels/sass_census/instruction_counts.h"
#include "profiling/device_info.h"
#include "profiling/recorded_mix.h"

namespace tclens::worker {

// The compute capability whose cubin the mixes are read for: `system`'s first GPU's, else
// kernels::kDefaultMixSm (an H100).
int mix_sm(const profiling::SystemReport& system);

// What a worker's hello carries: this build's census for a GPU of compute capability `sm`,
// every registry kernel that has a mix (profiling::built_in_mixes), and why when none has.
WorkerMixes this_build_mixes(int sm);

// Kernel `kernel_id`'s mix, one line that says where it came from, and why there is none.
struct KernelMix {
    std::optional<kernels::InstructionMix> mix;
    std::string missing;  // one line; "" when `mix` is set
    // "SASS of wmma.f16 (sm_90a, the worker's build): HMMA 64, ..." from the hello's mixes,
    // "SASS of wmma.f16 (sm_90a): ..." from this build's census (kernels::instruction_mix_line),
    // "SASS of cublas.f16: cuBLAS: not our binary" without one.
    std::string line;
};

// `kernel_id`'s mix for the worker whose hello is `hello` (nullptr: none answered yet): from
// the hello's mixes when it carries them, else from this build's census for a GPU of compute
// capability `sm` (mix_sm of the worker's GPUs).
KernelMix worker_mix(const HelloResult* hello, const std::string& kernel_id, int sm);

// The mixes of `kernel_ids` (each once, in order; ids without one left out), chosen as
// worker_mix chooses, as a recording carries them. `missing` is "" or, when none of the ids has
// a mix, why (profiling::built_in_mixes's contract).
std::vector<profiling::RecordedInstructionMix> worker_mixes(
    const HelloResult* hello, const std::vector<std::string>& kernel_ids, int sm,
    std::string& missing);

}  // namespace tclens::worker
