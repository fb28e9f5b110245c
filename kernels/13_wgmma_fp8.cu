// Rung 13: FP8. Rung 11's persistent, clustered kernel (kernels/persistent_gemm.cuh: one TMA
// producer warpgroup and two wgmma consumer warpgroups per CTA, CTAs looping over the tiles in
// bands, clusters of 2 sharing B by TMA multicast, the epilogue through shared memory with TMA
// stores while the producer runs into the next tile) with e4m3 inputs: 1 byte per element,
// wgmma m64n256k32, f32 accumulators and an f32 C.
//
// Adds to rung 11: the e4m3 inputs alone. The kernel is rung 11's, instantiated for
// __nv_fp8_e4m3 (WgmmaInputs<1>, kernels/wgmma_inputs.h, says what that changes); the first
// version of this rung ran rung 10's non-persistent pipeline and reached 90.4 % of cublaslt.e4m3
// at 4096^3 and 97.0 % at 8192^3 on an H100 (tensor pipe 72.8 %: 512 one-tile blocks are 3.88
// waves, and no epilogue overlapped the next tile's loads). Rung 11's persistent schedule, B
// multicast and TMA-store epilogue are what took bf16 from rung 10's ~93 % to 98.7 % of cuBLAS at
// 4096^3.
//
// Why FP8 doubles the tensor-core peak: a Hopper tensor core moves and multiplies a fixed number
// of operand bits per clock. An e4m3 element is half the bits of an f16 one, so each wgmma issue
// takes twice the K (k32 instead of k16: the same 32 bytes of every A and B row) in the same
// time: 8192 dense FLOP per SM per clock instead of 4096 (kernels/peak_bound.cpp), about
// 1979 TFLOP/s on an H100 SXM at its boost clock. The same bytes of shared memory and DRAM also
// carry twice the multiply-adds, so a 128 x 256 tile of K = 128 costs what rung 10's K = 64 did.
//
// Scaling: e4m3 holds +-448 at most with 3 mantissa bits, so real FP8 GEMMs quantise each tensor
// with a scale (x_e4m3 = x / s_x, s_x mapping the tensor's absolute maximum onto 448) and
// compute D = s_A s_B (A_e4m3 B_e4m3), the two scales multiplied into the f32 epilogue (cuBLASLt:
// CUBLASLT_MATMUL_DESC_A_SCALE_POINTER / B_SCALE_POINTER). Here the inputs are already in
// e4m3's range (uniform in [-1, 1), kernels/gemm_data.h), so both scales are 1 and the epilogue
// stores the accumulators as they are; cublaslt.e4m3 runs with the same scales of 1.
//
// Operand layouts (kernels/gemm.h, b_is_k_major): A is M x K row-major (K-major); B is stored
// transposed, N x K row-major (K-major too), because wgmma reads 8-bit operands from shared
// memory only K-major (no transpose immediates exist for them) and cuBLASLt's FP8 GEMM takes
// only that "TN" layout. Both land in shared memory as the 16-bit rungs' A does: 128-byte
// swizzled rows of 128 k elements, 8-row atoms 1024 bytes apart, read with k_major_descriptor.
//
// Accumulation: the wgmma accumulates straight into the f32 registers, every k32 step, with no
// promotion of partial sums into separate f32 registers (CUTLASS's "fast accumulation"; the
// verification bound in kernels/runner.h says what that costs, and cublaslt.e4m3 runs the same
// mode so the comparison is like with like).
//
// Tiling: 384 threads = warpgroup 0 (producer) + warpgroups 1, 2 (consumers). Consumer c owns C
// rows 64 c .. 64 c + 63 of the 128 x 256 block tile: one wgmma m64n256k32 per k32 step, 4 steps
// per K tile of 128, 128 accumulators per thread.
//
// Shared memory (ChosenPersistentConfig, as rung 11's to the byte): 1 KiB alignment slack, then
// `stages` stages of one A box (128 rows x 128 bytes, 16 KiB) and four B^T boxes (64 rows x 128
// bytes, 8 KiB each: 256 contiguous K-major rows; each CTA of a cluster loads two and multicasts
// them to both), all "tma128", then 32 KiB of epilogue buffers, full[stages], empty[stages].
// 4 stages: 192 KiB + 32 KiB. Each full barrier expects 48 KiB a stage: its own A box and all
// four B^T boxes, two of them from the peer CTA.
//
// Pipeline: rung 11's, K tile it (counted over every tile of the CTA) in slot it % stages.
//
// Edges: TMA reads zeros past M, N and K (so K tails add nothing; a cluster's second CTA past M
// computes a zero tile) and clips the C stores; can_run asks K % 16 == 0 (A's and B^T's row
// strides) and N % 4 == 0 (C's f32 row stride, for the TMA stores) (tma_fp8_gemm_can_run).
#include <cuda_fp8.h>

#include <type_traits>

#include "kernels/13_wgmma_fp8.h"
#include "kernels/ladder_launches.h"
#include "kernels/persistent_gemm.cuh"

namespace tclens::kernels {

using Fp8Config = PersistentConfigOf<__nv_fp8_e4m3, wgmma_fp8::Fp8Shape>;
static_assert(std::is_same_v<Fp8Config, ChosenPersistentConfig<__nv_fp8_e4m3>>,
              "rung 11's tuning with e4m3 inputs");

void attach_wgmma_fp8_launches(KernelDescriptor& d) { d.launch = persistent_launch<Fp8Config>; }

}  // namespace tclens::kernels
