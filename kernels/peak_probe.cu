// Peak probe kernels and their timing (what each measures: peak_probe.h).
//
// Every kernel has the same signature, (iterations, store, sink, not_compiled), runs 256-thread
// blocks and repeats a fixed, fully unrolled body `iterations` times in a loop that is not
// unrolled, so one launch does exactly flops_per_block_iteration * blocks * iterations FLOPs.
// `store` is 0 at run time; the kernels write their accumulators to sink[threadIdx.x] only when
// it is not, so the arithmetic stays live without any global-memory traffic. A kernel whose
// instruction this build has no code for on the running GPU (wgmma outside sm_90a) sets
// *not_compiled instead and the host skips it.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cuda_util.h"
#include "kernels/peak_probe.h"
#include "kernels/ptx.cuh"

namespace tclens::kernels {
namespace {

constexpr int kThreads = 256;  // every probe kernel's block

// ---- FFMA ------------------------------------------------------------------------------------

constexpr int kFfmaChains = 16;  // independent accumulators per thread (hide the FMA latency)
constexpr int kFfmaRounds = 32;  // FFMA per chain and loop iteration (amortise the loop branch)

// acc = acc * 0.9999 + 1e-4 converges to 1: finite, non-zero, never a fixed point in f32 math
// that a compiler could exploit (IEEE fma chains are never folded).
__global__ void __launch_bounds__(kThreads)
    ffma_peak_kernel(int iterations, int store, float* sink, int* /*not_compiled*/) {
    float acc[kFfmaChains];
#pragma unroll
    for (int c = 0; c < kFfmaChains; ++c) {
        acc[c] = 1.0f + float(threadIdx.x * kFfmaChains + c) * 1e-6f;
    }
#pragma unroll 1
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int r = 0; r < kFfmaRounds; ++r) {
#pragma unroll
            for (int c = 0; c < kFfmaChains; ++c) {
                acc[c] = __fmaf_rn(acc[c], 0.9999f, 1e-4f);
            }
        }
    }
    if (store != 0) {
        float sum = 0.0f;
#pragma unroll
        for (int c = 0; c < kFfmaChains; ++c) {
            sum += acc[c];
        }
        sink[threadIdx.x] = sum;
    }
}

// ---- mma.sync --------------------------------------------------------------------------------

constexpr int kMmaChains = 8;  // independent accumulator sets per warp (keep the pipe full)
constexpr int kMmaRounds = 4;  // mma per set and loop iteration

// A value in [1/32, 1/16) picked by `index`: non-zero mantissa bits, and products small enough
// that f32 accumulators stay finite for any realistic launch (~1e4 per accumulator).
__device__ __forceinline__ float operand_value(std::uint32_t index) {
    return 0.03125f * (1.0f + float(index & 15u) / 16.0f);
}

// One e4m3 byte of operand_value(index) (exact: 1/32 .. 1/16 in 1/512 steps needs 4 mantissa
// bits, e4m3 keeps 3, so it rounds to nearest; still non-zero and far from e4m3's 448).
__device__ __forceinline__ std::uint32_t e4m3_byte(std::uint32_t index) {
    return __nv_cvt_float_to_fp8(operand_value(index), __NV_SATFINITE, __NV_E4M3);
}

// One 32-bit operand register of precision P: one tf32 value, two packed 16-bit values or four
// packed e4m3 bytes.
template <Precision P>
__device__ __forceinline__ std::uint32_t operand_word(std::uint32_t index) {
    if constexpr (P == Precision::kTF32) {
        return ptx::to_tf32(operand_value(index));
    } else if constexpr (P == Precision::kE4M3) {
        return e4m3_byte(4 * index) | e4m3_byte(4 * index + 1) << 8 |
               e4m3_byte(4 * index + 2) << 16 | e4m3_byte(4 * index + 3) << 24;
    } else if constexpr (P == Precision::kF16) {
        return std::uint32_t(__half_as_ushort(__float2half_rn(operand_value(2 * index)))) |
               std::uint32_t(__half_as_ushort(__float2half_rn(operand_value(2 * index + 1)))) << 16;
    } else {
        return std::uint32_t(__bfloat16_as_ushort(__float2bfloat16_rn(operand_value(2 * index)))) |
               std::uint32_t(
                   __bfloat16_as_ushort(__float2bfloat16_rn(operand_value(2 * index + 1))))
                   << 16;
    }
}

