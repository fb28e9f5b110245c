#pragma once
// Where a traced kernel (kernels/trace.cuh) writes its records: plain structs that host and
// device code share. The host allocates them (kernels/trace_capture.h), the device fills them.
//
// Layout: warp w of block b (b < blocks) owns records_per_warp consecutive records starting at
// records[(b * warps_per_block + w) * records_per_warp] and the counter counts[b *
// warps_per_block + w], which holds how many phases it recorded, including those past
// records_per_warp that did not fit (those are dropped, and counted so the host can say so).
// Blocks b >= blocks record nothing: that is the cap on the blocks traced.
#include <cstddef>
#include <cstdint>

namespace tclens::kernels {

struct alignas(16) TraceRecord {  // 32 bytes, written as two 16-byte stores
    std::uint64_t start_ns;       // %globaltimer at the phase's start
    std::uint64_t end_ns;         // %globaltimer at its end
    std::uint32_t cycles;         // %clock at its end minus at its start (mod 2^32)
    std::uint16_t phase;          // viz::TracePhase
    std::uint16_t sm;             // %smid
    std::int32_t k_tile;          // -1 for none
    std::uint32_t unused;         // pads the record to 32 bytes (written 0)
};
static_assert(sizeof(TraceRecord) == 32, "one record is 32 bytes");
// The second 16 bytes as the device writes them (kernels/trace.cuh): words cycles,
// phase | sm << 16, k_tile, unused. (Checked by every compiler but NVRTC, which has no offsetof
// and compiles the same struct for kernels of yours.)
#ifndef __CUDACC_RTC__
static_assert(offsetof(TraceRecord, cycles) == 16 && offsetof(TraceRecord, phase) == 20 &&
                  offsetof(TraceRecord, sm) == 22 && offsetof(TraceRecord, k_tile) == 24,
              "the record's second half is four 32-bit words");
#endif

struct TraceSink {
    TraceRecord* records = nullptr;
    std::uint32_t* counts = nullptr;
    int blocks = 0;  // blocks 0 .. blocks - 1 record
    int warps_per_block = 0;
    int records_per_warp = 0;
};

}  // namespace tclens::kernels
