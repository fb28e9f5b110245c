#pragma once
// Rung 9's configuration, shared by its kernel and launch (09_wgmma_tma.cu) and its descriptor
// (09_wgmma_tma.cpp).

#include "kernels/block_order.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/tma_stage_layout.h"

namespace tclens::kernels::wgmma_tma {

template <int BlockM, int BlockN, int Stages, int GroupM, int BlocksPerSm>
struct WgmmaTmaConfig : TmaStageLayout<BlockM, BlockN> {
    static constexpr int kBlockM = BlockM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = hopper::kBoxElems;  // one 128-byte swizzled row of A
    static constexpr int kStages = Stages;
    static constexpr int kGroupM = GroupM;
    static constexpr int kBlocksPerSm = BlocksPerSm;

    static constexpr int kThreads = hopper::kWarpgroupThreads;
    static constexpr int kWgmmaN = kBlockN;
    static constexpr int kSteps = kBlockK / hopper::kWgmmaK;   // wgmma k16 steps per K tile
    static constexpr int kTilesM = kBlockM / hopper::kWgmmaM;  // wgmma per k16 step
    static constexpr int kAccumulators = kWgmmaN / 2;          // per wgmma, per thread

    // The ring, then full[stages].
    static constexpr int kSmemBytes = TmaStageLayout<BlockM, BlockN>::ring_smem_bytes(kStages, 1);

    static_assert(kBlockM % hopper::kWgmmaM == 0 && kBlockM <= 256,
                  "A box: 64-row multiples <= 256");
    static_assert(kBlockN == 64 || kBlockN == 128 || kBlockN == 256, "wgmma_ss has N 64/128/256");
    static_assert(kTilesM * kAccumulators <= 128, "at most 128 accumulators per thread");
    static_assert(kStages >= 2, "one stage computes while the next loads");
    static_assert(kBlocksPerSm * (kSmemBytes + 1024) <= 228 * 1024 && kSmemBytes <= 227 * 1024,
                  "shared memory of kBlocksPerSm blocks must fit one H100 SM");

    // Block id -> (tile row, tile col) of C: bands of kGroupM tile rows, down a band's column
    // first (kernels/block_order.h).
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroupM, tile_m, tile_n);
    }
};

using ChosenWgmmaTmaConfig = WgmmaTmaConfig<128, 128, 4, 16, 1>;

}  // namespace tclens::kernels::wgmma_tma
