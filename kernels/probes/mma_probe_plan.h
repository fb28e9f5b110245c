#pragma once
// mma.sync probe plans (pure) and their launcher (mma_probe.cu): what the GPU runs for an mma
// layout ID and how its output becomes a measurement. The unit tests run the same plans through a
// CPU emulation of each instruction.
//
// Experiments back to back, one warp each. Every input type but b1: 0 is the D experiment, 1 the
// C experiment, then one per A slot and one per B slot (model element order); see
// fragment_probe.h. b1 (popc of AND or XOR over K = 256 one-bit products) cannot spell a
// coordinate in one bit, so:
//   D: the product design of b1 (each weight spread over repeated columns of 1s); with XOR the
//      count is (columns used) - (the AND count), since each used column has one side all 1s.
//   C: as usual (0 XOR 0 = 0 AND 0 = 0).
//   A: two experiments per slot, A one-hot there: "bits" with B[k][n] = bit n of k (n < 8) and
//      "row" with B all 1s. With AND the row experiment lights row m only and the bits
//      experiment spells k there. With XOR every D value is the column's count of 1s in B plus
//      one (the one-hot A bit meets a 0) or minus one (it meets a 1) in row m, and unchanged
//      elsewhere: the row is where D moved, the bit is whether it went down.
//   B: one experiment per slot, B one-hot, A[m][k] = bit m of k + 1 (m < 9): column n spells
//      k + 1 (never 0) with AND; with XOR the column is where D moved off A's row count.

#include <string_view>
#include <vector>

#include "kernels/probes/fragment_probe.h"

namespace tclens::kernels {

enum class MmaInstruction {
    M16n8k4Tf32,
    M16n8k8Tf32,
    M16n8k8F16,
    M16n8k16F16,
    M16n8k16Bf16,
    M16n8k32S8,
    M16n8k32E4m3,
    M8n8k4F64,
    M16n8k8Bf16,
    M16n8k16F16F16,
    M16n8k32E5m2,
    M16n8k32E4m3F16,
    M16n8k32E5m2F16,
    M16n8k64S4,
    M16n8k64U4,
    M16n8k256B1And,
    M16n8k256B1Xor,
    M8n8k16S8,
    M8n8k32S4,
};

enum class PopcOp { kNone, kAnd, kXor };

struct MmaProbeSpec {
    const char* id;  // layout ID, e.g. "mma.m16n8k8.tf32"
    MmaInstruction instruction;
    ElementType input;        // A and B
    ElementType accumulator;  // C and D
    int min_sm;               // 80, or 89 for FP8
    PopcOp popc;              // b1 only
};

// The spec for an mma layout ID, or nullptr.
const MmaProbeSpec* find_mma_probe_spec(std::string_view id);

// a/b/c hold each experiment's register image of that operand.
struct MmaProbePlan {
    std::string error;  // "" or why no plan could be made (model shape, inexact value)
    MmaInstruction instruction = MmaInstruction::M16n8k8F16;
    int experiments = 0;
    std::vector<uint32_t> a, b, c;
};

MmaProbePlan plan_mma_probe(const viz::FragmentLayout& model, const MmaProbeSpec& spec);

// `d` holds each experiment's D register image, back to back. Returns A, B, C and D.
std::vector<MeasuredOperand> decode_mma_probe(const viz::FragmentLayout& model,
                                              const MmaProbeSpec& spec,
                                              const std::vector<uint32_t>& d);

// b1: bit j of k (j < 8) for the "bits" experiment, bit m of k + 1 (m < 9) for the B one-hots.
// k = 5: b1_bit(5, 0) = 1, b1_bit(5, 1) = 0.
int b1_bit(int value, int bit);

DeviceRun run_mma_probe(const MmaProbePlan& plan);  // mma_probe.cu

}  // namespace tclens::kernels
