#pragma once
// mma.sp probe plans (pure) and their launcher (mma_sp_probe.cu). A is 2:4 sparse: the
// registers hold the compressed M x K/2 matrix and the metadata E (one 32-bit register per lane,
// sixteen 2-bit fields) places each compressed element in its group of four full columns. Every
// metadata field used here is valid for mma.sp::ordered_metadata (two different indices, the
// smaller first).
//
// Experiments, one warp each (A_c is the compressed A, f(c) = 4 (c / 2) + c % 2 the full column
// of compressed column c under the metadata {0, 1} of every group):
//   0 D: metadata {0, 1} in every field of every lane, so A_c[m][c] lands in full column f(c);
//      the product design (fragment_probe.h) in the columns f(0), f(1), ...
//   1 C: A = B = 0, C slot i holds i + 1.
//   A: one per compressed A slot: metadata {0, 1}, A_c one-hot there, B[k][n] = digit(k, n): D
//      row m spells the full column k = f(c), which gives c.
//   B: two per B slot, B one-hot there: with metadata {0, 1} A_c[m][c] = digit(f(c), m), with
//      metadata {2, 3} A_c[m][c] = digit(f(c) + 2, m). The column k of the one-hot element is in
//      exactly one of the two; D column n spells k there and is zero in the other.
//   E: one per metadata slot of the model (lane, field): A_c = 1 everywhere (every register of
//      every lane, whatever the model), B[4g][n] = digit(2g, n), B[4g+3][n] = digit(2g + 1, n),
//      B[4g+1] = B[4g+2] = 0, every field of every lane {1, 2} (D = 0), then that one field
//      changed: an even field (the first index of a group) from 1 to 0, an odd one from 2 to 3.
//      Its compressed element moves onto a spelling column: D row m spells the compressed column
//      c of the field, which gives (m, c).
// The sparsity selector is an immediate of the instruction: each ID's kernel is built for its
// selector.

#include <string_view>
#include <vector>

#include "kernels/probes/fragment_probe.h"

namespace tclens::kernels {

enum class SparseInstruction {
    M16n8k16F16,
    M16n8k16Bf16,
    M16n8k32F16,
    M16n8k32Bf16,
    M16n8k32S8,
    M16n8k64S8,
    M16n8k64E4m3,
};

struct SparseProbeSpec {
    const char* id;  // e.g. "mma.sp.m16n8k16.f16.sel1"
    SparseInstruction instruction;
    int selector;
    ElementType input;
    ElementType accumulator;
    int min_sm;  // 80, or 89 for e4m3
};

const SparseProbeSpec* find_sparse_probe_spec(std::string_view id);

// Metadata registers: every field {0, 1}, {2, 3}, {1, 2}.
constexpr uint32_t kMetadata01 = 0x44444444u;
constexpr uint32_t kMetadata23 = 0xeeeeeeeeu;
constexpr uint32_t kMetadata12 = 0x99999999u;

struct SparseProbePlan {
    std::string error;
    SparseInstruction instruction = SparseInstruction::M16n8k16F16;
    int selector = 0;
    int experiments = 0;
    std::vector<uint32_t> a, b, c, e;  // per experiment: the register images; e one word per lane
};

SparseProbePlan plan_sparse_probe(const viz::FragmentLayout& model, const SparseProbeSpec& spec);

// `d`: each experiment's D image. Returns A, B, C, D and E.
std::vector<MeasuredOperand> decode_sparse_probe(const viz::FragmentLayout& model,
                                                 const SparseProbeSpec& spec,
                                                 const std::vector<uint32_t>& d);

DeviceRun run_sparse_probe(const SparseProbePlan& plan);  // mma_sp_probe.cu

}  // namespace tclens::kernels
