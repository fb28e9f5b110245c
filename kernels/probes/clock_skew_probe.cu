// The device half of kernels/probes/clock_skew_probe.h: the flag kernel, the timer-tick kernel
// and the rounds.
#include <cuda_runtime.h>

#include <vector>

#include "kernels/cuda_util.h"
#include "kernels/probes/clock_skew_probe.h"

namespace tclens::kernels {
namespace {

constexpr int kThreads = 32;
constexpr int kTickSteps = 64;       // timer changes the tick kernel watches
constexpr int kTickReads = 1 << 24;  // reads it gives up after

__device__ __forceinline__ std::uint32_t load_acquire(const std::uint32_t* p) {
    std::uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void store_release(std::uint32_t* p, std::uint32_t v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ std::uint64_t global_ns() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

// Round `round` (1, 2, ...): `flag` holds round - 1 and `ready` (round - 1) x gridDim.x before
// it. Block `setter` sets the flag to `round` once every block has counted itself in.
__global__ void clock_skew_kernel(std::uint32_t* flag, std::uint32_t* ready, std::uint32_t round,
                                  std::uint32_t setter, ClockSkewSample* out) {
    if (threadIdx.x != 0) return;
    atomicAdd(ready, 1u);
    if (blockIdx.x == setter) {
        while (load_acquire(ready) < round * gridDim.x) {
        }
        store_release(flag, round);
    }
    while (load_acquire(flag) != round) {
    }
    ClockSkewSample sample;
    sample.global_ns = global_ns();
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(sample.clock)::"memory");
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sample.sm));
    sample.block = blockIdx.x;
    out[blockIdx.x] = sample;
}

// The smallest non-zero step between consecutive %globaltimer reads over kTickSteps changes;
// 0 if it changed fewer times in kTickReads reads.
__global__ void timer_tick_kernel(std::uint64_t* tick) {
    std::uint64_t smallest = ~std::uint64_t{0};
    std::uint64_t last = global_ns();
    int changes = 0;
    for (int reads = 0; changes < kTickSteps && reads < kTickReads; ++reads) {
        const std::uint64_t now = global_ns();
        if (now != last) {
            smallest = now - last < smallest ? now - last : smallest;
            last = now;
            ++changes;
        }
    }
    *tick = changes == kTickSteps ? smallest : 0;
}

std::string failed(cudaError_t status) { return "clock skew probe: " + cuda_text(status); }

}  // namespace

std::string measure_clock_skew(int rounds, ClockSkewSummary& out) {
    if (rounds < 1 || rounds > 10000) {
        return "clock skew probe: rounds " + std::to_string(rounds) + " must be 1 to 10000";
    }
    int device = 0;
    int sms = 0;
    int smem_per_sm = 0;
    int cooperative = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess)
        status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (status == cudaSuccess)
        status = cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                                        device);
    if (status == cudaSuccess)
        status = cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device);
    if (status != cudaSuccess) return failed(status);
    if (cooperative == 0) return "clock skew probe: the device has no cooperative launch";
    // More than half an SM's shared memory per block: at most one block per SM.
    const int smem = smem_per_sm / 2 + 1024;
    status =
        cudaFuncSetAttribute(clock_skew_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (status != cudaSuccess) return failed(status);

    DeviceBuffer counters;  // flag, ready
    DeviceBuffer samples;
    DeviceBuffer tick;
    if ((status = counters.allocate(2 * sizeof(std::uint32_t))) != cudaSuccess ||
        (status = samples.allocate(std::int64_t{sms} * sizeof(ClockSkewSample))) != cudaSuccess ||
        (status = tick.allocate(sizeof(std::uint64_t))) != cudaSuccess ||
        (status = cudaMemset(counters.get(), 0, 2 * sizeof(std::uint32_t))) != cudaSuccess) {
        return failed(status);
    }
    auto* flag = static_cast<std::uint32_t*>(counters.get());
    std::uint32_t* ready = flag + 1;
    auto* device_samples = static_cast<ClockSkewSample*>(samples.get());

    std::vector<std::vector<ClockSkewSample>> all(static_cast<std::size_t>(rounds));
    for (int r = 0; r < rounds; ++r) {
        std::uint32_t round = static_cast<std::uint32_t>(r + 1);
        std::uint32_t setter = static_cast<std::uint32_t>(r % sms);
        void* args[] = {&flag, &ready, &round, &setter, &device_samples};
        status = cudaMemset(device_samples, 0, std::size_t(sms) * sizeof(ClockSkewSample));
        if (status == cudaSuccess) {
            status = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(clock_skew_kernel),
                                                 dim3(sms), dim3(kThreads), args, smem);
        }
        std::vector<ClockSkewSample>& round_samples = all[static_cast<std::size_t>(r)];
        round_samples.resize(static_cast<std::size_t>(sms));
        if (status == cudaSuccess) {
            status =
                cudaMemcpy(round_samples.data(), device_samples,
                           round_samples.size() * sizeof(ClockSkewSample), cudaMemcpyDeviceToHost);
        }
        if (status != cudaSuccess) return failed(status);
        for (const ClockSkewSample& s : round_samples) {
            if (s.global_ns == 0) {
                return "clock skew probe: round " + std::to_string(r) + " lost block " +
                       std::to_string(&s - round_samples.data());
            }
        }
    }
    std::uint64_t tick_ns = 0;
    timer_tick_kernel<<<1, 1>>>(static_cast<std::uint64_t*>(tick.get()));
    status = cudaGetLastError();
    if (status == cudaSuccess) {
        status = cudaMemcpy(&tick_ns, tick.get(), sizeof tick_ns, cudaMemcpyDeviceToHost);
    }
    if (status != cudaSuccess) return failed(status);
    const std::string error = summarize_clock_skew(all, out);
    out.tick_ns = static_cast<std::int64_t>(tick_ns);
    return error;
}

}  // namespace tclens::kernels
