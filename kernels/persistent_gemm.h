#pragma once
// The numbers of the persistent, clustered kernel of rungs 11 and 13 (the kernel, its launch and
// what the input type changes: kernels/persistent_gemm.cuh) per input width, and the descriptor
// fields both rungs fill alike from them. Plain C++, so that the rungs' descriptors
// (11_wgmma_persistent.cpp, 13_wgmma_fp8.cpp) build without CUDA: the kernel's Config
// (PersistentConfig<Element, ...>, persistent_gemm.cuh) is the PersistentShape of its element's
// width with the element type added, so both read the same constants.

#include <cstdint>

#include "kernels/block_order.h"
#include "kernels/gemm.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/tma_stage_layout.h"
#include "kernels/tma_tile_limits.h"
#include "kernels/wgmma_inputs.h"

namespace tclens::kernels {

inline constexpr int kPersistentConsumers = 2;  // consumer warpgroups, 64 rows of C each

template <int ElementBytes, int BlockN, int Stages, int ClusterM, int Group, int StoreRows,
          int StoreBuffers, bool ReleasePerWarpgroup, bool RasterAlongN = false>
struct PersistentShape : TmaStageLayout<kPersistentConsumers * hopper::kWgmmaM, BlockN> {
    using Inputs = WgmmaInputs<ElementBytes>;
    static constexpr bool kBKMajor = Inputs::kBKMajor;
    using Layout = TmaStageLayout<kPersistentConsumers * hopper::kWgmmaM, BlockN>;
    static constexpr int kElementBytes = ElementBytes;
    static constexpr int kConsumers = kPersistentConsumers;
    static constexpr int kBlockM = kConsumers * hopper::kWgmmaM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = Inputs::kBlockK;
    static constexpr int kStages = Stages;
    static constexpr int kClusterM = ClusterM;  // CTAs per cluster, stacked along M
    // Raster bands: kGroup cluster rows each, walked down then along N (kRasterAlongN false),
    // or kGroup tile columns each, walked along then down M (true).
    static constexpr int kGroup = Group;
    static constexpr bool kRasterAlongN = RasterAlongN;
    static constexpr int kStoreRows = StoreRows;        // rows of a TMA-store subtile
    static constexpr int kStoreBuffers = StoreBuffers;  // per store group
    static constexpr bool kReleasePerWarpgroup = ReleasePerWarpgroup;

    static constexpr int kThreads = (1 + kConsumers) * hopper::kWarpgroupThreads;
    static constexpr int kWgmmaN = kBlockN;

    // B boxes (Layout) of kBoxN columns of B (64 n): 64 rows of 128 bytes each, for either B
    // layout.
    static constexpr int kBoxN = hopper::kBoxElems;
    // B box j is loaded (and multicast) by cluster rank j / kBoxesPerCta: ranks take
    // consecutive runs of kBoxesPerCta boxes, the last one what is left (issues_b_box).
    static constexpr int kBoxesPerCta = (Layout::kBBoxes + kClusterM - 1) / kClusterM;
    // Epilogue subtile: kStoreRows rows x 32 f32 = one 128-byte swizzled row per C row. A
    // store group is kStoreRows / 16 warps of one consumer warpgroup.
    static constexpr int kStoreCols = hopper::kSwizzleRowBytes / 4;
    static constexpr int kStoreBytes = kStoreRows * hopper::kSwizzleRowBytes;
    static constexpr int kStoreGroupWarps = kStoreRows / 16;
    static constexpr int kStoreGroups = kConsumers * 4 / kStoreGroupWarps;
    static constexpr int kEpilogueBytes = kStoreGroups * kStoreBuffers * kStoreBytes;
    static constexpr int kEmptyArrivals = kConsumers * (kReleasePerWarpgroup ? 1 : 4) * kClusterM;
    // The ring, the epilogue buffers, then full[stages] and empty[stages].
    static constexpr int kSmemBytes = Layout::ring_smem_bytes(kStages, 2, kEpilogueBytes);

    static_assert(kBlockK * kElementBytes == hopper::kSwizzleRowBytes,
                  "a K tile is one 128-byte swizzled row of every operand row");
    static_assert(kBlockK / Inputs::kWgmmaK * Inputs::kAStepBytes == hopper::kSwizzleRowBytes,
                  "the wgmma steps of a K tile walk one 128-byte row of A");
    static_assert(kBlockN == 64 || kBlockN == 128 || kBlockN == 192 || kBlockN == 256,
                  "wgmma_ss has N 64/128/192/256");
    static_assert(!Inputs::kBKMajor || kBlockN == 128 || kBlockN == 192 || kBlockN == 256,
                  "wgmma_ss_e4m3 has N 128/192/256");
    static_assert(kClusterM == 1 || kClusterM == 2 || kClusterM == 4, "cluster of 1, 2 or 4");
    static_assert(kStages >= 2, "the producer refills one slot while another is consumed");
    static_assert(kStoreRows == 16 || kStoreRows == 64, "store group: one warp or the warpgroup");
    static_assert(kStoreBuffers >= 1 && kStoreBuffers <= 4, "bulk_wait_group_read<buffers - 1>");
    static_assert(kStoreBytes % hopper::kSwizzleAtomBytes == 0, "buffers 1024-byte aligned");
    static_assert(kEmptyArrivals <= kConsumers * 4 * kClusterM,
                  "at most one arrival per warp and CTA");
    static_assert(kSmemBytes <= 227 * 1024, "shared memory must fit one H100 block");

