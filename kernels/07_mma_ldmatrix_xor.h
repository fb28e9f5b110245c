#pragma once
// Rung 7's constants, shared by its kernel and launch (07_mma_ldmatrix_xor.cu) and
// its descriptor (07_mma_ldmatrix_xor.cpp).

#include <cstdint>

namespace tclens::kernels::mma_ldmatrix_xor {

inline constexpr int kBlockM = 128;
inline constexpr int kBlockN = 128;
inline constexpr int kBlockK = 64;
inline constexpr int kWarpsM = 2;
inline constexpr int kWarpsN = 4;
inline constexpr int kThreads = 32 * kWarpsM * kWarpsN;
inline constexpr int kWarpM = kBlockM / kWarpsM;  // 64
inline constexpr int kWarpN = kBlockN / kWarpsN;  // 32
inline constexpr int kMmaM = 16;
inline constexpr int kMmaN = 8;
inline constexpr int kMmaK = 16;
inline constexpr int kTilesM = kWarpM / kMmaM;  // 4 m16 tiles per warp
inline constexpr int kTilesN = kWarpN / kMmaN;  // 4 n8 tiles per warp

inline constexpr int kChunkBytes = 16;
inline constexpr int kChunkElems = kChunkBytes / 2;              // 8 f16/bf16 elements
inline constexpr int kARowBytes = kBlockK * 2;                   // 128
inline constexpr int kBRowBytes = kBlockN * 2;                   // 256
inline constexpr int kAChunksPerRow = kARowBytes / kChunkBytes;  // 8
inline constexpr int kBChunksPerRow = kBRowBytes / kChunkBytes;  // 16
inline constexpr int kARowStep = kThreads / kAChunksPerRow;  // 32 rows between a thread's chunks
inline constexpr int kBRowStep = kThreads / kBChunksPerRow;  // 16
inline constexpr int kAChunks = kBlockM / kARowStep;         // 4 A chunks per thread
inline constexpr int kBChunks = kBlockK / kBRowStep;         // 4 B chunks per thread
inline constexpr int kXorRows = 8;                           // chunk c of row r -> c ^ (r % 8)
inline constexpr std::int64_t kMaxGridY = 65535;

static_assert(kAChunksPerRow == kXorRows, "A rows must be 128 bytes for the 8-row XOR");
static_assert(kBChunksPerRow % kXorRows == 0, "B rows must be whole groups of 8 chunks");
static_assert(kWarpM % kXorRows == 0 && kBlockK % kMmaK == 0, "ldmatrix rows start at r % 8 == 0");

}  // namespace tclens::kernels::mma_ldmatrix_xor
