#include "app/worker/gpu_neighbours.h"

#include <dlfcn.h>

#include <algorithm>

namespace tclens::worker {
namespace {

// NVML's C API, as nvml.h declares it (return 0: NVML_SUCCESS; 7: NVML_ERROR_INSUFFICIENT_SIZE).
using NvmlDevice = void*;
using NvmlInit = int (*)();
using NvmlShutdown = int (*)();
using NvmlHandleByPciBusId = int (*)(const char*, NvmlDevice*);
// Called with no buffer it only counts: the count is all that is read, so no process-info
// struct (whose layout changed between drivers) is needed.
using NvmlRunningProcesses = int (*)(NvmlDevice, unsigned int*, void*);
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlInsufficientSize = 7;

}  // namespace

GpuNeighbours gpu_neighbours(const std::string& pci_bus_id) {
    GpuNeighbours out;
    void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (nvml == nullptr) {
        out.unknown = "NVML not found (libnvidia-ml.so.1)";
        return out;
    }
    const auto init = reinterpret_cast<NvmlInit>(dlsym(nvml, "nvmlInit_v2"));
    const auto shutdown = reinterpret_cast<NvmlShutdown>(dlsym(nvml, "nvmlShutdown"));
    const auto handle =
        reinterpret_cast<NvmlHandleByPciBusId>(dlsym(nvml, "nvmlDeviceGetHandleByPciBusId_v2"));
    const auto compute = reinterpret_cast<NvmlRunningProcesses>(
        dlsym(nvml, "nvmlDeviceGetComputeRunningProcesses_v3"));
    if (init == nullptr || shutdown == nullptr || handle == nullptr || compute == nullptr) {
        out.unknown = "this NVML lacks nvmlDeviceGetComputeRunningProcesses_v3";
    } else if (init() != kNvmlSuccess) {
        out.unknown = "NVML did not start";
    } else {
        NvmlDevice device = nullptr;
        unsigned int count = 0;
        const int counted = handle(pci_bus_id.c_str(), &device) == kNvmlSuccess
                                ? compute(device, &count, nullptr)
                                : -1;
        if (counted == kNvmlSuccess || counted == kNvmlInsufficientSize) {
            out.others = std::max(0, static_cast<int>(count) - 1);
        } else {
            out.unknown = "NVML could not list the processes on GPU " + pci_bus_id;
        }
        shutdown();
    }
    dlclose(nvml);
    return out;
}

std::string shared_gpu_note(const GpuNeighbours& before, const GpuNeighbours& after) {
    const int others = std::max(before.others, after.others);
    if (others == 0) return "";
    return std::to_string(others) + (others == 1 ? " other process" : " other processes") +
           " had a CUDA context on this GPU while it was timed (NVML): times may be slower than "
           "on an idle GPU";
}

}  // namespace tclens::worker
