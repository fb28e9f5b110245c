#pragma once
// Rung 5's constants, shared by its kernel and launch (05_mma_tf32_puzzle.cu) and
// its descriptor (05_mma_tf32_puzzle.cpp).

#include <cstdint>

namespace tclens::kernels::tf32_puzzle {

inline constexpr int kBlockM = 128;  // BM
inline constexpr int kBlockN = 64;   // BN
inline constexpr int kBlockK = 32;   // BK
inline constexpr int kWarpM = 32;    // WM
inline constexpr int kWarpN = 32;    // WN
inline constexpr int kMmaM = 16;
inline constexpr int kMmaN = 8;
inline constexpr int kMmaK = 8;
inline constexpr int kWarpsN = kBlockN / kWarpN;                    // 2
inline constexpr int kThreads = 32 * (kBlockM / kWarpM) * kWarpsN;  // 256
inline constexpr int kTilesM = kWarpM / kMmaM;                      // 2 (mma_m)
inline constexpr int kTilesN = kWarpN / kMmaN;                      // 4 (mma_n)
inline constexpr int kStepsK = kBlockK / kMmaK;                     // 4 (mma_k)

// The copy's thread layout row_major(4, 8): only these 32 threads copy.
inline constexpr int kCopyRows = 4;
inline constexpr int kCopyCols = 8;
inline constexpr int kCopyThreads = kCopyRows * kCopyCols;
inline constexpr int kChunk = 4;                                       // f32 per 16-byte cp.async
inline constexpr int kACopiesDown = kBlockM / kCopyRows;               // 32
inline constexpr int kBCopiesDown = kBlockK / kCopyRows;               // 8
inline constexpr int kBCopiesAcross = kBlockN / (kChunk * kCopyCols);  // 2
static_assert(kBlockK == kChunk * kCopyCols, "an A row is one chunk per copying column");

inline constexpr std::int64_t kMaxGridY = 65535;

}  // namespace tclens::kernels::tf32_puzzle
