#include "profiling/launch_facts.h"

#include <cuda_runtime.h>
#include <cupti_activity.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "profiling/cupti_call.h"

namespace tclens::profiling {
namespace {

using detail::from_cuda;
using detail::from_cupti;

constexpr int kSubPartitions = 4;        // register file split per SM, sm_70 and newer
constexpr int kRegisterAllocUnit = 256;  // registers per warp are allocated in these units
constexpr int kSharedAllocUnit = 128;    // bytes
constexpr std::size_t kActivityBufferBytes = 1 << 20;
constexpr std::size_t kActivityBufferAlign = 8;

int round_up(int value, int unit) { return (value + unit - 1) / unit * unit; }

std::string demangled(const char* name) {
    if (name == nullptr) return "";
    int status = 0;
    char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string out = status == 0 && text != nullptr ? text : name;
    std::free(text);
    return out;
}

// Where the activity callbacks put what they decode; guarded by sink_mutex().
std::mutex& sink_mutex() {
    static std::mutex mutex;
    return mutex;
}
std::vector<KernelLaunch>* sink = nullptr;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *buffer =
        static_cast<std::uint8_t*>(std::aligned_alloc(kActivityBufferAlign, kActivityBufferBytes));
    *size = *buffer != nullptr ? kActivityBufferBytes : 0;
    *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                               std::size_t valid_bytes) {
    CUpti_Activity* record = nullptr;
    std::lock_guard<std::mutex> lock(sink_mutex());
    while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
            record->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
            continue;
        }
        // CUPTI 13 writes kernel records as CUpti_ActivityKernel10 (the version of its header).
        const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        KernelLaunch launch;
        launch.name = demangled(kernel->name);
        launch.grid[0] = kernel->gridX;
        launch.grid[1] = kernel->gridY;
        launch.grid[2] = kernel->gridZ;
        launch.block[0] = kernel->blockX;
        launch.block[1] = kernel->blockY;
        launch.block[2] = kernel->blockZ;
        launch.registers_per_thread = kernel->registersPerThread;
        launch.static_shared_bytes = kernel->staticSharedMemory;
        launch.dynamic_shared_bytes = kernel->dynamicSharedMemory;
        launch.local_bytes_per_thread = static_cast<int>(kernel->localMemoryPerThread);
        launch.shared_carveout_bytes = static_cast<int>(kernel->sharedMemoryExecuted);
        launch.duration_ns =
            kernel->end > kernel->start ? static_cast<double>(kernel->end - kernel->start) : 0.0;
        if (sink != nullptr) sink->push_back(std::move(launch));
    }
    std::free(buffer);
}

ProfilerError register_callbacks() {
    static std::once_flag once;
    static ProfilerError error;
    std::call_once(once, [] {
        error = from_cupti(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                           "cuptiActivityRegisterCallbacks");
    });
    return error;
}

}  // namespace

std::int64_t KernelLaunch::grid_size() const {
    return static_cast<std::int64_t>(grid[0]) * grid[1] * grid[2];
}

int KernelLaunch::block_size() const { return block[0] * block[1] * block[2]; }

SmLimits sm_limits(const DeviceFacts& device) {
    SmLimits limits;
    limits.max_threads_per_sm = device.max_threads_per_sm;
    limits.max_blocks_per_sm = device.max_blocks_per_sm;
    limits.regs_per_sm = device.regs_per_sm;
    limits.smem_per_sm = static_cast<int>(device.smem_per_sm);
    limits.reserved_smem_per_block = static_cast<int>(device.reserved_smem_per_block);
    limits.warp_size = device.warp_size > 0 ? device.warp_size : 32;
    return limits;
}