// K of the mma.sync instruction of precision P: m16n8k8 for tf32, m16n8k16 for f16 and bf16.
template <Precision P>
constexpr int mma_sync_k() {
    return P == Precision::kTF32 ? 8 : 16;
}

template <Precision P>
__device__ __forceinline__ void mma_sync(float (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
    if constexpr (P == Precision::kTF32) {
        ptx::mma_m16n8k8_tf32(d, a, b);
    } else if constexpr (P == Precision::kF16) {
        ptx::mma_m16n8k16_f16(d, a, b);
    } else {
        ptx::mma_m16n8k16_bf16(d, a, b);
    }
}

// Every warp: the same A (4 registers) and B (2 registers) per lane, kMmaChains accumulators.
template <Precision P>
__global__ void __launch_bounds__(kThreads)
    mma_sync_peak_kernel(int iterations, int store, float* sink, int* /*not_compiled*/) {
    const std::uint32_t lane = threadIdx.x & 31u;
    std::uint32_t a[4];
    std::uint32_t b[2];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        a[i] = operand_word<P>(lane * 6u + i);
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        b[i] = operand_word<P>(lane * 6u + 4u + i);
    }
    float d[kMmaChains][4] = {};
#pragma unroll 1
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int r = 0; r < kMmaRounds; ++r) {
#pragma unroll
            for (int c = 0; c < kMmaChains; ++c) {
                mma_sync<P>(d[c], a, b);
            }
        }
    }
    if (store != 0) {
        float sum = 0.0f;
#pragma unroll
        for (int c = 0; c < kMmaChains; ++c) {
            sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
        }
        sink[threadIdx.x] = sum;
    }
}

// ---- wgmma -----------------------------------------------------------------------------------

constexpr int kWarpgroupThreads = 128;
constexpr int kWgmmaM = 64;
constexpr int kWgmmaN = 256;
constexpr int kWgmmaBatch = 8;  // wgmma in flight between one commit_group and its wait_group

