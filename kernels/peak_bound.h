#pragma once
// An upper bound on an instruction's arithmetic rate that owes nothing to measuring it: the
// dense FLOPs one SM can retire per clock in a precision, as NVIDIA's architecture whitepapers
// give them, times the SM count and an SM clock. What peak_probe.h measures must stay under it;
// a measurement above it means the probe miscounted its FLOPs or its time, which checking the
// measured peaks against each other (or against their own maximum) cannot show.
//
// Dense FLOPs per SM per clock (one multiply-add = 2 FLOPs). The whitepapers state them per SM
// or per tensor core (4 tensor cores per SM on all of these); the tensor-core rate is the one
// mma.sync and wgmma share, so it bounds both:
//   compute capability   FFMA (FP32 lanes x 2)   tensor tf32   tensor f16 / bf16
//   8.0 (A100)           128                     1024          2048
//   8.6, 8.9 (GA10x/AD)  256                      512          1024   (the full rate; GeForce
//                                                                      boards halve it with an
//                                                                      f32 accumulator)
//   9.0 (H100)           256                     2048          4096
// Worked check against the datasheets: H100 SXM, 132 SMs: 132 x 4096 x 1.83 GHz = 989 TFLOP/s
// bf16 dense (the datasheet's tensor figure, quoted at 1.83 GHz) and 132 x 256 x 1.98 GHz =
// 67 TFLOP/s FP32; A100, 108 SMs x 2048 x 1.41 GHz = 312 TFLOP/s f16 dense.

#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/peak_probe.h"

namespace tclens::kernels {

// The table above: FFMA for kF32, the tensor-core rate for kTF32, kF16 and kBF16. 0 for a
// compute capability not in it.
double dense_flops_per_sm_clock(int cc_major, int cc_minor, Precision precision);

// dense_flops_per_sm_clock x sm_count x sm_clock_khz, in TFLOP/s (0 when the rate is unknown).
// Example: (9, 0, kBF16, 132, 1830000) -> 989.4.
double peak_bound_tflops(int cc_major, int cc_minor, Precision precision, int sm_count,
                         int sm_clock_khz);

// The GPU whose peaks are checked: compute capability, SMs and the SM clock in kHz (the peak
// clock cudaDeviceProp reports, so the bound holds whatever clock the probe ran at).
struct BoundDevice {
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    int sm_clock_khz = 0;
};

// "" when every measured peak is at most its bound x (1 + tolerance), else one line per peak that
// is not, joined by "; ": "wgmma.m64n256k16.f32.bf16.bf16 (bf16): 2140.0 TFLOP/s measured,
// above the bound of 1070.5 (132 SMs x 4096 FLOP/clock x 1980 MHz)", or, where the table has no
// rate, "... (bf16): no dense rate known for compute capability 7.5". `peaks` empty: "no peaks
// were measured".
std::string peaks_above_bound(const std::vector<PeakMeasurement>& peaks, const BoundDevice& device,
                              double tolerance);

}  // namespace tclens::kernels
