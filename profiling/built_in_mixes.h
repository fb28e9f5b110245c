#pragma once
// The instruction mixes this build's SASS census holds (kernels/instruction_mix.h), as a
// recording carries them (recorded_mix.h). The census is read from the CUDA build's cubins; a
// client build (TCLENS_CLIENT_ONLY) has none and says so.

#include <string>
#include <vector>

#include "profiling/recorded_mix.h"

namespace tclens::profiling {

// The mixes of `kernel_ids` (each once, in order) from this build's census for a GPU of
// compute capability `sm`; ids without one (cuBLAS, a build without cuobjdump) are left out.
// `missing` is "" or, when none of the ids has a mix, why (the first id's
// kernels::instruction_mix_missing), e.g. "this build had no cuobjdump ...".
std::vector<RecordedInstructionMix> built_in_mixes(const std::vector<std::string>& kernel_ids,
                                                   int sm, std::string& missing);

}  // namespace tclens::profiling
