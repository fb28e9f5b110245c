#pragma once
// Where a traced kernel (kernels/trace.cuh) writes its records: plain structs that host and
// device code share. The host allocates them (kernels/trace_capture.h), the device fills them.
//
// Layout: warp w of block b (b < blocks) owns records_per_warp consecutive records starting at
// records[(b * warps_per_block + w) * records_per_warp] and the counter counts[b *
// warps_per_block + w], which holds how many phases it recorded, including those past
// records_per_warp that did not fit (those are dropped, and counted so the host can say so).
// Blocks b >= blocks record nothing: that is the cap on the blocks traced.
//
// A clock-only record (phase has kClockOnlyRecord set) is its second 16 bytes alone: the device
// wrote no start_ns and end_ns (they hold whatever the buffer held), and the decoder
// (kernels/trace_decode.h) places it in global time from its start_clock and cycles, between
// the full records of its block, which ran on the same SM and so read the same %clock.
#include <cstddef>
#include <cstdint>

namespace tclens::kernels {

struct alignas(16) TraceRecord {  // 32 bytes, written as two 16-byte stores
    std::uint64_t start_ns;       // %globaltimer at the phase's start (not in a clock-only one)
    std::uint64_t end_ns;         // %globaltimer at its end (not in a clock-only one)
    std::uint32_t cycles;         // %clock at its end minus at its start (mod 2^32)
    std::uint16_t phase;          // viz::TracePhase, | kClockOnlyRecord in a clock-only record
    std::uint16_t sm;             // %smid
    std::int32_t k_tile;          // -1 for none
    std::uint32_t start_clock;    // %clock at its start (0 from recorders older than this word)
};
static_assert(sizeof(TraceRecord) == 32, "one record is 32 bytes");
// The second 16 bytes as the device writes them (kernels/trace.cuh): words cycles,
// phase | sm << 16, k_tile, start_clock. (Checked by every compiler but NVRTC, which has no
// offsetof and compiles the same struct for kernels of yours.)
#ifndef __CUDACC_RTC__
static_assert(offsetof(TraceRecord, cycles) == 16 && offsetof(TraceRecord, phase) == 20 &&
                  offsetof(TraceRecord, sm) == 22 && offsetof(TraceRecord, k_tile) == 24 &&
                  offsetof(TraceRecord, start_clock) == 28,
              "the record's second half is four 32-bit words");
#endif

// The bit of TraceRecord::phase that marks a clock-only record.
inline constexpr std::uint16_t kClockOnlyRecord = 0x8000;

struct TraceSink {
    TraceRecord* records = nullptr;
    std::uint32_t* counts = nullptr;
    int blocks = 0;  // blocks 0 .. blocks - 1 record
    int warps_per_block = 0;
    int records_per_warp = 0;
};

}  // namespace tclens::kernels