// K of the wgmma instruction of precision P: m64n256k8 for tf32, m64n256k16 for f16 and bf16,
// m64n256k32 for e4m3 (32 bytes of every A and B row in each case).
template <Precision P>
constexpr int wgmma_k() {
    return P == Precision::kTF32 ? 8 : P == Precision::kE4M3 ? 32 : 16;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

// Shared-memory tiles in the canonical no-swizzle K-major layout: 8-row x 16-byte core
// matrices, the next core matrix along K kLeadingBytes on (LBO), the next 8 rows of M or N
// kStrideBytes on (SBO). One K step is 32 bytes per row for every precision (k16 of 16-bit
// values, k8 of tf32, k32 of e4m3), so one layout serves all four instructions (e4m3 reads
// both operands K-major only, which this layout is):
//   A: 64 rows x 32 bytes = 2 KiB, B: 256 rows x 32 bytes = 8 KiB, B right after A.
constexpr std::uint32_t kLeadingBytes = 128;
constexpr std::uint32_t kStrideBytes = 256;
constexpr int kRowBytes = 32;
constexpr int kTileABytes = kWgmmaM * kRowBytes;
constexpr int kTileBBytes = kWgmmaN * kRowBytes;
constexpr int kTileWords = (kTileABytes + kTileBBytes) / 4;

// The matrix descriptor of a tile at `tile`: start address, LBO and SBO, each (x & 0x3FFFF) >> 4
// in bits 0-13, 16-29 and 32-45; base offset 0, layout type 0 (no swizzle).
__device__ __forceinline__ std::uint64_t tile_descriptor(const void* tile) {
    const auto encode = [](std::uint32_t x) { return std::uint64_t((x & 0x3ffffu) >> 4); };
    return encode(ptx::smem_addr(tile)) | encode(kLeadingBytes) << 16 | encode(kStrideBytes) << 32;
}

// Operand numbering in every wgmma statement: %0..%127 the accumulators (d[0..127], in the
// order of the instruction's D list), %128 the A descriptor, %129 the B descriptor, %130 the
// scale-d flag (1: D += A * B).
#define TCLENS_PEAK_D_REGS                             \
    "%0, %1, %2, %3, %4, %5, %6, %7, "                 \
    "%8, %9, %10, %11, %12, %13, %14, %15, "           \
    "%16, %17, %18, %19, %20, %21, %22, %23, "         \
    "%24, %25, %26, %27, %28, %29, %30, %31, "         \
    "%32, %33, %34, %35, %36, %37, %38, %39, "         \
    "%40, %41, %42, %43, %44, %45, %46, %47, "         \
    "%48, %49, %50, %51, %52, %53, %54, %55, "         \
    "%56, %57, %58, %59, %60, %61, %62, %63, "         \
    "%64, %65, %66, %67, %68, %69, %70, %71, "         \
    "%72, %73, %74, %75, %76, %77, %78, %79, "         \
    "%80, %81, %82, %83, %84, %85, %86, %87, "         \
    "%88, %89, %90, %91, %92, %93, %94, %95, "         \
    "%96, %97, %98, %99, %100, %101, %102, %103, "     \
    "%104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, " \
    "%120, %121, %122, %123, %124, %125, %126, %127"
#define TCLENS_PEAK_D8(i)                                                                       \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
        "+f"(d[i + 6]), "+f"(d[i + 7])
#define TCLENS_PEAK_D_OPS                                                               \
    TCLENS_PEAK_D8(0), TCLENS_PEAK_D8(8), TCLENS_PEAK_D8(16), TCLENS_PEAK_D8(24),       \
        TCLENS_PEAK_D8(32), TCLENS_PEAK_D8(40), TCLENS_PEAK_D8(48), TCLENS_PEAK_D8(56), \
        TCLENS_PEAK_D8(64), TCLENS_PEAK_D8(72), TCLENS_PEAK_D8(80), TCLENS_PEAK_D8(88), \
        TCLENS_PEAK_D8(96), TCLENS_PEAK_D8(104), TCLENS_PEAK_D8(112), TCLENS_PEAK_D8(120)
// One wgmma: `shape_types` e.g. "m64n256k16.f32.bf16.bf16"; `tail` the immediates after
// scale-a and scale-b (the transpose flags, which f16 and bf16 take and tf32 and e4m3 do not).
#define TCLENS_PEAK_WGMMA(shape_types, tail)                            \
    "wgmma.mma_async.sync.aligned." shape_types " {" TCLENS_PEAK_D_REGS \
    "}, %128, %129, p, 1, 1" tail ";\n"
#define TCLENS_PEAK_X8(s) s s s s s s s s
// fence, kWgmmaBatch wgmma into the same accumulators, commit, wait for all of them. One asm
// statement from fence to wait, so the compiler never touches d while a wgmma still runs.
// clang-format off
#define TCLENS_PEAK_WGMMA_BATCH(shape_types, tail)                      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"          \
                 "wgmma.fence.sync.aligned;\n"                          \
                 TCLENS_PEAK_X8(TCLENS_PEAK_WGMMA(shape_types, tail))   \
                 "wgmma.commit_group.sync.aligned;\n"                   \
                 "wgmma.wait_group.sync.aligned 0;\n}\n"                \
                 : TCLENS_PEAK_D_OPS                                    \
                 : "l"(desc_a), "l"(desc_b), "r"(1)                     \
                 : "memory")
// clang-format on

static_assert(kWgmmaBatch == 8, "TCLENS_PEAK_X8 issues 8 wgmma per batch");

// d (64 x 256 f32 per warpgroup, 128 per thread) += A (64 x K) * B (K x 256), kWgmmaBatch times.
template <Precision P>
__device__ __forceinline__ void wgmma_batch(float (&d)[kWgmmaN / 2], std::uint64_t desc_a,
                                            std::uint64_t desc_b) {
    if constexpr (P == Precision::kTF32) {
        TCLENS_PEAK_WGMMA_BATCH("m64n256k8.f32.tf32.tf32", "");
    } else if constexpr (P == Precision::kE4M3) {
        TCLENS_PEAK_WGMMA_BATCH("m64n256k32.f32.e4m3.e4m3", "");
    } else if constexpr (P == Precision::kF16) {
        TCLENS_PEAK_WGMMA_BATCH("m64n256k16.f32.f16.f16", ", 0, 0");
    } else {
        TCLENS_PEAK_WGMMA_BATCH("m64n256k16.f32.bf16.bf16", ", 0, 0");
    }
}

