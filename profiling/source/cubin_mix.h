#pragma once
// The SASS instruction mix of a kernel of yours (kernels/user), read from the cubin it was built
// into: the same static counts (kernels/instruction_mix.h) a ladder rung's census holds, summed
// over every function of that cubin (a host launcher's cubin holds every __global__ function of
// its file; a directive kernel's, the one kernel). The worker reads it when it loads the kernel
// (app/worker/session.cpp), with the toolkit's nvdisasm or cuobjdump (disassembler.h); a machine
// without them gets one line saying so instead.

#include <optional>
#include <string>
#include <vector>

#include "kernels/instruction_mix.h"
#include "profiling/source/disassembler.h"
#include "profiling/source/sass_text.h"

namespace tclens::profiling {

// Every instruction of `functions` counted (kernels::count_instruction), `functions` their
// number, `arch` as given; nullopt when they hold no instruction.
// {_Z1fv: HMMA.16816.F32.BF16, LDSM.16.M88.4, EXIT} -> functions 1, HMMA 1, LDS/LDSM 1, total 3.
std::optional<kernels::InstructionMix> instruction_mix_of(
    const std::vector<SassFunction>& functions, const std::string& arch);

struct CubinMix {
    std::optional<kernels::InstructionMix> mix;
    std::string missing;  // why `mix` is empty, one line; "" when it is not
};

// The mix of the cubin at `cubin_path`, compiled for `arch` ("sm_90a"). `missing` names the
// missing tool, the unreadable cubin or the disassembler's failure.
CubinMix cubin_instruction_mix(const std::string& cubin_path, const std::string& arch,
                               const DisassemblyTools& tools);

}  // namespace tclens::profiling
