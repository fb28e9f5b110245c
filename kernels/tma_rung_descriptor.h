#pragma once
// What the TMA rungs (09-13) fill alike in their descriptors, from their Config: the tiles, the
// wgmma, the shared memory and the schedule's common half, and the traced variant's shape of
// the rungs with one block per C tile (09, 10). Plain C++; their launches are tma_rung.cuh's.

#include <string>

#include "kernels/gemm.h"
#include "kernels/hopper_shapes.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

// The descriptor fields every TMA rung fills alike from its Config: the block tile, a warp's
// C tile (warp_rows x kBlockN: its rows of each m64 wgmma), the wgmma tile m64 x kWgmmaN x k16,
// the stages, the "tma128" swizzle, threads, dynamic shared memory, min_sm 90 (sm_90a),
// size_multiples {1, 8, 8} (TMA needs 16-byte row strides: K and N multiples of 8), the wgmma
// layout id (the atlas's bf16 layout is f16's), and the schedule's common half: consumer
// warpgroups after the loading ones, wgmma work, TMA boxes of kBoxElems issued by thread 0.
// Block order, texts, ids and launch are each rung's own.
template <typename Config>
void describe_tma_rung(KernelDescriptor& d, int first_consumer_warpgroup, int consumer_warpgroups,
                       int warp_rows) {
    const std::string wgmma = "wgmma.m64n" + std::to_string(Config::kWgmmaN) + "k16";
    d.block_tile = {Config::kBlockM, Config::kBlockN, Config::kBlockK};
    d.warp_tile = {warp_rows, Config::kBlockN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {hopper::kWgmmaM, Config::kWgmmaN, hopper::kWgmmaK};
    d.stages = Config::kStages;
    d.swizzle = "tma128";
    d.threads = Config::kThreads;
    d.dynamic_smem_bytes = Config::kSmemBytes;
    d.min_sm = 90;
    d.size_multiples = {1, 8, 8};
    d.layout_ids = {wgmma + ".f16"};
    d.schedule.warp_layout = viz::WarpLayout::kWarpgroups;
    d.schedule.first_consumer_warpgroup = first_consumer_warpgroup;
    d.schedule.consumer_warpgroups = consumer_warpgroups;
    d.schedule.work = viz::WorkKind::kWgmma;
    d.schedule.instruction = wgmma;
    d.schedule.load = viz::LoadKind::kTma;
    d.schedule.tma_thread = 0;
    d.schedule.tma_box_cols = hopper::kBoxElems;
}

// What a configuration with e4m3 inputs changes in the fields describe_tma_rung filled: the
// precision and its reference (cuBLASLt's FP8 GEMM), the k32 wgmma and its atlas layout, the
// size rules and can_run (K a multiple of 16, N of 4: tma_fp8_gemm_can_run), and the width the
// tile map draws A's and B^T's boxes in: the K tile's 128 where that tiles kBlockN, else the
// B^T boxes' 64 rows (A then drawn as two 64-k boxes of the same bytes).
template <typename Config>
void set_fp8_inputs(KernelDescriptor& d) {
    const std::string wgmma = "wgmma.m64n" + std::to_string(Config::kWgmmaN) + "k32";
    d.precision = Precision::kE4M3;
    d.reference_id = "cublaslt.e4m3";
    d.mma_tile = {hopper::kWgmmaM, Config::kWgmmaN, hopper::kWgmmaKFp8};
    d.layout_ids = {wgmma + ".e4m3"};
    d.schedule.instruction = wgmma;
    d.schedule.tma_box_cols =
        Config::kBlockN % Config::kBlockK == 0 ? Config::kBlockK : hopper::kBoxElems;
    d.size_multiples = {1, 4, 16};
    d.can_run = tma_tile_fp8_can_run<Config>;
}

// The traced variant's facts for a TMA rung with one block per C tile (09, 10): the wgmma one
// warp issues per kWgmma phase, the grid of tiles, Config::kThreads / 32 warps, and per warp at
// most phases_per_k_tile phases per K tile plus other_phases outside the K loop. Its launch is
// attached in the CUDA layer (tma_rung.cuh, attach_tma_traced_launch).
template <typename Config>
void describe_tma_trace(KernelDescriptor& d, int wgmma_per_phase, int phases_per_k_tile,
                        int other_phases) {
    d.traced.wgmma_per_phase = wgmma_per_phase;
    d.traced.shape = [phases_per_k_tile, other_phases](const GemmProblem& p) {
        TracedShape shape;
        shape.grid_blocks =
            tiles_covering(p.m, Config::kBlockM) * tiles_covering(p.n, Config::kBlockN);
        shape.warps_per_block = Config::kThreads / 32;
        shape.records_per_warp =
            phases_per_k_tile * tiles_covering(p.k, Config::kBlockK) + other_phases;
        return shape;
    };
}

}  // namespace tclens::kernels
