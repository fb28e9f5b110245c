#pragma once
// Trace points for a per-warp timeline: a kernel marks the phases of its warps (load
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

// Cost when on, in a traced block: two timer reads per trace point in every lane (a phase that
// begins as the last ends shares its point), and in lane 0 two 16-byte stores per phase and the
// warp's phase count once, at its end. Nothing in it branches on the lane: whether a block
// records is uniform over the block (blockIdx against the sink, which sits in constant memory),
// and lane 0's stores are predicated, so a trace point never splits a warp (a lane-dependent
// early return did, and its BSSY/BSYNC pairs cost rung 8 more than its timer reads:
// tests/gpu/results/2026-11-26_h100_session11/README.md). A kernel that runs
// traced_blocks_only() pays nothing at all in the blocks it does not trace. `tclens trace`
// reports the traced and untraced times.
//
// The sink is a __constant__ variable of each translation unit that includes this header (an
// unnamed namespace: one per .cu, so rungs never share or race for it); set_trace_sink writes
// it, in stream order, before that unit's traced launch.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/trace_sink.h"
#include "viz/trace_phase.h"

namespace tclens::kernels {
namespace {

__constant__ TraceSink trace_sink;

// Enqueues the copy of `sink` into this translation unit's trace_sink on `stream`.
inline cudaError_t set_trace_sink(const TraceSink& sink, cudaStream_t stream) {
    return cudaMemcpyToSymbolAsync(trace_sink, &sink, sizeof sink, 0, cudaMemcpyHostToDevice,
                                   stream);
}

// The traced variant of a launch: this unit's trace sink set to `sink` on `stream`, then
// launch() (a cudaError_t). Returns the copy's error, else the launch's.
template <typename Launch>
cudaError_t with_trace_sink(const TraceSink& sink, cudaStream_t stream, Launch launch) {
    const cudaError_t status = set_trace_sink(sink, stream);
    if (status != cudaSuccess) return status;
    return launch();
}

// Whether this block records: the first TraceSink::blocks blocks do. Uniform over the block.
__device__ __forceinline__ bool block_is_traced() {
    return static_cast<int>(blockIdx.x) < trace_sink.blocks;
}

// A traced kernel's body, run traced only where it records: `body(std::true_type{})` in the
// traced blocks, `body(std::false_type{})` (the untraced code, as the timed kernel runs it) in
// the others, so those pay nothing and the kernel's time moves only by what its traced blocks
// cost. Kernels that trace every block (the persistent rungs 11-12) use WarpTracer<true> alone,
// which in a block it does not trace costs a uniform branch per trace point.
template <bool kTraced, typename Body>
__device__ __forceinline__ void traced_blocks_only(Body&& body) {
    if constexpr (kTraced) {
        if (block_is_traced()) {
            body(std::true_type{});
            return;
        }
    }
    body(std::false_type{});
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
    __device__ __forceinline__ Mark end(Mark, viz::TracePhase, int) { return {}; }
};

// On: one per warp, constructed after blockIdx and threadIdx are known, in every thread, with
// the kernel's warps per block in the sink (TraceSink::warps_per_block). Every lane of a traced
// block reads the clocks; lane 0 writes.
template <>
struct WarpTracer<true> {
    using Mark = TraceMark;
    TraceRecord* records = nullptr;  // this warp's slice (every lane holds it)
    std::uint32_t* count_slot = nullptr;
    std::uint32_t count = 0;
    std::uint32_t sm_high = 0;  // %smid << 16, as the record's phase | sm word wants it
    bool on = false;            // block_is_traced(): uniform over the block
    bool lane0 = false;         // the lane that stores

    __device__ WarpTracer() {
        on = block_is_traced();
        if (!on) return;
        const TraceSink& sink = trace_sink;
        const int slot = static_cast<int>(blockIdx.x) * sink.warps_per_block +
                         static_cast<int>(threadIdx.x / 32);
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

    // Records [mark, now) as `phase` of K tile `k_tile` (-1: none), from lane 0 of a traced
    // block, in two 16-byte stores (kernels/trace_sink.h); the count goes out once, when the
    // tracer ends. Returns now, the begin of a phase that follows at once (one clock read fewer).
    __device__ __forceinline__ Mark end(Mark mark, viz::TracePhase phase, int k_tile) {
        if (!on) return {0, 0};
        const std::uint64_t end_clock = clock();
        const std::uint64_t end_ns = global_ns();
        if (lane0 && count < capacity) {
            uint4* out = reinterpret_cast<uint4*>(records + count);
            out[0] =
                make_uint4(static_cast<unsigned>(mark.ns), static_cast<unsigned>(mark.ns >> 32),
                           static_cast<unsigned>(end_ns), static_cast<unsigned>(end_ns >> 32));
            out[1] = make_uint4(static_cast<unsigned>(end_clock - mark.clock),
                                static_cast<unsigned>(phase) | sm_high,
                                static_cast<unsigned>(k_tile), 0u);
        }
        ++count;
        return {end_ns, end_clock};
    }

    // The phases this warp recorded, those that did not fit included.
    __device__ ~WarpTracer() {
        if (on && lane0) *count_slot = count;
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
