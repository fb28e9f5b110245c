// Sparse mma.sp fragment layouts (PTX ISA, "Matrix multiply-accumulate operation using mma.sp
// instruction with sparse matrix A": "Sparse matrix storage" and "Matrix fragments for
// multiply-accumulate operation with sparse matrix A"), as
// mma.sp::ordered_metadata.sync.aligned.<shape>.row.col.<D>.<A>.<B>.<C> d, a, b, c, e, f.
//
// A is 2:4 structured sparse: each group of 4 consecutive elements of a row of the M x K matrix
// holds at most 2 non-zeros, and only those are stored. Operand A here is that compressed
// M x K/2 matrix: its column c holds a non-zero of full columns 4(c/2) .. 4(c/2)+3, and its
// register fragment is the dense mma A fragment of K/2 (mma_a_coord with K/2).
// Operand E is the metadata, one 32-bit register: sixteen 2-bit fields, field f at bits
// 2f..2f+1 (`sub` = f). Field (row, c) of the compressed A holds the position (0..3) inside its
// group of 4 full columns of compressed element (row, c): full column 4(c/2) + field. In each
// group of four lanes only the lanes named by the sparsity selector f hold metadata:
//   m16n8k16 .f16/.bf16 (selector 0..3): lane 4g+f: bits 0-15 row g, bits 16-31 row g+8, each
//     the 8 fields of the whole row (compressed columns 0..7, low field first).
//   m16n8k32 .f16/.bf16 (selector 0..1): lanes 4g+2f+p, p = 0, 1: bits 0-15 row g, bits 16-31
//     row g+8, compressed columns 8p .. 8p+7.
//   m16n8k32 .s8 (selector 0..1): lanes 4g+2f+p: row g+8p, all 16 compressed columns.
//   m16n8k64 .s8/.e4m3 (selector 0): lanes 4g+p+2q, p, q = 0, 1: row g+8p, compressed columns
//     16q .. 16q+15.
// (The metadata figures of the PTX ISA; CUTLASS's SM80 sparse MMA traits agree.)
// B, C and D are the dense fragments of the full K (mma_layouts.h).
//
// IDs carry the selector: mma.sp.m16n8k16.f16.sel0 .. sel3, mma.sp.m16n8k16.bf16.sel0 .. sel3,
// mma.sp.m16n8k32.f16.sel0 .. sel1, mma.sp.m16n8k32.bf16.sel0 .. sel1,
// mma.sp.m16n8k32.s8.sel0 .. sel1, mma.sp.m16n8k64.s8.sel0, mma.sp.m16n8k64.e4m3.sel0 (FP8
// sparse mma has only K = 64).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

// The mma.sp IDs above, in that order.
std::vector<std::string> mma_sp_layout_ids();

// The layout for an mma.sp ID, or nullopt if `id` is not one.
std::optional<FragmentLayout> mma_sp_layout(std::string_view id);

}  // namespace tclens::viz
