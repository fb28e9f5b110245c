#pragma once
// Trace points for a per-warp timeline: a kernel marks the phases of its warps (load
// issue, barrier waits, wgmma, epilogue, store: viz/trace_phase.h) and lane 0 of each warp of
// the first TraceSink::blocks blocks writes one 32-byte record per phase (kernels/trace_sink.h).
//
// Zero cost when off: WarpTracer<false> is empty and its member functions are empty inlines, so
// a kernel instantiated with its trace flag false compiles to the code it had without trace
// points (the ladder's timed kernels are those instantiations; the traced ones are separate
// instantiations with the flag true). Users' kernels use kernels/user_trace.cuh instead (the same
// records, its sink set by the worker's loader), whose macros record only in the traced build.
//
// Time base: start and end come from %globaltimer, a nanosecond clock the GPU keeps chip-wide
// and every SM reads, so phases of different SMs are put on one time base by using its readings
// as they are, with no per-SM correction; `cycles` is the same phase measured by the SM's own
// %clock (the low 32 bits of clock64: per-SM counters that are not synchronised between SMs, so
// used only as durations, never as times), for phases shorter than the timer's tick.
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
// reports the traced and untraced times. A phase may be read where it ends (lap) and stored
// later (record), out of a hot path's way. The persistent rungs 11-12 trace every block, so
// their K loops carry as few trace points as the views need: the K tiles' phases of one warp
// per consumer warpgroup, one that releases no slot (kernels/wgmma_consumer.cuh,
// consume_k_tile, k_tile_recording_warp), and one phase per K tile of the producer, and as cheap
// ones: %clock alone (ClockMark, clock_lap), each phase a clock-only record (kernels/
// trace_sink.h), which the decoder places in global time between the %globaltimer readings of
// the block's other phases, taken once per output tile; the consumers' K tiles held in the
// recording warp's lanes and stored 32 at a time (HeldKTileLog, below). (Two %globaltimer reads
// per K tile in the recording warp and the producer, the traced rungs 11-12 took 8-10 % longer
// on an H200, 23-25 % at K = 8320: tests/gpu/results/2026-11-30_h200_session19/.)
//
// The sink is a __constant__ variable of each translation unit that includes this header (an
// unnamed namespace: one per .cu, so rungs never share or race for it); set_trace_sink writes
// it before that unit's traced launch, when it changed.
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>
#include <type_traits>

#include "kernels/trace_sink.h"
#include "kernels/trace_warp.cuh"
#include "viz/trace_phase.h"

namespace tclens::kernels {
namespace {

__constant__ TraceSink trace_sink;

inline bool same_trace_sink(const TraceSink& a, const TraceSink& b) {
    return a.records == b.records && a.counts == b.counts && a.blocks == b.blocks &&
           a.warps_per_block == b.warps_per_block && a.records_per_warp == b.records_per_warp;
}

// Makes this translation unit's trace_sink on the current device `sink`: copies it on `stream`
// and waits for the copy, unless the device holds it already. So a capture's repeated traced
// launches (kernels/trace_capture.h: verified, then each timed between two events) copy it once,
// untimed, and their times are the kernel's alone, with no host-to-device copy before it.
inline cudaError_t set_trace_sink(const TraceSink& sink, cudaStream_t stream) {
    constexpr int kDevices = 64;  // devices remembered; past them, every call copies
    static std::mutex mutex;
    static TraceSink held[kDevices];  // what each device's trace_sink holds (zeros at first)
    int device = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess) return status;
    const std::lock_guard<std::mutex> lock(mutex);
    TraceSink* const on_device = device >= 0 && device < kDevices ? &held[device] : nullptr;
    if (on_device != nullptr && same_trace_sink(*on_device, sink)) return cudaSuccess;
    status =
        cudaMemcpyToSymbolAsync(trace_sink, &sink, sizeof sink, 0, cudaMemcpyHostToDevice, stream);
    if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
    if (status == cudaSuccess && on_device != nullptr) *on_device = sink;
    return status;
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

template <bool kOn>
struct WarpTracer;

// Off: nothing is read or written.
template <>
struct WarpTracer<false> {
    using Mark = NoTraceMark;
    using ClockMark = NoTraceMark;
    __device__ __forceinline__ Mark begin() const { return {}; }
    __device__ __forceinline__ Mark lap() const { return {}; }
    __device__ __forceinline__ Mark clock_lap() const { return {}; }
    __device__ __forceinline__ Mark lap_like(Mark) const { return {}; }
    __device__ __forceinline__ void record(Mark, Mark, viz::TracePhase, int) {}
    __device__ __forceinline__ Mark end(Mark, viz::TracePhase, int) { return {}; }
};

// On: one per warp, constructed after blockIdx and threadIdx are known, in every thread, with
// the kernel's warps per block in the sink (TraceSink::warps_per_block): block blockIdx.x, warp
// threadIdx.x / 32 of this unit's sink (kernels/trace_warp.cuh records).
template <>
struct WarpTracer<true> : WarpRecorder {
    __device__ WarpTracer()
        : WarpRecorder(trace_sink, block_is_traced(), static_cast<int>(blockIdx.x),
                       static_cast<int>(threadIdx.x / 32)) {}
};

// The K-tile phases of a TMA rung's consumer warp, as consume_k_tile (kernels/wgmma_consumer.cuh)
// reports them: filled() after the slot's full wait, committed(kt) once its wgmma are committed,
// completed() once the previous slot's wgmma are, released(kt) after that slot's release. A log
// records kFullWait (from the end of the warp's previous phase to the fill) and kWgmma (to the
// completion) of K tile kt where `records` (uniform over the warp). Two kinds follow.

// Each phase stored at once by lane 0, in marks of the kind of `since` (both clocks, or the SM
// clock alone): the full wait once the wgmma are committed, the wgmma after the release, so that
// no store delays the producer's refill of the slot. Rung 10, which traces a few blocks.
template <typename Tracer, typename Since>
struct KTileLog {
    Tracer& tracer;
    Since since;  // the end of the warp's previous phase
    bool records;
    Since multiplying{};
    Since multiplied{};

