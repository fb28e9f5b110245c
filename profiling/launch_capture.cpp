#include "profiling/launch_capture.h"

#include <cuda_runtime.h>
#include <cupti_activity.h>
#include <cxxabi.h>

#include <cstdlib>
#include <mutex>

#include "profiling/cupti_call.h"

namespace tclens::profiling {
namespace {

using detail::from_cuda;
using detail::from_cupti;

constexpr std::size_t kActivityBufferBytes = 1 << 20;
constexpr std::size_t kActivityBufferAlign = 8;

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
