#pragma once
// Which kernels a bench of some registry ids runs: each requested kernel and, with references,
// its same-precision cuBLAS reference and cublas.sgemm for TF32 rungs (the lab's "beat FP32
// cuBLAS" goal), in registry order. Plain C++ over the registry's descriptions: a client checks
// and counts a bench with it before a worker runs it (kernels/bench.h).

#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::kernels {

// The registry's kernels a bench of `ids` runs, in registry order. On an unknown id returns {}
// and sets `error` to one line listing the valid ids, else clears it.
// {"cublas.f16", "wmma.f16"} -> wmma.f16, cublas.f16; {"mma_tf32_tuned"} -> mma_tf32_tuned,
// cublas.sgemm, cublas.tf32.
std::vector<const KernelDescriptor*> bench_kernels(const std::vector<std::string>& ids,
                                                   std::string& error, bool with_references = true);

}  // namespace tclens::kernels
