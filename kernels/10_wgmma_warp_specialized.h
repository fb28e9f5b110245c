#pragma once
// Rung 10's configuration, shared by its kernel and launch (10_wgmma_warp_specialized.cu) and
// its descriptor (10_wgmma_warp_specialized.cpp).

#include "kernels/block_order.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/tma_stage_layout.h"

namespace tclens::kernels::wgmma_warp_specialized {

inline constexpr int kWarpSpecializedConsumers = 2;  // consumer warpgroups, 64 rows of C each

template <int BlockN, int Stages, int GroupM>
struct WarpSpecializedConfig : TmaStageLayout<kWarpSpecializedConsumers * hopper::kWgmmaM, BlockN> {
    static constexpr int kConsumers = kWarpSpecializedConsumers;
    static constexpr int kBlockM = kConsumers * hopper::kWgmmaM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = hopper::kBoxElems;
    static constexpr int kStages = Stages;
    static constexpr int kGroupM = GroupM;

    static constexpr int kThreads = (1 + kConsumers) * hopper::kWarpgroupThreads;
    static constexpr int kWgmmaN = kBlockN;
    static constexpr int kSteps = kBlockK / hopper::kWgmmaK;  // wgmma k16 steps per K tile
    static constexpr int kAccumulators = kWgmmaN / 2;         // per consumer thread

    // The ring, then full[stages] and empty[stages].
    static constexpr int kSmemBytes = TmaStageLayout<kBlockM, kBlockN>::ring_smem_bytes(kStages, 2);

    static_assert(kBlockN == 64 || kBlockN == 128 || kBlockN == 256, "wgmma_ss has N 64/128/256");
    static_assert(kAccumulators <= 128, "at most 128 accumulators per consumer thread");
    static_assert(kStages >= 2, "the producer refills one slot while another is consumed");
    static_assert(kSmemBytes <= 227 * 1024, "shared memory must fit one H100 block");

    // Block id -> (tile row, tile col) of C: bands of kGroupM tile rows, down a band's column
    // first (kernels/block_order.h).
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroupM, tile_m, tile_n);
    }
};

using ChosenWarpSpecializedConfig = WarpSpecializedConfig<256, 4, 16>;

}  // namespace tclens::kernels::wgmma_warp_specialized
