#pragma once
// Which problems the TMA rungs (09-13) can compute, and the box widths their tensor maps use:
// plain C++, so that their descriptors' can_run builds without CUDA. kernels/tma_gemm.h adds
// the tensor maps themselves.

#include <cstdint>
#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

// Width of every operand box: 64 16-bit elements, one 128-byte swizzled row (hopper::kBoxElems).
constexpr std::uint32_t kTmaBoxElems = 64;

// Tiles of `tile` elements that cover `extent` elements.
inline std::int64_t tiles_covering(std::int64_t extent, int tile) {
    return (extent + tile - 1) / tile;
}

// "" when a kernel of one CTA per block_m x block_n C tile, with 32-bit index math, can cover
// `problem`, else one line why not: M, N and K at most 2^30, at most 2^31 - 1 tiles.
std::string tile_grid_can_run(const GemmProblem& problem, int block_m, int block_n);

// "" when a TMA rung with block_m x block_n C tiles can compute `problem`, else one line why
// not: M, N and K at most 2^30 (32-bit index math), K and N multiples of 8 (TMA row strides are
// multiples of 16 bytes), at most 2^31 - 1 tiles (32-bit tile ids and gridDim.x).
std::string tma_gemm_can_run(const GemmProblem& problem, int block_m, int block_n);

// tma_gemm_can_run for a rung whose Config has the block tile kBlockM x kBlockN: its can_run.
template <typename Config>
std::string tma_tile_can_run(const GemmProblem& problem) {
    return tma_gemm_can_run(problem, Config::kBlockM, Config::kBlockN);
}

// FP8 (kE4M3) operand boxes: 128 one-byte elements, one 128-byte swizzled row, as kTmaBoxElems
// 16-bit ones.
constexpr std::uint32_t kTmaFp8BoxElems = 128;

// "" when an FP8 TMA rung with block_m x block_n C tiles can compute `problem` (A M x K, B^T
// N x K, both K-major: gemm.h), else one line why not: M, N and K at most 2^30, K a multiple of
// 16 (A's and B^T's row strides are K bytes; TMA needs multiples of 16), N a multiple of 4 (C's
// row stride is N f32, and C leaves by TMA stores), at most 2^31 - 1 tiles. M and N need not be
// multiples of the tile: TMA reads zeros past the edges and clips the stores.
std::string tma_fp8_gemm_can_run(const GemmProblem& problem, int block_m, int block_n);

// tma_fp8_gemm_can_run for an FP8 rung whose Config has the block tile kBlockM x kBlockN.
template <typename Config>
std::string tma_tile_fp8_can_run(const GemmProblem& problem) {
    return tma_fp8_gemm_can_run(problem, Config::kBlockM, Config::kBlockN);
}

}  // namespace tclens::kernels
