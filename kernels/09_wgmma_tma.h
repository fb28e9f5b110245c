#pragma once
// Rung 9's configuration, shared by its kernel and launch (09_wgmma_tma.cu) and its descriptor
// (09_wgmma_tma.cpp), and the narrower tiles rung 14 runs the same kernel in.

#include <string>

#include "kernels/block_order.h"
#include "kernels/gemm.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/tma_stage_layout.h"

namespace tclens::kernels::wgmma_tma {

// ClusterM x ClusterN: the CTAs of one thread-block cluster, a block of ClusterM tile rows by
// ClusterN tile columns of C (1 x 1: no cluster). The CTAs of a tile row share its A box: each
// loads kAPieceRows of its rows and multicasts them to the others; those of a tile column share
// each B box alike, kBPieceRows of its K rows each. So L2 sends each operand byte to a cluster
// once, not once per CTA.
template <int BlockM, int BlockN, int Stages, int GroupM, int BlocksPerSm, int ClusterM = 1,
          int ClusterN = 1>
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

    static constexpr int kClusterM = ClusterM;
    static constexpr int kClusterN = ClusterN;
    static constexpr int kClusterCtas = ClusterM * ClusterN;
    static constexpr int kAPieceRows = kBlockM / kClusterN;  // of the A box, per CTA
    static constexpr int kBPieceRows = kBlockK / kClusterM;  // of each B box, per CTA

    // The ring, then full[stages]; clustered, empty[stages] too (each CTA's release of a slot,
    // counted in every CTA that writes into it).
    static constexpr int kSmemBytes =
        TmaStageLayout<BlockM, BlockN>::ring_smem_bytes(kStages, kClusterCtas > 1 ? 2 : 1);

    static_assert(kBlockM % hopper::kWgmmaM == 0 && kBlockM <= 256,
                  "A box: 64-row multiples <= 256");
    static_assert(kBlockN == 64 || kBlockN == 128 || kBlockN == 256, "wgmma_ss has N 64/128/256");
    static_assert(kTilesM * kAccumulators <= 128, "at most 128 accumulators per thread");
    static_assert(kStages >= 2, "one stage computes while the next loads");
    static_assert(kBlocksPerSm * (kSmemBytes + 1024) <= 228 * 1024 && kSmemBytes <= 227 * 1024,
                  "shared memory of kBlocksPerSm blocks must fit one H100 SM");
    static_assert(kClusterCtas <= 8 && kBlockM % kClusterN == 0 && kAPieceRows % 8 == 0 &&
                      kBPieceRows % 8 == 0,
                  "a portable cluster, its pieces whole 1024-byte swizzle atoms (8 rows)");

    // Block id -> (tile row, tile col) of C: bands of kGroupM tile rows, down a band's column
    // first (kernels/block_order.h); clustered, the clusters (id / kClusterCtas) in that order
    // over a grid of cluster tiles, and cluster rank r at tile (r % kClusterM, r / kClusterM) of
    // its cluster. Worked example, 2 x 2 clusters over 3 x 4 tiles: id 9 -> cluster 2 (cluster
    // grid 2 x 2: cluster row 0, column 1), rank 1 -> tile row 1, column 2. The launch rounds the
    // grid up to whole clusters; tiles past C load zeros and store nothing.
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        if (kClusterCtas == 1) {
            rasterise_column_bands(id, tiles_m, tiles_n, kGroupM, tile_m, tile_n);
            return;
        }
        const int rank = id % kClusterCtas;
        int cluster_m = 0;
        int cluster_n = 0;
        rasterise_column_bands(id / kClusterCtas, (tiles_m + kClusterM - 1) / kClusterM,
                               (tiles_n + kClusterN - 1) / kClusterN,
                               kGroupM / kClusterM > 0 ? kGroupM / kClusterM : 1, cluster_m,
                               cluster_n);
        tile_m = cluster_m * kClusterM + rank % kClusterM;
        tile_n = cluster_n * kClusterN + rank / kClusterM;
    }
};

