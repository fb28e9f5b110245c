#pragma once
// Rung 6's configuration, shared by its kernel and launch (06_mma_tf32_tuned.cu) and its
// descriptor (06_mma_tf32_tuned.cpp).

#include "kernels/block_order.h"
#include "kernels/host_device.h"

namespace tclens::kernels::tf32_tuned {

// How f32 operands become TF32 fragments. The tensor core reads the sign, the exponent and the
// 10 high mantissa bits of each 32-bit register and ignores the 13 low bits, so
//   kRna      cvt.rna.tf32.f32 (nearest, ties away from zero: cuBLAS's rounding), sm_80+;
//   kHalfUlp  integer add of 0x1000 (half a TF32 ulp) to the bits, the low bits then ignored:
//             the same rounding as kRna for finite inputs in one integer add;
//   kTruncate the raw f32 bits: rounding toward zero, no instruction at all;
//   kRn       cvt.rn.tf32.f32 (nearest, ties to even), sm_90+ only.
enum class Tf32Round { kRna, kHalfUlp, kTruncate, kRn };

inline constexpr int gcd(int x, int y) { return y == 0 ? x : gcd(y, x % y); }

template <int BlockM, int BlockN, int WarpM, int WarpN, int Stages, int BlocksPerSm,
          Tf32Round Round, int BlockK = 32>
struct TunedConfig {
    static constexpr int kBlockM = BlockM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = BlockK;  // K per stage: A rows of BlockK / 4 16-byte chunks
    static constexpr int kWarpM = WarpM;
    static constexpr int kWarpN = WarpN;
    static constexpr int kStages = Stages;
    static constexpr int kBlocksPerSm = BlocksPerSm;
    static constexpr Tf32Round kRound = Round;

    static constexpr int kWarpsM = kBlockM / kWarpM;
    static constexpr int kWarpsN = kBlockN / kWarpN;
    static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
    static constexpr int kMmaM = 16;
    static constexpr int kMmaN = 8;
    static constexpr int kMmaK = 8;
    static constexpr int kTilesM = kWarpM / kMmaM;             // m16 tiles per warp
    static constexpr int kGroupCols = 32;                      // one column group, see the header
    static constexpr int kGroupsN = kWarpN / kGroupCols;       // column groups per warp
    static constexpr int kTilesPerGroup = kGroupCols / kMmaN;  // 4 n8 tiles per group
    static constexpr int kStepsK = kBlockK / kMmaK;            // k8 steps per stage
    static constexpr int kRasterRows = 8;                      // tile rows per band of the order

    static constexpr int kChunk = 16;                // bytes per cp.async / swizzle unit
    static constexpr int kChunkFloats = kChunk / 4;  // 4
    static constexpr int kSwizzleRows = 8;           // chunk c of row r -> c ^ (r % 8)
    static constexpr int kARowBytes = kBlockK * 4;
    static constexpr int kBRowBytes = kBlockN * 4;
    static constexpr int kAStageBytes = kBlockM * kARowBytes;
    static constexpr int kBStageBytes = kBlockK * kBRowBytes;
    static constexpr int kStageBytes = kAStageBytes + kBStageBytes;
    static constexpr int kSmemBytes = kStages * kStageBytes;

    // cp.async: thread tid copies chunk tid % (chunks per row) of rows tid / (chunks per row)
    // + step * p of each tile.
    static constexpr int kAChunksPerRow = kARowBytes / kChunk;
    static constexpr int kBChunksPerRow = kBRowBytes / kChunk;
    static constexpr int kARowStep = kThreads / kAChunksPerRow;
    static constexpr int kBRowStep = kThreads / kBChunksPerRow;
    static constexpr int kACopies = kBlockM / kARowStep;  // per thread per tile
    static constexpr int kBCopies = kBlockK / kBRowStep;
    // A B-copying thread's rows b_copy_row + kBRowStep p fall in kBPhases swizzle phases
    // (row % 8), repeating with period kBPhases in p.
    static constexpr int kBPhases = kSwizzleRows / gcd(kBRowStep, kSwizzleRows);

    static_assert(kBlockM % kWarpM == 0 && kBlockN % kWarpN == 0, "warps tile the block");
    static_assert(kWarpM % kMmaM == 0 && kWarpN % kGroupCols == 0,
                  "a warp tile is whole m16 tiles and whole 32-column groups");
    static_assert(kStages >= 2, "the ring needs a stage to fill while one is read");
    static_assert(kBlockK % kMmaK == 0 && kAChunksPerRow % kSwizzleRows == 0,
                  "A rows are whole k8 steps and whole swizzle rows of 8 chunks");
    static_assert(kThreads % kAChunksPerRow == 0 && kARowStep % kSwizzleRows == 0,
                  "an A-copying thread keeps one chunk and one row phase");
    static_assert(kBChunksPerRow % kSwizzleRows == 0 && kThreads % kBChunksPerRow == 0,
                  "B rows are whole swizzle groups, copied by whole threads");
    static_assert(kBlockM % kARowStep == 0 && kBlockK % kBRowStep == 0 && kBCopies % kBPhases == 0,
                  "copies spread evenly");
    static_assert(kACopies <= 32, "the A row mask is one 32-bit word");
    static_assert(kMmaK == kSwizzleRows, "a k8 step starts at a row multiple of 8 in B");
    static_assert(kWarpM % kSwizzleRows == 0, "warp rows start at a multiple of 8 in A");
    static_assert(kSmemBytes * kBlocksPerSm <= 227 * 1024,
                  "kBlocksPerSm blocks fit in one SM's shared memory");

    // Block id -> (tile row, tile col) of C: bands of kRasterRows tile rows, down a band's
    // column first (kernels/block_order.h), so the blocks resident at once share A and B panels.
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kRasterRows, tile_m, tile_n);
    }
};

// The configuration the descriptor runs.
using ChosenConfig = TunedConfig<192, 128, 48, 64, 4, 1, Tf32Round::kHalfUlp>;

}  // namespace tclens::kernels::tf32_tuned
