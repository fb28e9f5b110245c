#include "kernels/instruction_mix.h"

#include <map>
#include <utility>

#include "common/text.h"
#include "kernels/registry.h"
#include "kernels/sass_census/census_table.h"

namespace tclens::kernels {
namespace {

// The archs of `functions`, in order of first appearance.
std::vector<std::string> archs_of(const std::vector<FunctionMix>& functions) {
    std::vector<std::string> archs;
    for (const FunctionMix& f : functions) {
        bool known = false;
        for (const std::string& arch : archs) known = known || arch == f.arch;
        if (!known) archs.push_back(f.arch);
    }
    return archs;
}

const KernelFunction* function_of(const std::string& kernel_id) {
    for (const KernelFunction& fn : kernel_functions()) {
        if (fn.id == kernel_id) return &fn;
    }
    return nullptr;
}

// Every (kernel id, arch) mix of the built-in census, computed once.
const std::map<std::pair<std::string, std::string>, InstructionMix>& built_in_mixes() {
    static const auto mixes = [] {
        std::map<std::pair<std::string, std::string>, InstructionMix> all;
        for (const KernelFunction& fn : kernel_functions()) {
            for (const std::string& arch : archs_of(built_in_functions())) {
                if (auto mix = sum_instruction_mix(built_in_functions(), fn.id, arch)) {
                    all.emplace(std::make_pair(fn.id, arch), std::move(*mix));
                }
            }
        }
        return all;
    }();
    return mixes;
}

}  // namespace

const std::vector<KernelFunction>& kernel_functions() {
    static const std::vector<KernelFunction> functions = {
        {"naive_fma.f32", "naive_fma_gemm", ""},
        {"smem_tiled.f32", "smem_tiled_gemm", ""},
        {"register_tiled.f32", "register_tiled_gemm", ""},
        {"wmma.f16", "wmma_gemm_kernel", "__half"},
        {"wmma.bf16", "wmma_gemm_kernel", "__nv_bfloat16"},
        {"mma_tf32_puzzle", "mma_tf32_puzzle", ""},
        {"mma_tf32_tuned", "mma_tf32_tuned", ""},
        {"mma_ldmatrix_xor.f16", "mma_ldmatrix_xor_gemm", "__half"},
        {"mma_ldmatrix_xor.bf16", "mma_ldmatrix_xor_gemm", "__nv_bfloat16"},
        {"mma_cp_async.f16", "mma_cp_async_gemm", "__half"},
        {"mma_cp_async.bf16", "mma_cp_async_gemm", "__nv_bfloat16"},
        {"wgmma_tma.f16", "wgmma_tma_gemm", "__half"},
        {"wgmma_tma.bf16", "wgmma_tma_gemm", "__nv_bfloat16"},
        {"wgmma_ws.f16", "warp_specialized_gemm", "__half"},
        {"wgmma_ws.bf16", "warp_specialized_gemm", "__nv_bfloat16"},
        {"wgmma_persistent.f16", "persistent_gemm", "__half"},
        {"wgmma_persistent.bf16", "persistent_gemm", "__nv_bfloat16"},
        {"wgmma_streamk.f16", "stream_k_gemm", "__half"},
        {"wgmma_streamk.bf16", "stream_k_gemm", "__nv_bfloat16"},
        {"wgmma_fp8.e4m3", "persistent_gemm", "__nv_fp8_e4m3"},
        // rung 14 runs rungs 9, 11 and 12, and rung 9's kernel over K ranges (split-K): that
        // one, the kernel of the shapes rung 14 adds
        {"dispatch.f16", "wgmma_tma_gemm", "__half"},
        {"dispatch.bf16", "wgmma_tma_gemm", "__nv_bfloat16"},
        // rung 14's FP8 configurations are rung 13's kernel template on other tiles: its
        // functions (rung 13's id counts them too, as rung 11's counts both of its tiles)
        {"dispatch.e4m3", "persistent_gemm", "__nv_fp8_e4m3"},
    };
    return functions;
}

namespace {

// A traced variant (kernels/trace.cuh): the function template's last argument, kTraced, is
// true. `open` is the '<' after the function's name.
bool is_traced_variant(const std::string& symbol, size_t open) {
    static const std::string kTrue = ", true";
    int depth = 0;
    for (size_t i = open; i < symbol.size(); ++i) {
        if (symbol[i] == '<') ++depth;
        if (symbol[i] == '>' && --depth == 0) {
            return i >= kTrue.size() && symbol.compare(i - kTrue.size(), kTrue.size(), kTrue) == 0;
        }
    }
    return false;
}

}  // namespace

bool runs_function(const std::string& symbol, const KernelFunction& fn) {
    const size_t length = fn.function.size();
    for (size_t at = symbol.find(fn.function); at != std::string::npos;
         at = symbol.find(fn.function, at + 1)) {
        const char before = at == 0 ? ' ' : symbol[at - 1];
        const size_t next = at + length;
        const char after = next < symbol.size() ? symbol[next] : '\0';
        if ((before != ':' && before != ' ') || (after != '(' && after != '<')) continue;
        if (after == '<' && is_traced_variant(symbol, next)) continue;
        if (fn.element.empty()) return true;
        if (after != '<' || symbol.compare(next + 1, fn.element.size(), fn.element) != 0) continue;
        const size_t end = next + 1 + fn.element.size();
        if (end < symbol.size() && (symbol[end] == ',' || symbol[end] == '>')) return true;
    }
    return false;
}

std::string cubin_arch_for(const std::vector<std::string>& archs, int sm) {
    std::string best;
    int best_number = -1;
    for (const std::string& arch : archs) {
        size_t digits = 3;
        while (digits < arch.size() && arch[digits] >= '0' && arch[digits] <= '9') ++digits;
        if (arch.compare(0, 3, "sm_") != 0 || digits == 3) continue;
        const int number = std::stoi(arch.substr(3, digits - 3));
        const bool arch_specific = digits < arch.size();
        const bool fits = arch_specific ? number == sm : number / 10 == sm / 10 && number <= sm;
        if (fits && number > best_number) {
            best = arch;
            best_number = number;
        }
    }
    return best;
}

std::optional<InstructionMix> sum_instruction_mix(const std::vector<FunctionMix>& census,
                                                  const std::string& kernel_id,
                                                  const std::string& arch) {
    const KernelFunction* fn = function_of(kernel_id);
    if (fn == nullptr) return std::nullopt;
    InstructionMix mix;
    mix.arch = arch;
    for (const FunctionMix& f : census) {
        if (f.arch != arch || !runs_function(f.function, *fn)) continue;
        ++mix.functions;
        for (int i = 0; i < kOpClassCount; ++i) {
            mix.counts[static_cast<size_t>(i)] += f.counts[static_cast<size_t>(i)];
        }
    }
    if (mix.functions == 0) return std::nullopt;
    return mix;
}

const std::vector<FunctionMix>& built_in_functions() {
    static const std::vector<FunctionMix> functions = [] {
        const Census& census = built_in_census();
        std::vector<FunctionMix> rows;
        for (int i = 0; i < census.count; ++i) {
            const CensusEntry& entry = census.entries[i];
            FunctionMix row{entry.arch, entry.function, {}};
            for (int c = 0; c < kOpClassCount; ++c)
                row.counts[static_cast<size_t>(c)] = entry.counts[c];
            rows.push_back(std::move(row));
        }
        return rows;
    }();
    return functions;
}

std::string census_origin() { return built_in_census().origin; }

std::string census_missing() { return built_in_census().missing; }

const InstructionMix* instruction_mix(const std::string& kernel_id, int sm) {
    const std::string arch = cubin_arch_for(archs_of(built_in_functions()), sm);
    const auto it = built_in_mixes().find({kernel_id, arch});
    return it == built_in_mixes().end() ? nullptr : &it->second;
}

std::string instruction_mix_missing(const std::string& kernel_id, int sm) {
    const KernelDescriptor* kernel = find_kernel(kernel_id);
    if (kernel == nullptr) return "unknown kernel id '" + kernel_id + "'";
    if (kernel->rung == 0) return "cuBLAS: not our binary";
    if (built_in_functions().empty()) return census_missing();
    const std::vector<std::string> archs = archs_of(built_in_functions());
    const std::string arch = cubin_arch_for(archs, sm);
    if (arch.empty()) {
        return "no SASS for sm_" + std::to_string(sm) + " in this binary (it has " +
               common::join(archs, ", ") + "): the driver compiles its PTX at load";
    }
    if (instruction_mix(kernel_id, sm) != nullptr) return "";
    const KernelFunction* fn = function_of(kernel_id);
    if (fn == nullptr) return "kernels/instruction_mix.cpp names no function for " + kernel_id;
    return "no " + fn->function + " in the " + arch + " SASS of this binary";
}

std::string instruction_mix_text(const InstructionMix& mix) {
    std::string text;
    for (int i = 0; i < kOpClassCount; ++i) {
        const auto op = static_cast<OpClass>(i);
        text +=
            (i == 0 ? "" : ", ") + std::string(op_class_label(op)) + " " + std::to_string(mix[op]);
    }
    return text;
}

std::string instruction_mix_line(const std::string& kernel_id, int sm) {
    if (const InstructionMix* mix = instruction_mix(kernel_id, sm)) {
        return "SASS of " + kernel_id + " (" + mix->arch + "): " + instruction_mix_text(*mix);
    }
    return "SASS of " + kernel_id + ": " + instruction_mix_missing(kernel_id, sm);
}

}  // namespace tclens::kernels