    __device__ __forceinline__ void filled() {
        if (records) multiplying = tracer.lap_like(since);
    }
    __device__ __forceinline__ void committed(int kt) {
        if (records) tracer.record(since, multiplying, viz::TracePhase::kFullWait, kt);
    }
    __device__ __forceinline__ void completed() {
        if (records) multiplied = tracer.lap_like(since);
    }
    __device__ __forceinline__ void released(int kt) {
        if (!records) return;
        tracer.record(multiplying, multiplied, viz::TracePhase::kWgmma, kt);
        since = multiplied;
    }
};

template <typename Tracer, typename Since>
__device__ __forceinline__ KTileLog<Tracer, Since> k_tile_log(Tracer& tracer, Since since,
                                                              bool records) {
    return {tracer, since, records};
}

// Each K tile held in a lane of the recording warp, all of whose lanes run the K loop: K tile j
// of a run sits in lane j % 32 (three SM clock readings and kt), and the warp stores 32 K tiles'
// clock-only records at once, lane by lane, when its lanes are full, and at flush() (the end of
// each output tile's or stream-K piece's K loop, before the warp records anything else, so its
// records keep the order of its phases). A K tile costs the recording warp two clock reads and a
// few selects, no store and no branch on the lane. The persistent rungs 11-12, which trace every
// block: at 2240x2560x8320 on an H200 rung 11 took 6.0 % longer traced with lane 0 storing two
// records per K tile, 2.4 % with them held (tests/gpu/results/2026-12-01_h200_session27, calls 1
// and 2, recorded by the last warp of each warpgroup).
template <bool kOn>
struct HeldKTileLog {
    __device__ HeldKTileLog(WarpTracer<false>&, bool) {}
    __device__ __forceinline__ void start() {}
    __device__ __forceinline__ void filled() {}
    __device__ __forceinline__ void committed(int) {}
    __device__ __forceinline__ void completed() {}
    __device__ __forceinline__ void released(int) {}
    __device__ __forceinline__ void flush() {}
};

template <>
struct HeldKTileLog<true> {
    __device__ HeldKTileLog(WarpTracer<true>& tracer, bool records)
        : tracer(tracer), records(records && tracer.on) {}

    // The K loop begins: its first full wait starts now.
    __device__ __forceinline__ void start() {
        if (records) since = tracer.clock_lap().clock;
    }
    __device__ __forceinline__ void filled() {
        if (records) multiplying = tracer.clock_lap().clock;
    }
    __device__ __forceinline__ void committed(int) {}
    __device__ __forceinline__ void completed() {
        if (records) multiplied = tracer.clock_lap().clock;
    }
    __device__ __forceinline__ void released(int kt) {
        if (!records) return;
        if (lane == held) {  // selects, not a branch
            held_since = since;
            held_multiplying = multiplying;
            held_multiplied = multiplied;
            held_k_tile = kt;
        }
        since = multiplied;
        if (++held == 32) flush();
    }
    // Stores what the lanes hold: lane l its K tile's kFullWait and kWgmma, as the warp's records
    // count + 2 l and count + 2 l + 1.
    __device__ __forceinline__ void flush() {
        if (!records || held == 0) return;
        const bool stores = lane < held;
        tracer.record_from_lane(2 * lane, held_since, held_multiplying, viz::TracePhase::kFullWait,
                                held_k_tile, stores);
        tracer.record_from_lane(2 * lane + 1, held_multiplying, held_multiplied,
                                viz::TracePhase::kWgmma, held_k_tile, stores);
        tracer.skip(2 * held);
        held = 0;
    }

  private:
    WarpTracer<true>& tracer;
    const bool records;
    const std::uint32_t lane = threadIdx.x % 32;
    std::uint32_t since = 0;  // SM clock readings of the current K tile
    std::uint32_t multiplying = 0;
    std::uint32_t multiplied = 0;
    std::uint32_t held = 0;        // K tiles held, uniform over the warp
    std::uint32_t held_since = 0;  // this lane's K tile
    std::uint32_t held_multiplying = 0;
    std::uint32_t held_multiplied = 0;
    int held_k_tile = 0;
};

}  // namespace tclens::kernels
