#pragma once
// What `tclens bench --sweep` reports: per shape the best verified kernel of those given as a
// ratio to the same-run cuBLAS (1.00 = as fast), their geometric mean and minimum, and the worst
// shapes with the reason the tile model (loss_reason) gives for each and, for a kernel that
// chooses per shape (rungs 11, 12 and 14), what it chose.

#include <optional>
#include <string>
#include <vector>

#include "kernels/bench_result.h"
#include "kernels/gemm.h"

namespace tclens::kernels {

// One shape of the sweep.
struct SweepShape {
    GemmProblem problem;
    std::string best_id;          // the fastest verified kernel; "" when none ran
    std::optional<double> ratio;  // its TFLOP/s / cuBLAS's; nullopt when none ran
    std::string reason;           // why it loses (loss_reason), or why none ran (a skip line)
    std::string plan;             // how the best kernel ran it where it chooses per shape: its
                                  // launch_plan (rung 11's tile, rung 12's mode, rung 14's
                                  // configuration and why) on the descriptor's SM count (132),
                                  // which the loss reason's `sms` matches on an H100 or H200;
                                  // else ""
};

struct SweepSummary {
    std::vector<SweepShape> shapes;  // in the order the bench ran them
    int shapes_run = 0;              // shapes with a ratio
    double geomean = 0;              // of the ratios of the shapes that ran; 0 when none
    double minimum = 0;              // over every shape, one that no kernel ran counting 0
    std::vector<SweepShape> worst;   // up to `worst` shapes, lowest ratio first (none ran: first)
};

// What stops `kernel` (as it runs `problem`, its for_problem applied) from matching cuBLAS, as
// the tile model sees it, one line: the biggest modelled loss of
//   idle SMs      "48 tiles of 128 x 256 on 132 SMs: 84 SMs idle" (a kernel of two CTAs per
//                 SM: "on 264 CTAs (2 per SM on 132 SMs): 48 CTA slots idle")
//   the last wave "300 tiles = 2.27 waves on 132 SMs: 3 rounds 76 % filled"
//   padding       "tiles of 128 x 256 cover 1.48x the output (M = 130, N = 200)"
//   a short K     "K = 64: 1 K tile of 64, fewer than the 4 stages"
// each named only where it costs at least 10 %; with none of those,
//   "memory-bound: 42 FLOP/B, below the ridge of 295 FLOP/B" when ridge_flop_per_byte > 0 and
//   the shape's arithmetic intensity (2MNK over A, B read once and C written once) is below it,
// else "no modelled loss (tiles, waves, padding, K, memory): profile it".
std::string loss_reason(const KernelDescriptor& kernel, const GemmProblem& problem, int sms,
                        double ridge_flop_per_byte);

// Groups `report`'s rows by problem; for each, the best verified row of `kernel_ids` by
// pct_of_reference. A shape none of them ran takes the first of their skip or error lines.
// `sms` and `ridge_flop_per_byte` feed loss_reason.
SweepSummary summarize_sweep(const BenchReport& report, const std::vector<std::string>& kernel_ids,
                             int sms, double ridge_flop_per_byte, std::size_t worst = 10);

}  // namespace tclens::kernels
