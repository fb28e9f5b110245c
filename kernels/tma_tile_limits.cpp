#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

namespace {

constexpr std::int64_t kMaxDim = std::int64_t{1} << 30;

std::string too_large(const GemmProblem& problem) {
    if (problem.m > kMaxDim || problem.n > kMaxDim || problem.k > kMaxDim) {
        return "M, N and K are 32-bit ints in the kernel: each must be at most 1073741824";
    }
    return "";
}

std::string too_many_tiles(const GemmProblem& problem, int block_m, int block_n) {
    if (tiles_covering(problem.m, block_m) * tiles_covering(problem.n, block_n) > 2147483647) {
        return "C has more than 2147483647 tiles of " + std::to_string(block_m) + " x " +
               std::to_string(block_n) + ": tile ids and gridDim.x are 32-bit";
    }
    return "";
}

}  // namespace

std::string tma_fp8_gemm_can_run(const GemmProblem& problem, int block_m, int block_n) {
    if (std::string why = too_large(problem); !why.empty()) return why;
    if (problem.k % 16 != 0) {
        return "K must be a multiple of 16: TMA needs the row strides of A and B^T (K bytes of "
               "e4m3) to be multiples of 16 bytes";
    }
    if (problem.n % 4 != 0) {
        return "N must be a multiple of 4: TMA stores C, whose row stride (N f32) must be a "
               "multiple of 16 bytes";
    }
    return too_many_tiles(problem, block_m, block_n);
}

std::string tile_grid_can_run(const GemmProblem& problem, int block_m, int block_n) {
    if (std::string why = too_large(problem); !why.empty()) return why;
    return too_many_tiles(problem, block_m, block_n);
}

std::string tma_gemm_can_run(const GemmProblem& problem, int block_m, int block_n) {
    if (std::string why = too_large(problem); !why.empty()) return why;
    if (problem.k % 8 != 0) {
        return "K must be a multiple of 8: TMA needs A's row stride to be a multiple of 16 bytes";
    }
    if (problem.n % 8 != 0) {
        return "N must be a multiple of 8: TMA needs B's row stride to be a multiple of 16 bytes";
    }
    return too_many_tiles(problem, block_m, block_n);
}

}  // namespace tclens::kernels