#undef TCLENS_PEAK_WGMMA_BATCH
#undef TCLENS_PEAK_X8
#undef TCLENS_PEAK_WGMMA
#undef TCLENS_PEAK_D_OPS
#undef TCLENS_PEAK_D8
#undef TCLENS_PEAK_D_REGS

#endif  // __CUDA_ARCH_FEAT_SM90_ALL

// Two warpgroups per block share one A and one B tile (filled once with operand_word<P>
// values); each accumulates into its own 128 registers per thread.
template <Precision P>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_peak_kernel(int iterations, int store, float* sink, int* not_compiled) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(128) std::uint32_t tiles[kTileWords];
    for (int i = int(threadIdx.x); i < kTileWords; i += kThreads) {
        tiles[i] = operand_word<P>(std::uint32_t(i));
    }
    // wgmma reads shared memory through the async proxy: make the generic-proxy writes visible
    // to it, then wait until every thread has written its share.
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();

    const std::uint64_t desc_a = tile_descriptor(tiles);
    const std::uint64_t desc_b = tile_descriptor(tiles + kTileABytes / 4);
    float d[kWgmmaN / 2];
#pragma unroll
    for (int i = 0; i < kWgmmaN / 2; ++i) {
        d[i] = 0.0f;
    }
#pragma unroll 1
    for (int it = 0; it < iterations; ++it) {
        wgmma_batch<P>(d, desc_a, desc_b);
    }
    if (store != 0) {
        float sum = 0.0f;
#pragma unroll
        for (int i = 0; i < kWgmmaN / 2; ++i) {
            sum += d[i];
        }
        sink[threadIdx.x] = sum;
    }
#else
    (void)iterations, (void)store, (void)sink;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *not_compiled = 1;
    }
#endif
}

// ---- Host: the benchmarks and their timing ----------------------------------------------------

using PeakKernel = void (*)(int, int, float*, int*);

struct Benchmark {
    Precision precision;
    const char* instruction;
    PeakKernel kernel;
    double flops_per_block_iteration;  // FLOPs of one block in one iteration of its loop
    bool needs_sm90;                   // wgmma: compute capability 9.0 only
};

constexpr double kFfmaFlops = 2.0 * kThreads * kFfmaChains * kFfmaRounds;
template <Precision P>
constexpr double mma_sync_flops() {
    return 2.0 * 16 * 8 * mma_sync_k<P>() * (kThreads / 32) * kMmaChains * kMmaRounds;
}
template <Precision P>
constexpr double wgmma_flops() {
    return 2.0 * kWgmmaM * kWgmmaN * wgmma_k<P>() * (kThreads / kWarpgroupThreads) * kWgmmaBatch;
}

const Benchmark kBenchmarks[] = {
    {Precision::kF32, "FFMA (fma.rn.f32)", ffma_peak_kernel, kFfmaFlops, false},
    {Precision::kTF32, "mma.sync.m16n8k8.f32.tf32.tf32", mma_sync_peak_kernel<Precision::kTF32>,
     mma_sync_flops<Precision::kTF32>(), false},
    {Precision::kF16, "mma.sync.m16n8k16.f32.f16.f16", mma_sync_peak_kernel<Precision::kF16>,
     mma_sync_flops<Precision::kF16>(), false},
    {Precision::kBF16, "mma.sync.m16n8k16.f32.bf16.bf16", mma_sync_peak_kernel<Precision::kBF16>,
     mma_sync_flops<Precision::kBF16>(), false},
    {Precision::kTF32, "wgmma.m64n256k8.f32.tf32.tf32", wgmma_peak_kernel<Precision::kTF32>,
     wgmma_flops<Precision::kTF32>(), true},
    {Precision::kF16, "wgmma.m64n256k16.f32.f16.f16", wgmma_peak_kernel<Precision::kF16>,
     wgmma_flops<Precision::kF16>(), true},
    {Precision::kBF16, "wgmma.m64n256k16.f32.bf16.bf16", wgmma_peak_kernel<Precision::kBF16>,
     wgmma_flops<Precision::kBF16>(), true},
    {Precision::kE4M3, "wgmma.m64n256k32.f32.e4m3.e4m3", wgmma_peak_kernel<Precision::kE4M3>,
     wgmma_flops<Precision::kE4M3>(), true},
};