using ChosenWgmmaTmaConfig = WgmmaTmaConfig<128, 128, 4, 16, 1>;
// Rung 14's narrower tiles of this kernel (Rung9Tile below): 128 x 64 and 64 x 128, 4 stages of
// 24 KiB each, so that two CTAs share an SM.
using NarrowNWgmmaTmaConfig = WgmmaTmaConfig<128, 64, 4, 16, 2>;
using FewRowsWgmmaTmaConfig = WgmmaTmaConfig<64, 128, 4, 16, 2>;
// Rung 14's small tiles, 64 x 64 (16 KiB a stage), where 128 x 128 ones would be few: twice the
// CTAs of 64 x 128, in 6 stages with two CTAs an SM, or in 12 with one where the tiles take one
// wave unsplit (kernels/dispatch_rules.cpp). Measured and left: the 64-row tiles warp-specialised
// (a producer warpgroup, one consumer releasing slots through empty barriers, as in rung 10) ran
// no faster in their best configurations (128x3072x3072 79.7 -> 80.8 % of cuBLAS, 16x3072x3072
// 95.0 -> 93.1, 512^3 102.3 -> 95.9; faster only unsplit over few CTAs: 64 x 64 at 128x3072x3072
// 70 -> 78), though Nsight Compute found the single warpgroup bound by latency there (issue slots
// 11.6 % busy, DRAM 22.6 %, L2 34.2 %: tests/gpu/results/2026-12-01_h200_session29, calls 4-5).
// Nor did more wgmma in flight: two consumer warpgroups a CTA, each multiplying every other K
// tile into accumulators of its own, summed through the drained stages at the end, ran slower in
// every tile (geometric mean over 337 configurations each of 56 shapes: 64 x 64 deep 0.97x, 64 x
// 64 0.94x, 128 x 128 in 6 stages 0.93x, 64 x 128 and 128 x 64 0.82x; three warpgroups in the 64
// x 64 tiles 0.97x / 0.84x): tests/gpu/results/2026-12-01_h200_session30, call 1.
using SmallWgmmaTmaConfig = WgmmaTmaConfig<64, 64, 6, 16, 2>;
using SmallDeepWgmmaTmaConfig = WgmmaTmaConfig<64, 64, 12, 16, 1>;
// The same tiles in clusters of 2 or 4 CTAs sharing their loads (WgmmaTmaConfig): C<m>x<n>.
template <typename Tile, int ClusterM, int ClusterN>
using Clustered = WgmmaTmaConfig<Tile::kBlockM, Tile::kBlockN, Tile::kStages, Tile::kGroupM,
                                 Tile::kBlocksPerSm, ClusterM, ClusterN>;

}  // namespace tclens::kernels::wgmma_tma

