#pragma once
// What the TMA rungs (09-13) share on the host: which problems TMA can describe
// (kernels/tma_tile_limits.h), and the tensor maps of their 16-bit and FP8 operands.

#include <cuda.h>

#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

// Both encoders take the operands' row strides (a_stride, b_stride: dense, or rung 14's padded
// copies); the maps' extents stay the problem's, so TMA reads zeros past M, N and K.
//
// Encodes the tensor maps of the FP8 operands, both K-major: A (M x K) and B^T (N x K), bytes
// (CU_TENSOR_MAP_DATA_TYPE_UINT8: TMA moves bytes; the type only sizes them), in boxes of
// kTmaFp8BoxElems k x box_rows_a (A) or box_rows_b (B^T) rows, 128-byte swizzled. "" or the
// first encoder error.
std::string encode_k_major_fp8_maps(const GemmOperands& operands, std::uint32_t box_rows_a,
                                    std::uint32_t box_rows_b, CUtensorMap* a_map,
                                    CUtensorMap* b_map);

// Encodes the tensor maps of A (M x K, boxes of kTmaBoxElems k x box_rows_a rows) and B (K x N,
// boxes of kTmaBoxElems n x box_rows_b rows), row-major 16-bit elements of `type`, 128-byte
// swizzled. Returns "" or the first encoder error.
std::string encode_operand_maps(const GemmOperands& operands, CUtensorMapDataType type,
                                std::uint32_t box_rows_a, std::uint32_t box_rows_b,
                                CUtensorMap* a_map, CUtensorMap* b_map);

}  // namespace tclens::kernels
