#pragma once
// Rung 14, dispatch: per (M, N, K) it runs one configuration of a small family built from the
// ladder's parts, chosen by kernels/dispatch_rules.h (16-bit inputs) or kernels/
// fp8_dispatch_rules.h (e4m3), and says why in one line (launch_plan).
// This header: the descriptors of what it can choose, plain C++. ladder.h declares the rung's own
// descriptor (kernels/14_dispatch.cpp) and its GPU launch (kernels/14_dispatch.cu).

#include <string>
#include <vector>

#include "kernels/dispatch_rules.h"
#include "kernels/gemm.h"

namespace tclens::kernels {

// The descriptor of the split-K GEMM (kernels/split_k_gemm.h) in `tile` over `splits` K ranges
// (its k_ranges), "split_k.f16" / ".bf16": its tiles, warps, stages and schedule for the tile
// map; can_run split_k_can_run; no launch (rung 14 runs it with the split its rules choose).
KernelDescriptor split_k_descriptor(Precision precision, Rung9Tile tile, int splits);

// The descriptor of the short-K GEMM (kernels/short_k_gemm.h), "short_k.f16" / ".bf16": rung 9's
// tile and wgmma, its own loads; can_run short_k_can_run; no launch (rung 14 runs it).
KernelDescriptor short_k_descriptor(Precision precision);

// The rules of `precision`'s inputs: choose_fp8_dispatch (kernels/fp8_dispatch_rules.h) for
// kE4M3, else choose_dispatch.
DispatchChoice choose_dispatch_for(Precision precision, const GemmProblem& problem, int sms);

// What runs `choice` on `sms` SMs, for the tile map (KernelDescriptor::for_problem): the
// registered rung's descriptor (rung 11's for_problem applied to the padded problem), rung 9's
// in the chosen tile (wgmma_tma_tile_descriptor: its own for the square one),
// split_k_descriptor, short_k_descriptor, or wgmma_fp8_tile_descriptor (kernels/13_wgmma_fp8.h).
// Its id is that configuration's, not rung 14's.
KernelDescriptor dispatch_configuration(const DispatchChoice& choice, Precision precision, int sms);

// "" when the configuration `choice` names accepts its padded problem, else its refusal.
std::string dispatch_configuration_can_run(const DispatchChoice& choice, Precision precision);

// One configuration of the 16-bit family that could run a problem, named for a table ("rung 9
// 64x128 split 4", "rung 11", "short-K").
struct DispatchCandidate {
    std::string name;
    DispatchChoice choice;  // its reason left empty
};

// Every configuration of `precision`'s family that can run `problem`: rung 9's kernel in each of
// its tiles, unsplit and split 2, 3, 4, 6, 8, 12 and 16 ways (where K's tiles, 64 deep or 128 for
// e4m3, make that many ranges of split_k_depth), then for kF16 and kBF16 rung 11, rung 12 and the
// short-K GEMM, for kE4M3 rung 13 and its kernel in the FP8 128 x 192 and 128 x 128 tiles, in
// that order, each where dispatch_configuration_can_run accepts it. What
// tests/gpu/tools/dispatch_candidates.cpp times to derive the rules from.
std::vector<DispatchCandidate> dispatch_candidates(const GemmProblem& problem, Precision precision);

}  // namespace tclens::kernels
