#pragma once
// Host code the TMA rungs share (09_wgmma_tma.cu, 10_wgmma_warp_specialized.cu,
// 11_wgmma_persistent.cu, 12_wgmma_stream_k.cu, 13_wgmma_fp8.cu): the descriptor fields they
// fill alike from their Config, their operand maps, and the launch of the rungs with one block
// per C tile (09, 10). Included only by .cu files.

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/hopper.cuh"
#include "kernels/smem_opt_in.h"
#include "kernels/tma_gemm.h"

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

// The traced variant's launch (gemm.h, TracedLaunch) for d.precision (f16 or bf16; none for
// another precision) and the wgmma one warp issues per kWgmma phase. The shape is each rung's
// own (describe_tma_trace for one block per C tile).
template <typename Config, typename TracedFunction>
void set_tma_traced_launch(KernelDescriptor& d, Precision precision, TracedFunction traced_f16,
                           TracedFunction traced_bf16, int wgmma_per_phase) {
    if (precision == Precision::kF16) d.traced.launch = traced_f16;
    if (precision == Precision::kBF16) d.traced.launch = traced_bf16;
    d.traced.wgmma_per_phase = wgmma_per_phase;
}

// The traced variant's facts for a TMA rung with one block per C tile (09, 10): its launch as
// set_tma_traced_launch says, the grid of tiles, Config::kThreads / 32 warps, and per warp at
// most phases_per_k_tile phases per K tile plus other_phases outside the K loop.
template <typename Config, typename TracedFunction>
void describe_tma_trace(KernelDescriptor& d, Precision precision, TracedFunction traced_f16,
                        TracedFunction traced_bf16, int wgmma_per_phase, int phases_per_k_tile,
                        int other_phases) {
    set_tma_traced_launch<Config>(d, precision, traced_f16, traced_bf16, wgmma_per_phase);
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

// A TMA launch's operands: the tensor maps of A and B and the grid of C tiles.
struct TmaTileOperands {
    CUtensorMap a_map;
    CUtensorMap b_map;
    int tiles_m = 0;
    int tiles_n = 0;
};

// The maps of A and B as Element in boxes of Config::kBlockM and Config::kBlockK rows
// (encode_operand_maps) and the kBlockM x kBlockN tiles covering C. False when a map cannot be
// encoded.
template <typename Element, typename Config>
bool encode_tma_tile_operands(const GemmOperands& operands, TmaTileOperands* out) {
    const GemmProblem& p = operands.problem;
    if (!encode_operand_maps(operands, hopper::tma_type<Element>(), Config::kBlockM,
                             Config::kBlockK, &out->a_map, &out->b_map)
             .empty()) {
        return false;
    }
    out->tiles_m = static_cast<int>(tiles_covering(p.m, Config::kBlockM));
    out->tiles_n = static_cast<int>(tiles_covering(p.n, Config::kBlockN));
    return true;
}

// Enqueues `kernel`(a_map, b_map, C, M, N, K, tiles_m, tiles_n) on `stream` with tiles_m x
// tiles_n blocks of Config::kThreads threads and Config::kSmemBytes of dynamic shared memory,
// after opting the kernel in to that much (`max_carveout`: and to the largest shared-memory
// carveout, as opt_in_shared_memory says). The maps describe A and B as Element, in boxes of
// Config::kBlockM and Config::kBlockK rows (encode_operand_maps). Returns the opt-in's error,
// cudaErrorInvalidValue when a map cannot be encoded, else the launch's (cudaGetLastError).
template <typename Element, typename Config, typename Kernel>
cudaError_t launch_tma_tiles(Kernel kernel, const GemmOperands& operands, cudaStream_t stream,
                             bool max_carveout) {
    const GemmProblem& p = operands.problem;
    const cudaError_t status = opt_in_shared_memory(reinterpret_cast<const void*>(kernel),
                                                    Config::kSmemBytes, max_carveout);
    if (status != cudaSuccess) {
        return status;
    }
    TmaTileOperands t;
    if (!encode_tma_tile_operands<Element, Config>(operands, &t)) {
        return cudaErrorInvalidValue;
    }
    kernel<<<static_cast<unsigned>(std::int64_t{t.tiles_m} * t.tiles_n), Config::kThreads,
             Config::kSmemBytes, stream>>>(t.a_map, t.b_map, operands.c, static_cast<int>(p.m),
                                           static_cast<int>(p.n), static_cast<int>(p.k), t.tiles_m,
                                           t.tiles_n);
    return cudaGetLastError();
}

}  // namespace tclens::kernels
