#include "profiling/device_query.h"

#include <cuda_runtime.h>

#include <fstream>
#include <sstream>

#include "kernels/cuda_util.h"
#include "kernels/fault_injection.h"

namespace tclens::profiling {
namespace {

std::string no_gpu_reason(cudaError_t status) {
    switch (status) {
        case cudaErrorNoDevice:
            return "no CUDA-capable GPU is visible (check nvidia-smi and CUDA_VISIBLE_DEVICES)";
        case cudaErrorInsufficientDriver:
            return "no NVIDIA driver found, or it is older than the CUDA runtime";
        default:
            return "CUDA cannot start: " + kernels::cuda_text(status);
    }
}

std::string read_driver_version() {
    std::ifstream file("/proc/driver/nvidia/version");
    if (!file) return "";
    std::stringstream text;
    text << file.rdbuf();
    return parse_nvidia_driver_version(text.str());
}

DeviceFacts query_device(int index) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, index);
    auto attribute = [index](cudaDeviceAttr attr) {
        int value = 0;
        cudaDeviceGetAttribute(&value, attr, index);
        return value;
    };
    DeviceFacts d;
    d.index = index;
    d.name = prop.name;
    char bus_id[32] = {};
    cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index);
    d.pci_bus_id = bus_id;
    d.cc_major = prop.major;
    d.cc_minor = prop.minor;
    d.sm_count = prop.multiProcessorCount;
    d.sm_clock_khz = attribute(cudaDevAttrClockRate);
    d.mem_clock_khz = attribute(cudaDevAttrMemoryClockRate);
    d.mem_bus_width_bits = prop.memoryBusWidth;
    d.global_mem_bytes = prop.totalGlobalMem;
    d.l2_bytes = prop.l2CacheSize;
    d.persisting_l2_max_bytes = prop.persistingL2CacheMaxSize;
    d.smem_per_block = prop.sharedMemPerBlock;
    d.smem_per_block_optin = prop.sharedMemPerBlockOptin;
    d.smem_per_sm = prop.sharedMemPerMultiprocessor;
    d.reserved_smem_per_block = prop.reservedSharedMemPerBlock;
    d.regs_per_block = prop.regsPerBlock;
    d.regs_per_sm = prop.regsPerMultiprocessor;
    d.warp_size = prop.warpSize;
    d.max_threads_per_block = prop.maxThreadsPerBlock;
    d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    d.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
    d.async_engines = prop.asyncEngineCount;
    d.ecc_enabled = prop.ECCEnabled != 0;
    d.cluster_launch = attribute(cudaDevAttrClusterLaunch) != 0;
    return d;
}

}  // namespace

SystemReport query_system() {
    SystemReport report;
    cudaRuntimeGetVersion(&report.runtime_version);
    if (cudaDriverGetVersion(&report.driver_cuda_version) != cudaSuccess) {
        report.driver_cuda_version = 0;
    }
    report.driver_version = read_driver_version();
    if (kernels::injected_fault() == kernels::Fault::kNoGpu) {
        report.no_gpu_reason = kernels::fault_setting(kernels::Fault::kNoGpu) + " hides every GPU";
        return report;
    }
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        report.no_gpu_reason = no_gpu_reason(status == cudaSuccess ? cudaErrorNoDevice : status);
        cudaGetLastError();  // reset the runtime error state for later calls
        return report;
    }
    for (int i = 0; i < count; ++i) report.devices.push_back(query_device(i));
    return report;
}

}  // namespace tclens::profiling
