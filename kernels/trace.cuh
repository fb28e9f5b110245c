#pragma once
// Trace points for a per-warp timeline (issue 20): a kernel marks the phases of its warps (load
// issue, barrier waits, wgmma, epilogue, store: viz/trace_phase.h) and lane 0 of each warp of
// the first TraceSink::blocks blocks writes one 32-byte record per phase (kernels/trace_sink.h).
//
// Zero cost when off: WarpTracer<false> is empty and its member functions are empty inlines, so
// a kernel instantiated with its trace flag false compiles to the code it had without trace
// points (the ladder's timed kernels are those instantiations; the traced ones are separate
// instantiations with the flag true). Users' kernels include this header and use the
// TCLENS_TRACE_* macros, which record only when TCLENS_TRACE is defined at compile time.
//
// Time base: start and end come from %globaltimer, a nanosecond clock the GPU keeps chip-wide
// and every SM reads, so phases of different SMs are put on one time base by using its readings
// as they are, with no per-SM correction; `cycles` is the same phase measured by the SM's own
// clock64 (per-SM counters that are not synchronised between SMs, so used only as durations,
// never as times), for phases shorter than the timer's tick.
// How far apart two SMs' readings of one instant can be is measured, not assumed: the clock
// skew probe (kernels/probes/clock_skew_probe.h, `tclens trace --clock-skew`) launches one block
// per SM, all spinning on one global flag that one block sets; each block reads %globaltimer
// the moment it sees the flag, and the spread of those readings (latest minus earliest, min /
// median / max over many rounds) bounds the timer's skew between SMs plus the flag's
// propagation. It also reports the timer's tick (the smallest step one thread sees), the
// resolution of every start and end here. The measured values belong to the GPU that ran it: on
// an H200 (tests/gpu/results/2026-11-26_h200_session9/leaseB/clock_skew.txt) the spread over
// 1001 rounds of 132 SMs was 160 ns at least, 192 ns median, 288 ns at most, with a 32 ns tick.

// Cost when on: two timer reads per trace point (all lanes), and for lane 0 one 32-byte store
// and one 4-byte counter store per phase; `tclens trace` reports the traced and untraced times.
//
// The sink is a __device__ variable of each translation unit that includes this header (an
// unnamed namespace: one per .cu, so rungs never share or race for it); set_trace_sink writes
// it, in stream order, before that unit's traced launch.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/trace_sink.h"
#include "viz/trace_phase.h"

namespace tclens::kernels {
namespace {

__device__ TraceSink trace_sink;

// Enqueues the copy of `sink` into this translation unit's trace_sink on `stream`.
inline cudaError_t set_trace_sink(const TraceSink& sink, cudaStream_t stream) {
    return cudaMemcpyToSymbolAsync(trace_sink, &sink, sizeof sink, 0, cudaMemcpyHostToDevice,
                                   stream);
}

}  // namespace

// When a phase began: both clocks, read by every lane of the warp.
struct TraceMark {
    std::uint64_t ns;
    std::uint64_t clock;
};
struct NoTraceMark {};

template <bool kOn>
struct WarpTracer;

// Off: nothing is read or written.
template <>
struct WarpTracer<false> {
    using Mark = NoTraceMark;
    __device__ __forceinline__ Mark begin() const { return {}; }
    __device__ __forceinline__ void end(Mark, viz::TracePhase, int) {}
};

// On: one per warp (every thread of the warp holds one; lane 0's writes). Construct it after
// blockIdx and threadIdx are known, in every thread, with the kernel's warps per block in the
// sink (TraceSink::warps_per_block).
template <>
struct WarpTracer<true> {
    using Mark = TraceMark;
    TraceRecord* records = nullptr;  // this warp's slice; null when the block is not traced
    std::uint32_t* count_slot = nullptr;
    std::uint32_t count = 0;
    std::uint16_t sm = 0;

    __device__ WarpTracer() {
        const TraceSink sink = trace_sink;
        const unsigned lane = threadIdx.x % 32;
        if (static_cast<int>(blockIdx.x) >= sink.blocks || lane != 0) return;
        const int slot = static_cast<int>(blockIdx.x) * sink.warps_per_block +
                         static_cast<int>(threadIdx.x / 32);
        records = sink.records + static_cast<std::int64_t>(slot) * sink.records_per_warp;
        count_slot = sink.counts + slot;
        capacity = static_cast<std::uint32_t>(sink.records_per_warp);
        unsigned smid = 0;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        sm = static_cast<std::uint16_t>(smid);
    }

    __device__ __forceinline__ Mark begin() const { return {global_ns(), clock()}; }

    // Records [mark, now) as `phase` of K tile `k_tile` (-1: none), from lane 0 of a traced block.
    __device__ __forceinline__ void end(Mark mark, viz::TracePhase phase, int k_tile) {
        const std::uint64_t end_clock = clock();
        const std::uint64_t end_ns = global_ns();
        if (records == nullptr) return;
        if (count < capacity) {
            TraceRecord r;
            r.start_ns = mark.ns;
            r.end_ns = end_ns;
            r.cycles = static_cast<std::uint32_t>(end_clock - mark.clock);
            r.phase = static_cast<std::uint16_t>(phase);
            r.sm = sm;
            r.k_tile = k_tile;
            r.unused = 0;
            records[count] = r;
        }
        ++count;
        *count_slot = count;
    }

  private:
    std::uint32_t capacity = 0;

    __device__ __forceinline__ static std::uint64_t global_ns() {
        std::uint64_t t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
        return t;
    }
    __device__ __forceinline__ static std::uint64_t clock() {
        std::uint64_t t;
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
        return t;
    }
};

}  // namespace tclens::kernels

// For users' kernels: `TCLENS_TRACE_WARP(tracer);` once per thread after its indices are known,
// then `TCLENS_TRACE_BEGIN(tracer, m); ... TCLENS_TRACE_END(tracer, m, kWgmma, k_tile);` around
// each phase (a viz::TracePhase enumerator name). Without TCLENS_TRACE they compile to nothing.
#if defined(TCLENS_TRACE)
#define TCLENS_TRACE_WARP(tracer) ::tclens::kernels::WarpTracer<true> tracer
#else
#define TCLENS_TRACE_WARP(tracer) ::tclens::kernels::WarpTracer<false> tracer
#endif
#define TCLENS_TRACE_BEGIN(tracer, mark) const auto mark = (tracer).begin()
#define TCLENS_TRACE_END(tracer, mark, phase, k_tile) \
    (tracer).end((mark), ::tclens::viz::TracePhase::phase, (k_tile))
