#pragma once
// Rung 8's configuration, shared by its kernel and launch (08_mma_cp_async.cu) and its
// descriptor (08_mma_cp_async.cpp).

#include <cstdint>

#include "kernels/block_order.h"
#include "kernels/host_device.h"

namespace tclens::kernels::mma_cp_async {

inline constexpr int kMmaM = 16;
inline constexpr int kMmaN = 8;
inline constexpr int kMmaK = 16;
inline constexpr int kChunkBytes = 16;
inline constexpr int kChunkElems = kChunkBytes / 2;  // 8 f16/bf16 elements
inline constexpr int kXorRows = 8;                   // chunk c of row r -> c ^ (r % 8)
inline constexpr int kSmemPerSm = 228 * 1024;        // H100: shared memory of one SM
inline constexpr int kSmemReservedPerBlock = 1024;   // the runtime's own share of each block's
inline constexpr std::int64_t kMaxBlocks = 2147483647;

// How a warp orders one k16 step's instructions (the mma are always in the same order).
enum class StepOrder {
    kLoadsFirst,   // the ldmatrix of step s + 1 and the step's copy slice, then all 32 mma
    kInterleaved,  // per m16 row: its share of those ldmatrix and copies, then its 8 mma
};

// The tunables of this rung and what follows from them. K step 64 (128-byte A rows) is fixed:
// the 8-row XOR swizzle needs rows of whole 128-byte groups.
template <int BlockM, int BlockN, int WarpsM, int WarpsN, int Stages, int GroupM, int BlocksPerSm,
          StepOrder Order>
struct TileConfig {
    static constexpr int kBlockM = BlockM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = 64;
    static constexpr int kWarpsM = WarpsM;
    static constexpr int kWarpsN = WarpsN;
    static constexpr int kStages = Stages;
    static constexpr int kGroupM = GroupM;  // tile rows per rasterisation band (1: row by row)
    static constexpr int kBlocksPerSm = BlocksPerSm;  // __launch_bounds__ minimum
    static constexpr StepOrder kOrder = Order;

    static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
    static constexpr int kWarpM = kBlockM / kWarpsM;
    static constexpr int kWarpN = kBlockN / kWarpsN;
    static constexpr int kTilesM = kWarpM / kMmaM;        // m16 tiles per warp
    static constexpr int kTilesN = kWarpN / kMmaN;        // n8 tiles per warp
    static constexpr int kSteps = kBlockK / kMmaK;        // 4 k16 steps per K tile
    static constexpr int kLoads = kTilesM + kTilesN / 2;  // ldmatrix.x4 per warp per k16 step

    static constexpr int kARowBytes = kBlockK * 2;
    static constexpr int kBRowBytes = kBlockN * 2;
    static constexpr int kAChunksPerRow = kARowBytes / kChunkBytes;
    static constexpr int kBChunksPerRow = kBRowBytes / kChunkBytes;
    static constexpr int kARowStep = kThreads / kAChunksPerRow;  // rows between a thread's chunks
    static constexpr int kBRowStep = kThreads / kBChunksPerRow;
    static constexpr int kAChunks = kBlockM / kARowStep;  // A chunks per thread per K tile
    static constexpr int kBChunks = kBlockK / kBRowStep;  // B chunks per thread per K tile
    static constexpr int kChunks = kAChunks + kBChunks;
    static constexpr int kCopySlices = kSteps - 1;  // a tile's copies spread over s = 0..2

    static constexpr int kATileBytes = kBlockM * kARowBytes;
    static constexpr int kBTileBytes = kBlockK * kBRowBytes;
    static constexpr int kStageBytes = kATileBytes + kBTileBytes;
    static constexpr int kSmemBytes = kStages * kStageBytes;

    static_assert(kWarpM % kMmaM == 0 && kTilesM >= 1, "warp tiles are whole m16 tiles");
    static_assert(kWarpN % (kXorRows * kChunkElems) == 0,
                  "a warp's B columns are whole 8-chunk XOR groups");
    static_assert(kAChunksPerRow == kXorRows, "A rows must be 128 bytes for the 8-row XOR");
    static_assert(kBChunksPerRow % kXorRows == 0, "B rows must be whole groups of 8 chunks");
    static_assert(kThreads % kBChunksPerRow == 0, "each thread copies one chunk column of B");
    static_assert(kARowStep % kXorRows == 0 && kBRowStep % kXorRows == 0,
                  "a thread's chunks share one XOR key");
    static_assert(kBlockM % kARowStep == 0 && kBlockK % kBRowStep == 0,
                  "every thread copies the same number of chunks");
    static_assert(kThreads * kBlocksPerSm <= 256,
                  "128 accumulators + fragments take ~232 registers a thread: 256 threads per SM");
    static_assert(kStages >= 3, "fewer stages wait for a tile copied during the same K tile");
    static_assert(kGroupM >= 1, "a band is at least one tile row");
    static_assert(kSmemBytes <= 227 * 1024 &&
                      kBlocksPerSm * (kSmemBytes + kSmemReservedPerBlock) <= kSmemPerSm,
                  "shared memory of kBlocksPerSm blocks must fit one H100 SM");

    // Block id -> (tile row, tile col) of C: ids run down a band of kGroupM tile rows, then along
    // it (kernels/block_order.h): with kGroupM = 16, ids 0..15 are column 0 of rows 0..15, ids
    // 16..31 column 1, ...; the last band may be narrower.
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroupM, tile_m, tile_n);
    }
};

// The configuration the descriptor launches.
using ChosenConfig = TileConfig<128, 256, 2, 4, 4, 16, 1, StepOrder::kLoadsFirst>;

// Tiles of `tile` covering `extent`.
inline std::int64_t tile_count(std::int64_t extent, int tile) { return (extent + tile - 1) / tile; }

}  // namespace tclens::kernels::mma_cp_async
