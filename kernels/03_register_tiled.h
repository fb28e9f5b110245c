#pragma once
// Rung 3's constants, shared by its kernel and launch (03_register_tiled.cu) and
// its descriptor (03_register_tiled.cpp).

#include <cstdint>

namespace tclens::kernels::register_tiled {

inline constexpr int kBlockM = 128;
inline constexpr int kBlockN = 128;
inline constexpr int kBlockK = 8;
inline constexpr int kThreads = 256;
inline constexpr int kWarpM = 32;
inline constexpr int kWarpN = 64;
inline constexpr int kWarpsN = kBlockN / kWarpN;  // 2; warps along M: kBlockM / kWarpM = 4
inline constexpr int kLanesN = 8;                 // lanes along N in a warp; 4 along M
inline constexpr int kSub = 4;                    // a thread's 4 x 4 sub-tile
inline constexpr int kThreadM = 8;                // = 2 sub-tiles
inline constexpr int kThreadN = 8;
inline constexpr int kSubStrideM = kWarpM / 2;  // 16: rows between a thread's two sub-tiles
inline constexpr int kSubStrideN = kWarpN / 2;  // 32: columns between them
inline constexpr int kPad = 4;                  // floats appended to every shared-memory row
inline constexpr int kStages = 2;
inline constexpr std::int64_t kMaxGridY = 65535;

static_assert(kBlockM * kBlockK == 4 * kThreads, "one float4 of A per thread per K step");
static_assert(kBlockK * kBlockN == 4 * kThreads, "one float4 of B per thread per K step");
static_assert((kBlockM / kWarpM) * kWarpsN * 32 == kThreads, "8 warps tile the block");
static_assert((kWarpM / kThreadM) * (kWarpN / kThreadN) == 32, "32 lanes tile the warp");

}  // namespace tclens::kernels::register_tiled
