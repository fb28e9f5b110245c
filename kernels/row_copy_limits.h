#pragma once
// The size limits of the rungs that copy A and B rows in 16-byte pieces (cp.async: 05-08) and
// index with 32-bit ints, in one place; each rung adds its own grid limit. Header-only, so that
// a copy of a rung (examples/rung8_copy.cu) builds from the rung's own includes.

#include <cstdint>
#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

// "" or why `problem` does not fit: M, N and K at most 2^30 (32-bit index arithmetic), and K
// (A's rows) and N (B's rows) multiples of chunk_elems, the elements of one 16-byte piece;
// `pieces` names the pieces. Example: (K = 30, 4, "16-byte (4 x f32) cp.async pieces") -> "K must
// be a multiple of 4: A rows are copied in 16-byte (4 x f32) cp.async pieces".
inline std::string row_copy_can_run(const GemmProblem& problem, int chunk_elems,
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
