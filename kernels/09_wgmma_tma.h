#pragma once
// Rung 9's configuration, shared by its kernel and launch (09_wgmma_tma.cu) and its descriptor
// (09_wgmma_tma.cpp), and the narrower tiles rung 14 runs the same kernel in.

#include <string>

#include "kernels/block_order.h"
#include "kernels/gemm.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/tma_stage_layout.h"
#include "kernels/wgmma_inputs.h"

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

// Config with inputs of ElementBytes (kernels/wgmma_inputs.h): with 16-bit ones (2) Config's own
// numbers; with e4m3 (1) a K tile of 128 elements (the same 128 bytes of every row), k32 wgmma
// steps and B^T's K-major rows in the B boxes. The stages' bytes are the same.
template <typename Config, int ElementBytes>
struct WgmmaTmaInputsConfig : Config {
    using Inputs = WgmmaInputs<ElementBytes>;
    static constexpr int kBlockK = Inputs::kBlockK;
    static constexpr int kSteps = kBlockK / Inputs::kWgmmaK;
    static constexpr bool kBKMajor = Inputs::kBKMajor;
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
// Measured and left: these tiles in clusters of 2 or 4 CTAs sharing their loads by TMA multicast
// (each CTA loading a piece of its tile row's A box and of its tile column's B boxes for all, a
// slot refilled once every CTA of the cluster released it) ran 5-50 % slower than unclustered
// in every tile and shape tried (128x3072x3072, 64 x 64 deep: 15.7 -> 24.3 us; 2048^3, 128 x 128:
// 33.5 -> 46.7). Without the multicast (each CTA loading all the pieces itself, the slot
// protocol kept) they ran as slowly; without the protocol too, 5-12 % slower: the cost is one
// warpgroup both multiplying and waiting for the cluster's releases before each refill
// (tests/gpu/results/2026-12-01_h200_session32, calls 1-4, and clusters.patch).

}  // namespace tclens::kernels::wgmma_tma

namespace tclens::kernels {

// The block tiles rung 14 runs this kernel in (the configurations above): rung 9's own 128 x
// 128; 128 x 64 for N <= 64 and 64 x 128 for M <= 64, where a side of 128 would load and
// multiply zeros for half of it or more; 64 x 64, in 6 or 12 stages, where 128 x 128 tiles would
// be few (kernels/dispatch_rules.cpp).
enum class Rung9Tile { kSquare, kNarrowN, kFewRows, kSmall, kSmallDeep };
// Every tile, in that order, for what goes through them all (dispatch_candidates).
constexpr Rung9Tile kRung9Tiles[] = {Rung9Tile::kSquare, Rung9Tile::kNarrowN, Rung9Tile::kFewRows,
                                     Rung9Tile::kSmall, Rung9Tile::kSmallDeep};

// f(Config{}) for `tile`'s Config (a WgmmaTmaConfig above): the one place a tile becomes its
// configuration, for its numbers, its descriptor and its launch alike.
template <typename F>
constexpr decltype(auto) with_rung9_config(Rung9Tile tile, F&& f) {
    using namespace wgmma_tma;
    switch (tile) {
        case Rung9Tile::kNarrowN:
            return f(NarrowNWgmmaTmaConfig{});
        case Rung9Tile::kFewRows:
            return f(FewRowsWgmmaTmaConfig{});
        case Rung9Tile::kSmall:
            return f(SmallWgmmaTmaConfig{});
        case Rung9Tile::kSmallDeep:
            return f(SmallDeepWgmmaTmaConfig{});
        case Rung9Tile::kSquare:
            break;
    }
    return f(ChosenWgmmaTmaConfig{});
}

struct Rung9TileShape {
    int block_m = 0;
    int block_n = 0;
    int blocks_per_sm = 0;  // CTAs one SM holds (their stages' shared memory)
    int stages = 0;         // K tiles in shared memory at once
};

// `tile`'s configuration above, as numbers.
constexpr Rung9TileShape rung9_tile_shape(Rung9Tile tile) {
    return with_rung9_config(tile, [](auto config) {
        using C = decltype(config);
        return Rung9TileShape{C::kBlockM, C::kBlockN, C::kBlocksPerSm, C::kStages};
    });
}

// `tile` as rung 14's candidates name it: "128x128", "64x128", "64x64", "64x64 deep".
std::string rung9_tile_name(Rung9Tile tile);

// Rung 9's descriptor in `tile` (kSquare: rung 9's own, "wgmma_tma.bf16"; else
// "wgmma_tma_128x64.bf16" / "wgmma_tma_64x128.bf16" with that tile's fields and can_run, no
// launch: rung 14 launches them): 09_wgmma_tma.cpp. kF16, kBF16, or kE4M3 for rung 14's FP8
// tiles of this kernel ("wgmma_tma_128x128.e4m3", "wgmma_tma_64x64.e4m3": k32 wgmma, B^T).
KernelDescriptor wgmma_tma_tile_descriptor(Precision precision, Rung9Tile tile);

}  // namespace tclens::kernels