constexpr float kCalibrationMs = 1.0f;  // a launch at least this long sizes the real ones
constexpr float kTargetMs = 8.0f;       // each timed launch
constexpr int kWarmupLaunches = 2;
constexpr int kTimedLaunches = 11;
constexpr std::int64_t kMaxIterations = std::int64_t(1) << 30;

// The stream, events and device buffers of one measure_instruction_peaks call; freed when
// destroyed.
struct ProbeContext {
    cudaStream_t stream = nullptr;
    cudaEvent_t starts[kTimedLaunches] = {};
    cudaEvent_t stops[kTimedLaunches] = {};
    float* sink = nullptr;        // kThreads floats, written only when store != 0 (never)
    int* not_compiled = nullptr;  // one flag

    ProbeContext() = default;
    ProbeContext(const ProbeContext&) = delete;
    ProbeContext& operator=(const ProbeContext&) = delete;
    ~ProbeContext() {
        for (int i = 0; i < kTimedLaunches; ++i) {
            if (starts[i] != nullptr) {
                cudaEventDestroy(starts[i]);
            }
            if (stops[i] != nullptr) {
                cudaEventDestroy(stops[i]);
            }
        }
        if (stream != nullptr) {
            cudaStreamDestroy(stream);
        }
        cudaFree(sink);
        cudaFree(not_compiled);
    }

    cudaError_t create() {
        cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        for (int i = 0; i < kTimedLaunches && status == cudaSuccess; ++i) {
            status = cudaEventCreate(&starts[i]);
            if (status == cudaSuccess) {
                status = cudaEventCreate(&stops[i]);
            }
        }
        if (status == cudaSuccess) {
            status = cudaMalloc(&sink, kThreads * sizeof(float));
        }
        if (status == cudaSuccess) {
            status = cudaMalloc(&not_compiled, sizeof(int));
        }
        return status;
    }
};

// Launches of one benchmark on `blocks` blocks (all of them resident at once).
class BenchmarkRun {
  public:
    BenchmarkRun(const Benchmark& bench, ProbeContext& context, int blocks)
        : bench_(bench), context_(context), blocks_(blocks) {}

    cudaError_t launch(std::int64_t iterations) {
        bench_.kernel<<<blocks_, kThreads, 0, context_.stream>>>(
            static_cast<int>(iterations), 0, context_.sink, context_.not_compiled);
        return cudaGetLastError();
    }

    // Launches `count` (<= kTimedLaunches) times, each between its own pair of events, and
    // writes each launch's milliseconds to ms[0..count).
    cudaError_t time(std::int64_t iterations, int count, float* ms) {
        cudaError_t status = cudaSuccess;
        for (int i = 0; i < count && status == cudaSuccess; ++i) {
            status = cudaEventRecord(context_.starts[i], context_.stream);
            if (status == cudaSuccess) {
                status = launch(iterations);
            }
            if (status == cudaSuccess) {
                status = cudaEventRecord(context_.stops[i], context_.stream);
            }
        }
        if (status == cudaSuccess) {
            status = cudaStreamSynchronize(context_.stream);
        }
        for (int i = 0; i < count && status == cudaSuccess; ++i) {
            status = cudaEventElapsedTime(&ms[i], context_.starts[i], context_.stops[i]);
        }
        return status;
    }

  private:
    const Benchmark& bench_;
    ProbeContext& context_;
    int blocks_;
};

