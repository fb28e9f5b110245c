#pragma once
// Peak probe: microbenchmarks that measure the current GPU's arithmetic peak per precision, the
// denominator of the bench's "% of measured peak". Each one keeps one kind of arithmetic unit
// busy on every SM and does nothing else: operands never leave registers or shared memory, no
// global memory is touched inside the timed loop, and the result is stored only when a
// run-time flag (always 0) says so, which no compiler pass can prove false.
//
// What is timed (FLOPs = 2 x multiply-adds):
//   FFMA      f32       fma.rn.f32: 16 independent accumulators per thread, 32 rounds per loop
//                       iteration (512 FFMA), as many 256-thread blocks as fit on every SM.
//                       2 FLOPs per FFMA.
//   mma.sync  tf32/f16/bf16  mma.sync.aligned.m16n8k8 (tf32) / m16n8k16 (f16, bf16), f32
//                       accumulate: A and B fragments fixed per lane in registers (non-zero
//                       values), 8 independent accumulator sets per warp, 4 rounds per loop
//                       iteration, as many 256-thread blocks as fit on every SM.
//                       2 * 16 * 8 * K FLOPs per instruction and warp.
//   wgmma     tf32/f16/bf16/e4m3  wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 /
//                       m64n256k16.f32.f16.f16 / .bf16.bf16 / m64n256k32.f32.e4m3.e4m3 (FP8:
//                       twice the K per instruction, the same bytes), A and B both read from shared
//                       memory through matrix descriptors (no-swizzle K-major tiles of
//                       non-zero data), 128 f32 accumulators per thread. Two warpgroups per
//                       block, one block per SM; each warpgroup issues batches of 8
//                       wgmma (fence, 8 x mma_async, commit_group, wait_group 0).
//                       2 * 64 * 256 * K FLOPs per instruction and warpgroup.
//                       Only on compute capability 9.0 and only when this build has sm_90a
//                       code (the instruction exists nowhere else); otherwise skipped.
//
// How it is timed: per microbenchmark, one launch that loads the module, a calibration that
// grows the loop count until a launch takes >= 1 ms and then scales it so that one launch takes
// ~8 ms, 2 warm-up launches, then the median of 11 launches, each timed with its own pair of
// CUDA events on a private stream. TFLOP/s = FLOPs of one launch / median time. The clock is
// whatever the GPU runs at under that load (boost, power or thermal limits included), so this
// is the sustained peak of this board as it is cooled and powered now, not the datasheet's.

#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/peak_measurement.h"

namespace tclens::kernels {

// Runs the microbenchmarks above on the current CUDA device (~1 s) and fills `out` with one
// entry per instruction this GPU runs, in the order above (FFMA, mma.sync tf32/f16/bf16, then
// wgmma tf32/f16/bf16/e4m3 on sm_90a): each instruction's own ceiling, e.g. mma.sync's for the
// rungs built on it, which wgmma outruns on Hopper. Returns "" or one line naming the benchmark and
// the CUDA error; `out` is left empty on failure. Needs compute capability 8.0 or newer
// (mma.sync with tf32 and bf16).
std::string measure_instruction_peaks(std::vector<PeakMeasurement>& out);

// Instruction peaks -> the peaks the bench divides by: one entry per precision in the order
// kF32, kTF32, kF16, kBF16, kE4M3, the fastest instruction of that precision (wgmma or mma.sync for
// the tensor-core precisions; tflops 0 and no instruction where none was measured).
std::vector<PeakMeasurement> best_per_precision(const std::vector<PeakMeasurement>& instructions);

}  // namespace tclens::kernels