    // Whether the CTA of cluster rank `rank` loads its i-th B box, box rank * kBoxesPerCta + i
    // (i < kBoxesPerCta). Worked example, 3 boxes, cluster of 2: rank 0 boxes 0 and 1, rank 1
    // box 2 (its i = 1 would be box 3). Always, without a test, where kClusterM divides kBBoxes.
    TCLENS_HOST_DEVICE static constexpr bool issues_b_box(int rank, int i) {
        return Layout::kBBoxes % kClusterM == 0 || rank * kBoxesPerCta + i < Layout::kBBoxes;
    }
    // issues_b_box covers boxes 0 .. kBBoxes - 1 once each, and no other box: each full barrier
    // expects every box's bytes once (kStageBytes).
    TCLENS_HOST_DEVICE static constexpr bool b_boxes_loaded_once() {
        for (int j = 0; j < Layout::kBBoxes; ++j) {
            int loads = 0;
            for (int rank = 0; rank < kClusterM; ++rank) {
                for (int i = 0; i < kBoxesPerCta; ++i) {
                    loads += issues_b_box(rank, i) && rank * kBoxesPerCta + i == j;
                }
            }
            if (loads != 1) return false;
        }
        for (int rank = 0; rank < kClusterM; ++rank) {
            for (int i = 0; i < kBoxesPerCta; ++i) {
                if (issues_b_box(rank, i) && rank * kBoxesPerCta + i >= Layout::kBBoxes) {
                    return false;
                }
            }
        }
        return true;
    }

    // Cluster tile id -> (cluster row, tile column) of a grid of tiles_mc x tiles_n. Worked
    // example, kGroup = 8 along N, 16 x 16: id 37 -> band 0 (columns 0..7), column 37 % 8 = 5,
    // cluster row 37 / 8 = 4.
    TCLENS_HOST_DEVICE static void cluster_tile(int id, int tiles_mc, int tiles_n, int& tile_mc,
                                                int& tile_n) {
        if constexpr (kRasterAlongN) {
            rasterise_column_bands(id, tiles_n, tiles_mc, kGroup, tile_n, tile_mc);
        } else {
            rasterise_column_bands(id, tiles_mc, tiles_n, kGroup, tile_mc, tile_n);
        }
    }
};

// The tuning rung 11 measured (tests/gpu/results, bench/results): 128 x 256 x (one 128-byte row)
// tiles, 4 stages (192 KiB) + 32 KiB of epilogue buffers (one 16-row store group per consumer
// warp, two 2 KiB buffers each), clusters of 2 along M sharing B, bands of 8 cluster rows, one
// empty arrival per consumer warpgroup and CTA. Rungs 11 (2-byte inputs) and 13 (1-byte) both
// launch it.
template <int ElementBytes>
using ChosenPersistentShape = PersistentShape<ElementBytes, 256, 4, 2, 8, 16, 2, true>;

// block_tile_of: persistent_gemm's tile loop for CTA `block` of `blocks`. Cluster q = block /
// kClusterM computes cluster tiles q, q + clusters, ... in cluster_tile order (round r: q + r
// clusters); its CTA of rank block % kClusterM takes tile row cluster row * kClusterM + rank.
template <typename Config>
TileIndex persistent_block_tile(int block, int round, int blocks, int tiles_m, int tiles_n) {
    const int clusters = blocks / Config::kClusterM;
    const int tiles_mc = (tiles_m + Config::kClusterM - 1) / Config::kClusterM;
    const int cluster_tile = block / Config::kClusterM + round * clusters;
    TileIndex tile;
    if (clusters < 1 || cluster_tile >= tiles_mc * tiles_n) return tile;
    int tile_mc = 0;
    Config::cluster_tile(cluster_tile, tiles_mc, tiles_n, tile_mc, tile.col);
    tile.row = tile_mc * Config::kClusterM + block % Config::kClusterM;
    return tile;
}

// The grid persistent_launch runs for `problem` when `clusters` clusters fit at once: that many
// clusters of kClusterM CTAs, or as many as there are cluster tiles, whichever is fewer.
template <typename Config>
std::int64_t persistent_grid(const GemmProblem& problem, int clusters) {
    const std::int64_t cluster_tiles =
        tiles_covering(tiles_covering(problem.m, Config::kBlockM), Config::kClusterM) *
        tiles_covering(problem.n, Config::kBlockN);
    return (cluster_tiles < clusters ? cluster_tiles : clusters) * Config::kClusterM;
}

// The descriptor fields both persistent rungs fill alike from their Config (after
// describe_tma_rung): the persistent raster in bands of kGroup cluster rows, the cluster, the
// ring across tiles, the load and pipeline notes, block_tile_of.
template <typename Config>
void describe_persistent_schedule(KernelDescriptor& d) {
    // viz's kPersistent order is cluster_tile's bands of cluster rows (kRasterAlongN false).
    static_assert(!Config::kRasterAlongN, "the tile map draws bands of cluster rows");
    d.schedule.raster = viz::RasterOrder::kPersistent;
    d.schedule.raster_group = Config::kGroup;
    d.schedule.cluster_m = Config::kClusterM;
    d.schedule.ring_across_tiles = true;
    d.schedule.load_instruction = "TMA 2-D box from the producer, B with .multicast::cluster";
    d.schedule.pipeline_note =
        "the producer runs on into the CTA's next tile; the ring and its phases continue across "
        "tiles";
    d.block_tile_of = persistent_block_tile<Config>;
}

}  // namespace tclens::kernels
