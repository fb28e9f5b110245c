#pragma once
// The device half of a warp trace that rungs (kernels/trace.cuh) and kernels of yours
// (kernels/user_trace.cuh) share: one warp's slot of a TraceSink and the record it writes per
// phase, laid out as kernels/trace_sink.h says. Device code only, with no CUDA runtime header,
// so NVRTC compiles it too (the worker hands it to NVRTC as a built-in header).
//
// Cost, and why nothing branches on the lane: kernels/trace.cuh.
#include <cstdint>

#include "kernels/trace_sink.h"
#include "viz/trace_phase.h"

namespace tclens::kernels {

// When a phase began: both clocks, read by every lane of the warp. The SM clock's low 32 bits
// only: a record keeps cycles mod 2^32 (kernels/trace_sink.h), and a mark held across a K tile
// takes one register fewer.
struct TraceMark {
    std::uint64_t ns;
    std::uint32_t clock;
};
// When a phase began, by the SM clock alone: the marks of a hot loop, whose records are
// clock-only (kernels/trace_sink.h) and whose global times the decoder derives from the full
// records around them. %clock costs far less than %globaltimer.
struct ClockMark {
    std::uint32_t clock;
};
struct NoTraceMark {};

// One warp's recorder: warp `warp` of block `block` records into `sink` when `on` (the caller
// decides, uniformly over the warp, whether it records). Every lane reads the clocks; lane 0
// writes.
struct WarpRecorder {
    using Mark = TraceMark;
    using ClockMark = kernels::ClockMark;
    TraceRecord* records = nullptr;  // this warp's slice (every lane holds it)
    std::uint32_t* count_slot = nullptr;
    std::uint32_t count = 0;
    std::uint32_t sm_high = 0;  // %smid << 16, as the record's phase | sm word wants it
    bool on = false;            // whether this warp records: uniform over the warp
    bool lane0 = false;         // the lane that stores

    __device__ WarpRecorder(const TraceSink& sink, bool records_here, int block, int warp) {
        on = records_here;
        if (!on) return;
        const int slot = block * sink.warps_per_block + warp;
        records = sink.records + static_cast<std::int64_t>(slot) * sink.records_per_warp;
        count_slot = sink.counts + slot;
        capacity = static_cast<std::uint32_t>(sink.records_per_warp);
        lane0 = threadIdx.x % 32 == 0;
        unsigned smid = 0;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        sm_high = (smid & 0xffffu) << 16;
    }

    __device__ __forceinline__ Mark begin() const {
        if (!on) return {0, 0};
        return {global_ns(), clock()};
    }

    // Now, both clocks: the end of a phase (and the begin of one that follows at once), read
    // where the phase ends; record() stores it, perhaps later, off the kernel's critical path.
    __device__ __forceinline__ Mark lap() const {
        if (!on) return {0, 0};
        const std::uint32_t clock_now = clock();
        return {global_ns(), clock_now};
    }

    // Now, by the SM clock alone.
    __device__ __forceinline__ ClockMark clock_lap() const {
        if (!on) return {0};
        return {clock()};
    }

    // Now, as the kind of mark `since` is: lets a loop be written once for both kinds.
    __device__ __forceinline__ Mark lap_like(Mark) const { return lap(); }
    __device__ __forceinline__ ClockMark lap_like(ClockMark) const { return clock_lap(); }

    // Records [from, to) as `phase` of K tile `k_tile` (-1: none), from lane 0 of a recording
    // warp, in two 16-byte stores (kernels/trace_sink.h); the count goes out once, when the
    // recorder ends. Phases are numbered in the order they are recorded.
    __device__ __forceinline__ void record(Mark from, Mark to, viz::TracePhase phase, int k_tile) {
        if (!on) return;
        if (lane0 && count < capacity) {
            uint4* out = reinterpret_cast<uint4*>(records + count);
            out[0] =
                make_uint4(static_cast<unsigned>(from.ns), static_cast<unsigned>(from.ns >> 32),
                           static_cast<unsigned>(to.ns), static_cast<unsigned>(to.ns >> 32));
            out[1] = clock_words(from.clock, to.clock, static_cast<unsigned>(phase), k_tile);
        }
        ++count;
    }

    // The same as a clock-only record: its second 16 bytes alone, in one store.
    __device__ __forceinline__ void record(ClockMark from, ClockMark to, viz::TracePhase phase,
                                           int k_tile) {
        if (!on) return;
        if (lane0 && count < capacity) {
            reinterpret_cast<uint4*>(records + count)[1] = clock_words(
                from.clock, to.clock, static_cast<unsigned>(phase) | kClockOnlyRecord, k_tile);
        }
        ++count;
    }

    // A clock-only record stored by this lane, not lane 0, as the warp's record count + offset,
    // where `stores` (records held in the lanes and stored together: kernels/trace.cuh,
    // HeldKTileLog); skip() then moves the count past them.
    __device__ __forceinline__ void record_from_lane(std::uint32_t offset, std::uint32_t from,
                                                     std::uint32_t to, viz::TracePhase phase,
                                                     int k_tile, bool stores) {
        if (!on) return;
        const std::uint32_t index = count + offset;
        if (stores && index < capacity) {
            reinterpret_cast<uint4*>(records + index)[1] =
                clock_words(from, to, static_cast<unsigned>(phase) | kClockOnlyRecord, k_tile);
        }
    }
    __device__ __forceinline__ void skip(std::uint32_t stored) {
        if (on) count += stored;
    }

    // Records [mark, now) as `phase` of K tile `k_tile` (lap, then record). Returns now, the
    // begin of a phase that follows at once (one clock read fewer).
    __device__ __forceinline__ Mark end(Mark mark, viz::TracePhase phase, int k_tile) {
        const Mark now = lap();
        record(mark, now, phase, k_tile);
        return now;
    }
    __device__ __forceinline__ ClockMark end(ClockMark mark, viz::TracePhase phase, int k_tile) {
        const ClockMark now = clock_lap();
        record(mark, now, phase, k_tile);
        return now;
    }

    // The phases this warp recorded, those that did not fit included.
    __device__ ~WarpRecorder() {
        if (on && lane0) *count_slot = count;
    }

  private:
    std::uint32_t capacity = 0;

    // A record's second 16 bytes: cycles, phase word | sm << 16, k_tile, start clock.
    __device__ __forceinline__ uint4 clock_words(std::uint32_t from, std::uint32_t to,
                                                 unsigned phase_word, int k_tile) const {
        return make_uint4(to - from, phase_word | sm_high, static_cast<unsigned>(k_tile), from);
    }

    __device__ __forceinline__ static std::uint64_t global_ns() {
        std::uint64_t t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
        return t;
    }
    __device__ __forceinline__ static std::uint32_t clock() {
        std::uint32_t t;
        asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory");
        return t;
    }
};

}  // namespace tclens::kernels