// Measures `bench` on every SM. Returns "" or one line; `compiled` false (and tflops 0) when
// this build has no code for its instruction on this GPU.
std::string run_benchmark(const Benchmark& bench, ProbeContext& context, int sms, double& tflops,
                          bool& compiled) {
    tflops = 0;
    compiled = true;
    const std::string where = std::string("peak probe (") + bench.instruction + "): ";
    int blocks_per_sm = 0;
    cudaError_t status =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, bench.kernel, kThreads, 0);
    if (status != cudaSuccess) {
        return where + "cannot query occupancy: " + cuda_text(status);
    }
    if (blocks_per_sm < 1) {
        return where + "a block of " + std::to_string(kThreads) + " threads does not fit on an SM";
    }
    const int blocks = sms * blocks_per_sm;
    BenchmarkRun run(bench, context, blocks);

    // First launch: loads the module and raises the flag if the kernel is a stub here.
    int not_compiled = 0;
    status = cudaMemsetAsync(context.not_compiled, 0, sizeof(int), context.stream);
    if (status == cudaSuccess) {
        status = run.launch(1);
    }
    if (status == cudaSuccess) {
        status = cudaMemcpyAsync(&not_compiled, context.not_compiled, sizeof(int),
                                 cudaMemcpyDeviceToHost, context.stream);
    }
    if (status == cudaSuccess) {
        status = cudaStreamSynchronize(context.stream);
    }
    if (status != cudaSuccess) {
        return where + cuda_text(status);
    }
    if (not_compiled != 0) {
        compiled = false;
        return "";
    }

    // Calibrate: grow the loop until one launch takes kCalibrationMs, then scale it to kTargetMs.
    std::int64_t iterations = 16;
    float ms = 0.0f;
    for (;;) {
        status = run.time(iterations, 1, &ms);
        if (status != cudaSuccess) {
            return where + cuda_text(status);
        }
        if (ms >= kCalibrationMs || iterations >= kMaxIterations) {
            break;
        }
        const float growth =
            ms > 0.0f ? std::clamp(2.0f * kCalibrationMs / ms, 2.0f, 64.0f) : 64.0f;
        iterations = std::min(kMaxIterations, std::int64_t(double(iterations) * growth));
    }
    iterations = std::clamp(std::int64_t(double(iterations) * kTargetMs / ms), std::int64_t(1),
                            kMaxIterations);

    float times[kTimedLaunches];
    status = run.time(iterations, kWarmupLaunches, times);
    if (status == cudaSuccess) {
        status = run.time(iterations, kTimedLaunches, times);
    }
    if (status != cudaSuccess) {
        return where + cuda_text(status);
    }
    std::sort(times, times + kTimedLaunches);
    const double median_s = double(times[kTimedLaunches / 2]) * 1e-3;
    const double flops = bench.flops_per_block_iteration * double(blocks) * double(iterations);
    tflops = median_s > 0.0 ? flops / median_s * 1e-12 : 0.0;
    return "";
}

}  // namespace

std::string measure_instruction_peaks(std::vector<PeakMeasurement>& out) {
    out.clear();
    int device = 0;
    int sms = 0;
    int major = 0;
    int minor = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    }
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    }
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    }
    if (status != cudaSuccess) {
        return "peak probe: cannot query the GPU: " + cuda_text(status);
    }
    if (major < 8) {
        return "peak probe: needs compute capability 8.0 or newer (mma.sync with tf32 and bf16); "
               "this GPU is " +
               std::to_string(major) + "." + std::to_string(minor);
    }
    ProbeContext context;
    status = context.create();
    if (status != cudaSuccess) {
        return "peak probe: cannot create its stream, events or buffers: " + cuda_text(status);
    }

    for (const Benchmark& bench : kBenchmarks) {
        if (bench.needs_sm90 && !(major == 9 && minor == 0)) {
            continue;
        }
        double tflops = 0;
        bool compiled = true;
        const std::string failure = run_benchmark(bench, context, sms, tflops, compiled);
        if (!failure.empty()) {
            out.clear();
            return failure;
        }
        if (compiled) out.push_back({bench.precision, bench.instruction, tflops});
    }
    return "";
}

std::vector<PeakMeasurement> best_per_precision(const std::vector<PeakMeasurement>& instructions) {
    std::vector<PeakMeasurement> best;
    for (const Precision precision :
         {Precision::kF32, Precision::kTF32, Precision::kF16, Precision::kBF16, Precision::kE4M3}) {
        PeakMeasurement slot;
        slot.precision = precision;
        for (const PeakMeasurement& measured : instructions) {
            if (measured.precision == precision && measured.tflops > slot.tflops) slot = measured;
        }
        best.push_back(slot);
    }
    return best;
}

}  // namespace tclens::kernels
