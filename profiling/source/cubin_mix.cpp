#include "profiling/source/cubin_mix.h"

namespace tclens::profiling {

std::optional<kernels::InstructionMix> instruction_mix_of(
    const std::vector<SassFunction>& functions, const std::string& arch) {
    kernels::InstructionMix mix;
    mix.arch = arch;
    for (const SassFunction& function : functions) {
        if (function.instructions.empty()) continue;
        ++mix.functions;
        for (const SassInstruction& instruction : function.instructions) {
            kernels::count_instruction(mix.counts, instruction.opcode);
        }
    }
    if (mix[kernels::OpClass::kTotal] == 0) return std::nullopt;
    return mix;
}

CubinMix cubin_instruction_mix(const std::string& cubin_path, const std::string& arch,
                               const DisassemblyTools& tools) {
    CubinMix result;
    if (cubin_path.empty()) {
        result.missing = "the compiler kept no cubin";
        return result;
    }
    const Disassembly disassembly = disassemble_cubin(cubin_path, tools);
    if (!disassembly.error.empty()) {
        result.missing = disassembly.error;
        return result;
    }
    result.mix = instruction_mix_of(disassembly.functions, arch);
    if (!result.mix) result.missing = disassembly.how + " listed no instruction";
    return result;
}

}  // namespace tclens::profiling
