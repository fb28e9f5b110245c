#pragma once
// A ladder kernel's instruction mix, read from its own SASS: static counts of tensor-core (HMMA,
// HGMMA, IMMA), FP32 (FFMA, FMUL/FADD) and data-movement instructions in the __global__
// functions its launch() runs, for each architecture of the fat binary (sm_80, sm_89, sm_90a).
// The build reads them with the toolkit's cuobjdump (kernels/sass_census/), so nothing here
// needs a CUDA toolkit at run time. Static counts: an HMMA inside the K loop counts once, however
// often it runs; what matters is whether the kernel has tensor-core instructions at all.

#include <optional>
#include <string>
#include <vector>

#include "kernels/sass_census/instruction_counts.h"
#include "kernels/sass_census/op_class.h"
#include "kernels/sass_census/sass_listing.h"

namespace tclens::kernels {

// The __global__ function a ladder kernel's launch() runs, as its demangled symbol reads: the
// unqualified name and, for a template over the input type, that first template argument.
struct KernelFunction {
    std::string id;        // registry id: "mma_cp_async.bf16"
    std::string function;  // "mma_cp_async_gemm"
    std::string element;   // "__nv_bfloat16"; "" when the function is not a template over it
};

// One entry per ladder id, in registry order; cuBLAS ids have none (not our binary).
const std::vector<KernelFunction>& kernel_functions();

// True if demangled `symbol` is an instantiation of `fn`: `fn.function` at namespace scope
// followed by "(" or "<", and then, if fn.element is set, that element as the first template
// argument. "void ns::(anonymous namespace)::wmma_gemm_kernel<__half>(__half const*, ...)"
// matches {"wmma.f16", "wmma_gemm_kernel", "__half"}, not {.., "__nv_bfloat16"}. A traced
// variant (kernels/trace.cuh: last template argument kTraced true, "..., true>(") is not the
// timed kernel and never matches: "wgmma_tma_gemm<__half, Config<...>, false>(...)" does.
bool runs_function(const std::string& symbol, const KernelFunction& fn);

// The cubin of `archs` ("sm_80", "sm_90a", ...) that a GPU of compute capability `sm` (major *
// 10 + minor) loads: the newest of its major with a minor <= its own; an arch-specific one
// ("sm_90a") only on exactly its sm. "" when none fits (the driver compiles the PTX instead).
// {"sm_80", "sm_89", "sm_90a"}: 80 -> "sm_80", 86 -> "sm_80", 89 -> "sm_89", 90 -> "sm_90a",
// 100 -> "".
std::string cubin_arch_for(const std::vector<std::string>& archs, int sm);

// `kernel_id`'s functions in `census` for `arch`, summed; nullopt when none matches or the id
// has no kernel_functions() entry.
std::optional<InstructionMix> sum_instruction_mix(const std::vector<FunctionMix>& census,
                                                  const std::string& kernel_id,
                                                  const std::string& arch);

// The census built into this binary (census_table.h) as rows; empty when the build had no
// cuobjdump. census_missing() says why it is empty ("" when it is not).
const std::vector<FunctionMix>& built_in_functions();
std::string census_origin();
std::string census_missing();

// Compute capability assumed without a GPU: an H100 (sm_90a cubin).
inline constexpr int kDefaultMixSm = 90;

// `kernel_id`'s mix on a GPU of compute capability `sm`, from the built-in census, or nullptr
// (instruction_mix_missing says why). Valid for the program's life.
const InstructionMix* instruction_mix(const std::string& kernel_id, int sm);

// Why instruction_mix(kernel_id, sm) is nullptr, one line: "cuBLAS: not our binary", the
// census's reason, "no SASS for sm_100 in this binary (it has sm_80, sm_89, sm_90a): the driver
// compiles its PTX at load"; "" when it is not nullptr.
std::string instruction_mix_missing(const std::string& kernel_id, int sm);

// "HMMA 64, HGMMA 0, IMMA 0, FFMA 12, FMUL/FADD 0, LDS/LDSM 48, STS 0, LDG/LDGSTS 32,
// UTMALDG 0, BAR 4, total 1234"
std::string instruction_mix_text(const InstructionMix& mix);

// "SASS of mma_cp_async.bf16 (sm_90a): HMMA 64, HGMMA 0, ..." or, without a mix,
// "SASS of cublas.f16: cuBLAS: not our binary".
std::string instruction_mix_line(const std::string& kernel_id, int sm);

}  // namespace tclens::kernels
