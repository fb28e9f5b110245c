#pragma once
// Rung 12's configurations (its wide and small-M modes) and its traced variant's shape, shared
// by its kernel and launch (12_wgmma_stream_k.cu) and its descriptor (12_wgmma_stream_k.cpp).

#include "kernels/block_order.h"
#include "kernels/gemm.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/stream_k_schedule.h"
#include "kernels/tma_stage_layout.h"

namespace tclens::kernels::wgmma_stream_k {

template <int Consumers, int BlockN, int Stages, int Group>
struct StreamKConfig : TmaStageLayout<Consumers * hopper::kWgmmaM, BlockN> {
    static constexpr int kConsumers = Consumers;  // consumer warpgroups, 64 rows of C each
    static constexpr int kBlockM = kConsumers * hopper::kWgmmaM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = hopper::kBoxElems;
    static constexpr int kStages = Stages;
    static constexpr int kGroup = Group;  // raster bands of kGroup tile rows

    static constexpr int kThreads = (1 + kConsumers) * hopper::kWarpgroupThreads;
    static constexpr int kWgmmaN = kBlockN;
    static constexpr int kSteps = kBlockK / hopper::kWgmmaK;  // wgmma k16 steps per K tile
    static constexpr int kAccumulators = kWgmmaN / 2;         // per consumer thread

    // The ring, then full[stages] and empty[stages].
    static constexpr int kSmemBytes = TmaStageLayout<kBlockM, kBlockN>::ring_smem_bytes(kStages, 2);
    // Floats of one consumer warpgroup's partial tile in the workspace.
    static constexpr int kPartialFloats = hopper::kWarpgroupThreads * kAccumulators;

    static_assert(kBlockN == 128 || kBlockN == 256, "wgmma_ss has N 64/128/256; 128 or 256 here");
    static_assert(kConsumers == 1 || kConsumers == 2, "one or two consumer warpgroups");
    static_assert(kStages >= 2, "the producer refills one slot while another is consumed");
    static_assert(kSmemBytes <= 227 * 1024, "shared memory must fit one H100 block");

    // Tile id -> (tile row, tile col): bands of kGroup tile rows (kernels/block_order.h).
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroup, tile_m, tile_n);
    }
};

using WideConfig = StreamKConfig<2, 256, 4, 8>;
using SmallMConfig = StreamKConfig<1, 128, 6, 8>;
static_assert(WideConfig::kBlockM == kStreamKWideShape.block_m &&
                  WideConfig::kBlockN == kStreamKWideShape.block_n &&
                  WideConfig::kConsumers == kStreamKWideShape.consumers,
              "the wide config is the schedule's wide shape");
static_assert(SmallMConfig::kBlockM == kStreamKSmallMShape.block_m &&
                  SmallMConfig::kBlockN == kStreamKSmallMShape.block_n &&
                  SmallMConfig::kConsumers == kStreamKSmallMShape.consumers,
              "the small-M config is the schedule's small-M shape");
static_assert(SmallMConfig::kPartialFloats * SmallMConfig::kConsumers <=
                  WideConfig::kPartialFloats * WideConfig::kConsumers,
              "a workspace slot holds either mode's partial tile");
static_assert(SmallMConfig::kSteps == WideConfig::kSteps,
              "both modes issue the same wgmma per K iteration (the traced launch's phases)");

// The traced launch's shape for `problem` on a GPU of `sms` SMs (defined in
// 12_wgmma_stream_k.cpp).
TracedShape stream_k_traced_shape(const GemmProblem& problem, int sms);

}  // namespace tclens::kernels::wgmma_stream_k
