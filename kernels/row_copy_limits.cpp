#include "kernels/row_copy_limits.h"

#include <cstdint>

namespace tclens::kernels {

std::string row_copy_can_run(const GemmProblem& problem, int chunk_elems,
                             const std::string& pieces) {
    constexpr std::int64_t kMaxDim = std::int64_t{1} << 30;
    if (problem.m > kMaxDim || problem.n > kMaxDim || problem.k > kMaxDim) {
        return "M, N and K are 32-bit ints in the kernel: each must be at most 1073741824";
    }
    const std::string multiple = " must be a multiple of " + std::to_string(chunk_elems);
    if (problem.k % chunk_elems != 0) return "K" + multiple + ": A rows are copied in " + pieces;
    if (problem.n % chunk_elems != 0) return "N" + multiple + ": B rows are copied in " + pieces;
    return "";
}

}  // namespace tclens::kernels
