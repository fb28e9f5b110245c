// Rung 14's FP8 configurations on the GPU (kernels/fp8_dispatch.cuh): rung 13's persistent
// kernel instantiated for the smaller tiles of kernels/13_wgmma_fp8.h, and its split-K launch.
//
// Split-K: one launch of gridDim = (CTAs per range, ranges). The CTAs of range z (blockIdx.y)
// run the persistent loop over every C tile with `k` = the range depth: they load K tiles
// z x depth / 128 onwards (TMA reads zeros past the real K, so the last, shorter range adds
// nothing there) and store their f32 tiles at rows z x slice_rows of the workspace, slice_rows
// being M rounded up to whole 128-row tiles so that a tile's rows past M stay in its own slice.
// The co-resident clusters are shared among the ranges; the rules split only where every
// range's cluster tiles fit its share (one round). sum_split_ranges then adds the ranges' M x N
// parts into C in range order (deterministic, no atomics).
#include <cuda_fp8.h>

#include <algorithm>

#include "kernels/13_wgmma_fp8.h"
#include "kernels/fp8_dispatch.cuh"
#include "kernels/fp8_dispatch_rules.h"
#include "kernels/persistent_gemm.cuh"
#include "kernels/split_k_gemm.cuh"

namespace tclens::kernels {
namespace {

using Config192 = PersistentConfigOf<__nv_fp8_e4m3, wgmma_fp8::Fp8Shape192>;
using Config128 = PersistentConfigOf<__nv_fp8_e4m3, wgmma_fp8::Fp8Shape128>;

// Rows of one K range's partial C: M rounded up to whole tiles of Config.
template <typename Config>
std::int64_t slice_rows(const GemmProblem& problem) {
    return tiles_covering(problem.m, Config::kBlockM) * Config::kBlockM;
}

// Floats from one partial row to the next: the padded problem's N, a multiple of 4 (the 16 bytes
// of TMA's row strides).
std::int64_t partial_stride(const GemmProblem& problem) { return fp8_padded_problem(problem).n; }

template <typename Config>
cudaError_t persistent_split_k_launch(const GemmOperands& operands, int ranges, float* partials,
                                      cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    int clusters = 0;
    cudaError_t status = persistent_co_resident_clusters<Config>(&clusters);
    if (status != cudaSuccess) return status;
    const std::int64_t rows = slice_rows<Config>(p);
    GemmOperands into_partials = operands;  // A's and B^T's strides kept
    into_partials.c = partials;
    into_partials.ldc = partial_stride(p);
    CUtensorMap a_map;
    CUtensorMap b_map;
    CUtensorMap c_map;
    if (!persistent_maps<Config>(into_partials, ranges * rows, &a_map, &b_map, &c_map).empty()) {
        return cudaErrorInvalidValue;
    }
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = persistent_launch_config<Config>(
        persistent_grid<Config>(p, std::max(1, clusters / ranges)), stream, &attribute);
    config.gridDim.y = static_cast<unsigned>(ranges);
    status = cudaLaunchKernelEx(&config, persistent_gemm<__nv_fp8_e4m3, Config>, a_map, b_map,
                                c_map, static_cast<int>(p.m), static_cast<int>(p.n),
                                static_cast<int>(fp8_split_depth(p.k, ranges)),
                                static_cast<int>(tiles_covering(p.m, Config::kBlockM)),
                                static_cast<int>(tiles_covering(p.n, Config::kBlockN)));
    if (status == cudaSuccess) status = cudaGetLastError();
    if (status != cudaSuccess) return status;
    return sum_split_ranges(partials, rows * into_partials.ldc, into_partials.ldc, ranges,
                            operands.c, {p.m, p.n}, c_stride(operands), stream);
}

}  // namespace

std::int64_t fp8_workspace_floats(const DispatchChoice& choice, const GemmProblem& problem) {
    if (choice.config != DispatchConfig::kFp8SplitK) return 0;
    return choice.splits * slice_rows<Config128>(problem) * partial_stride(problem);
}

cudaError_t fp8_configuration_launch(const DispatchChoice& choice, const GemmOperands& operands,
                                     float* workspace, cudaStream_t stream) {
    switch (choice.config) {
        case DispatchConfig::kFp8Tile192:
            return persistent_launch<Config192>(operands, stream);
        case DispatchConfig::kFp8Tile128:
            return persistent_launch<Config128>(operands, stream);
        case DispatchConfig::kFp8SplitK:
            return persistent_split_k_launch<Config128>(operands, choice.splits, workspace, stream);
        default:
            return cudaErrorInvalidValue;
    }
}

}  // namespace tclens::kernels