Occupancy theoretical_occupancy(const KernelLaunch& launch, const SmLimits& limits) {
    Occupancy occupancy;
    const int threads = launch.block_size();
    const int warp_size = limits.warp_size > 0 ? limits.warp_size : 32;
    if (threads <= 0) {
        return occupancy;
    }
    const int warps_per_block = (threads + warp_size - 1) / warp_size;
    const int max_warps = limits.max_threads_per_sm / warp_size;

    occupancy.limit_blocks = limits.max_blocks_per_sm;
    occupancy.limit_warps = max_warps / warps_per_block;
    occupancy.limit_registers = limits.max_blocks_per_sm;
    if (launch.registers_per_thread > 0) {
        const int regs_per_warp =
            round_up(launch.registers_per_thread * warp_size, kRegisterAllocUnit);
        const int warps_per_partition = limits.regs_per_sm / kSubPartitions / regs_per_warp;
        occupancy.limit_registers = warps_per_partition * kSubPartitions / warps_per_block;
    }
    occupancy.limit_shared_mem = limits.max_blocks_per_sm;
    const int shared = launch.static_shared_bytes + launch.dynamic_shared_bytes;
    if (shared > 0) {
        const int per_block = round_up(shared + limits.reserved_smem_per_block, kSharedAllocUnit);
        const int available =
            launch.shared_carveout_bytes > 0 ? launch.shared_carveout_bytes : limits.smem_per_sm;
        occupancy.limit_shared_mem = available / per_block;
    }

    // The smallest limit; on a tie, the first of these the launch really uses (a kernel without
    // shared memory is not "limited by shared memory"), in the order a kernel writer changes
    // them most easily.
    struct Limit {
        int blocks;
        bool used;
        const char* name;
    };
    const Limit limits_in_order[] = {
        {occupancy.limit_registers, launch.registers_per_thread > 0, "registers"},
        {occupancy.limit_shared_mem, shared > 0, "shared memory"},
        {occupancy.limit_warps, true, "warps"},
        {occupancy.limit_blocks, true, "block slots"},
    };
    occupancy.blocks_per_sm = occupancy.limit_blocks;
    for (const Limit& limit : limits_in_order) {
        occupancy.blocks_per_sm = std::min(occupancy.blocks_per_sm, limit.blocks);
    }
    for (const Limit& limit : limits_in_order) {
        if (limit.used && limit.blocks == occupancy.blocks_per_sm) {
            occupancy.limiter = limit.name;
            break;
        }
    }
    occupancy.theoretical_pct =
        max_warps > 0 ? 100.0 * occupancy.blocks_per_sm * warps_per_block / max_warps : 0.0;
    return occupancy;
}

bool launch_metric_value(const std::string& name, const KernelLaunch& launch,
                         const Occupancy& occupancy, double& value) {
    const std::pair<const char*, double> values[] = {
        {"launch__registers_per_thread", launch.registers_per_thread},
        {"launch__shared_mem_per_block_static", launch.static_shared_bytes},
        {"launch__shared_mem_per_block_dynamic", launch.dynamic_shared_bytes},
        {"launch__block_size", launch.block_size()},
        {"launch__grid_size", static_cast<double>(launch.grid_size())},
        {"launch__occupancy_limit_registers", occupancy.limit_registers},
        {"launch__occupancy_limit_shared_mem", occupancy.limit_shared_mem},
        {"launch__occupancy_limit_warps", occupancy.limit_warps},
        {"launch__occupancy_limit_blocks", occupancy.limit_blocks},
    };
    for (const auto& [metric, metric_value] : values) {
        if (name == metric) {
            value = metric_value;
            return true;
        }
    }
    return false;
}

const KernelLaunch* main_launch(const std::vector<KernelLaunch>& launches) {
    const KernelLaunch* longest = nullptr;
    for (const KernelLaunch& launch : launches) {
        if (longest == nullptr || launch.duration_ns > longest->duration_ns) longest = &launch;
    }
    return longest;
}

LaunchCapture capture_launches(const Workload& workload) {
    static std::mutex capture_mutex;
    std::lock_guard<std::mutex> one_at_a_time(capture_mutex);
    LaunchCapture capture;
    capture.error = register_callbacks();
    if (!capture.error.ok()) {
        return capture;
    }
    std::vector<KernelLaunch> launches;
    {
        std::lock_guard<std::mutex> lock(sink_mutex());
        sink = &launches;
    }
    capture.error = from_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                               "cuptiActivityEnable(CONCURRENT_KERNEL)");
    if (capture.error.ok()) {
        std::string failure = workload ? workload() : "no workload given";
        const ProfilerError synced =
            from_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the workload");
        const ProfilerError flushed = from_cupti(
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
        const ProfilerError disabled =
            from_cupti(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                       "cuptiActivityDisable(CONCURRENT_KERNEL)");
        if (!failure.empty()) {
            capture.error =
                profiler_error(ProfilerProblem::kFailed,
                               "the workload failed while recording launches: " + failure);
        } else {
            for (const ProfilerError& step : {synced, flushed, disabled}) {
                if (capture.error.ok() && !step.ok()) capture.error = step;
            }
        }
    }
    {
        std::lock_guard<std::mutex> lock(sink_mutex());
        sink = nullptr;
        capture.launches = std::move(launches);
    }
    if (capture.error.ok() && capture.launches.empty()) {
        capture.error = profiler_error(ProfilerProblem::kFailed,
                                       "CUPTI recorded no kernel launch for the workload");
    }
    return capture;
}

}  // namespace tclens::profiling
