// Rung 14's short-K GEMM: which problems it takes (its kernel: short_k_gemm.cu).
#include "kernels/short_k_gemm.h"

#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

std::string short_k_can_run(const GemmProblem& problem) {
    if (problem.k > kShortKMaxK) {
        return "K must be at most " + std::to_string(kShortKMaxK) +
               ": the short-K GEMM runs its K tiles one after the other, unpipelined";
    }
    return tile_grid_can_run(problem, ShortKConfig::kBlockM, ShortKConfig::kBlockN);
}

}  // namespace tclens::kernels
