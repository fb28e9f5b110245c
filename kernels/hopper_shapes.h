#pragma once
// The sizes the Hopper rungs (09-13) are built from: warpgroups, the 128-byte swizzled rows of
// their shared-memory operands, the TMA box width, the wgmma shapes and the setmaxnreg budget.
// Plain C++ constants, so that the rungs' descriptors build without CUDA; the device helpers
// that use them are kernels/hopper.cuh.

namespace tclens::kernels::hopper {

inline constexpr int kWarpgroupThreads = 128;
inline constexpr int kWarpgroupWarps = kWarpgroupThreads / 32;
inline constexpr int kSwizzleRowBytes = 128;    // one swizzled row: 8 chunks of 16 bytes
inline constexpr int kSwizzleAtomBytes = 1024;  // 8 rows: the period of the XOR pattern
inline constexpr int kBoxElems = 64;  // 128 bytes of 16-bit elements: every operand box's width
inline constexpr int kWgmmaM = 64;
inline constexpr int kWgmmaK = 16;
inline constexpr int kWgmmaKFp8 =
    32;  // 8-bit wgmma: k32, the same 32 bytes of a row as k16 of 16-bit
inline constexpr int kElementBytes = 2;
// Bytes between the k16 steps of one K tile: A moves 16 elements along its 128-byte rows; B
// moves 16 rows = two 8-row swizzle atoms.
inline constexpr int kAStepBytes = kWgmmaK * kElementBytes;
inline constexpr int kBStepBytes = kWgmmaK * kSwizzleRowBytes;
// setmaxnreg budget of the warp-specialised rungs (one producer and two consumer warpgroups,
// 384 threads, 64 K registers): 128 x 40 + 256 x 232 = 64512. 240 for the consumers would need
// 66560.
inline constexpr int kProducerRegisters = 40;
inline constexpr int kConsumerRegisters = 232;

}  // namespace tclens::kernels::hopper
