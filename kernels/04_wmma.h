#pragma once
// Rung 4's constants, shared by its kernel and launch (04_wmma.cu) and
// its descriptor (04_wmma.cpp).

namespace tclens::kernels::wmma_rung {

inline constexpr int kBlockM = 128;
inline constexpr int kBlockN = 256;
inline constexpr int kBlockK = 32;
inline constexpr int kWarpM = 64;
inline constexpr int kWarpN = 64;
inline constexpr int kWarpsN = kBlockN / kWarpN;             // 4
inline constexpr int kWarps = (kBlockM / kWarpM) * kWarpsN;  // 8
inline constexpr int kThreads = kWarps * 32;                 // 256
inline constexpr int kFrag = 16;                             // WMMA tile: 16 x 16 x 16
inline constexpr int kFragsM = kWarpM / kFrag;               // 4
inline constexpr int kFragsN = kWarpN / kFrag;               // 4
inline constexpr int kStages = 4;

// Shared-memory rows: 8 elements (16 B) of padding each; sizes in 16-bit elements.
inline constexpr int kPadElems = 8;
inline constexpr int kALd = kBlockK + kPadElems;                                // 40
inline constexpr int kBLd = kBlockN + kPadElems;                                // 264
inline constexpr int kAStageElems = kBlockM * kALd;                             // 5120
inline constexpr int kBStageElems = kBlockK * kBLd;                             // 8448
inline constexpr int kSmemBytes = kStages * (kAStageElems + kBStageElems) * 2;  // 108,544

// One cp.async moves 8 elements (16 B).
inline constexpr int kChunkElems = 8;
inline constexpr int kAChunksPerRow = kBlockK / kChunkElems;                   // 4
inline constexpr int kBChunksPerRow = kBlockN / kChunkElems;                   // 32
inline constexpr int kAChunksPerThread = kBlockM * kAChunksPerRow / kThreads;  // 2
inline constexpr int kBChunksPerThread = kBlockK * kBChunksPerRow / kThreads;  // 4

static_assert(kALd % 8 == 0 && kBLd % 8 == 0, "load_matrix_sync: ldm multiple of 8 elements");
static_assert(kBlockM * kAChunksPerRow % kThreads == 0, "A chunks spread evenly");
static_assert(kBlockK * kBChunksPerRow % kThreads == 0, "B chunks spread evenly");
static_assert(kWarps * kFrag * kFrag * 4 <= kStages * kAStageElems * 2,
              "epilogue staging fits in the A stages");

}  // namespace tclens::kernels::wmma_rung