namespace tclens::kernels {

// The block tiles rung 14 runs this kernel in (the configurations above): rung 9's own 128 x
// 128; 128 x 64 for N <= 64 and 64 x 128 for M <= 64, where a side of 128 would load and
// multiply zeros for half of it or more; 64 x 64, in 6 or 12 stages, where 128 x 128 tiles would
// be few (kernels/dispatch_rules.cpp); and some of them in clusters of CTAs sharing their loads
// (<tile>C<m>x<n>: m tile rows by n tile columns).
enum class Rung9Tile {
    kSquare,
    kNarrowN,
    kFewRows,
    kSmall,
    kSmallDeep,
    kSquareC2x1,
    kSquareC1x2,
    kNarrowNC2x1,
    kFewRowsC2x1,
    kFewRowsC1x2,
    kFewRowsC1x4,
    kSmallC2x1,
    kSmallC1x2,
    kSmallC2x2,
    kSmallC1x4,
    kSmallDeepC2x1,
    kSmallDeepC2x2,
    kSmallDeepC1x4
};
// Every tile, in that order, for what goes through them all (dispatch_candidates).
constexpr Rung9Tile kRung9Tiles[] = {
    Rung9Tile::kSquare,        Rung9Tile::kNarrowN,       Rung9Tile::kFewRows,
    Rung9Tile::kSmall,         Rung9Tile::kSmallDeep,     Rung9Tile::kSquareC2x1,
    Rung9Tile::kSquareC1x2,    Rung9Tile::kNarrowNC2x1,   Rung9Tile::kFewRowsC2x1,
    Rung9Tile::kFewRowsC1x2,   Rung9Tile::kFewRowsC1x4,   Rung9Tile::kSmallC2x1,
    Rung9Tile::kSmallC1x2,     Rung9Tile::kSmallC2x2,     Rung9Tile::kSmallC1x4,
    Rung9Tile::kSmallDeepC2x1, Rung9Tile::kSmallDeepC2x2, Rung9Tile::kSmallDeepC1x4};

// f(Config{}) for `tile`'s Config (a WgmmaTmaConfig above): the one place a tile becomes its
// configuration, for its numbers, its descriptor and its launch alike.
template <typename F>
constexpr decltype(auto) with_rung9_config(Rung9Tile tile, F&& f) {
    using namespace wgmma_tma;
    using Square = ChosenWgmmaTmaConfig;
    using Narrow = NarrowNWgmmaTmaConfig;
    using Few = FewRowsWgmmaTmaConfig;
    using Small = SmallWgmmaTmaConfig;
    using Deep = SmallDeepWgmmaTmaConfig;
    switch (tile) {
        case Rung9Tile::kNarrowN:
            return f(Narrow{});
        case Rung9Tile::kFewRows:
            return f(Few{});
        case Rung9Tile::kSmall:
            return f(Small{});
        case Rung9Tile::kSmallDeep:
            return f(Deep{});
        case Rung9Tile::kSquareC2x1:
            return f(Clustered<Square, 2, 1>{});
        case Rung9Tile::kSquareC1x2:
            return f(Clustered<Square, 1, 2>{});
        case Rung9Tile::kNarrowNC2x1:
            return f(Clustered<Narrow, 2, 1>{});
        case Rung9Tile::kFewRowsC2x1:
            return f(Clustered<Few, 2, 1>{});
        case Rung9Tile::kFewRowsC1x2:
            return f(Clustered<Few, 1, 2>{});
        case Rung9Tile::kFewRowsC1x4:
            return f(Clustered<Few, 1, 4>{});
        case Rung9Tile::kSmallC2x1:
            return f(Clustered<Small, 2, 1>{});
        case Rung9Tile::kSmallC1x2:
            return f(Clustered<Small, 1, 2>{});
        case Rung9Tile::kSmallC2x2:
            return f(Clustered<Small, 2, 2>{});
        case Rung9Tile::kSmallC1x4:
            return f(Clustered<Small, 1, 4>{});
        case Rung9Tile::kSmallDeepC2x1:
            return f(Clustered<Deep, 2, 1>{});
        case Rung9Tile::kSmallDeepC2x2:
            return f(Clustered<Deep, 2, 2>{});
        case Rung9Tile::kSmallDeepC1x4:
            return f(Clustered<Deep, 1, 4>{});
        case Rung9Tile::kSquare:
            break;
    }
    return f(Square{});
}

struct Rung9TileShape {
    int block_m = 0;
    int block_n = 0;
    int blocks_per_sm = 0;  // CTAs one SM holds (their stages' shared memory)
    int stages = 0;         // K tiles in shared memory at once
    int cluster_m = 1;      // CTAs of a cluster: tile rows
    int cluster_n = 1;      // and tile columns
};

// `tile`'s configuration above, as numbers.
constexpr Rung9TileShape rung9_tile_shape(Rung9Tile tile) {
    return with_rung9_config(tile, [](auto config) {
        using C = decltype(config);
        return Rung9TileShape{C::kBlockM, C::kBlockN,   C::kBlocksPerSm,
                              C::kStages, C::kClusterM, C::kClusterN};
    });
}

// `tile` as rung 14's candidates name it: "64x128", "64x64 deep", "64x64 c2x2" (2 x 2 clusters).
std::string rung9_tile_name(Rung9Tile tile);

// Rung 9's descriptor in `tile` (kSquare: rung 9's own, "wgmma_tma.bf16"; else
// "wgmma_tma_128x64.bf16" / "wgmma_tma_64x128.bf16" with that tile's fields and can_run, no
// launch: rung 14 launches them): 09_wgmma_tma.cpp. kF16 or kBF16.
KernelDescriptor wgmma_tma_tile_descriptor(Precision precision, Rung9Tile tile);

}  // namespace tclens::kernels
