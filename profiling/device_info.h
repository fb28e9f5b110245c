#pragma once
// What the machine offers a kernel writer: CUDA runtime and driver versions and, per GPU, the
// cudaDeviceProp facts that shape a GEMM (SMs, clocks, shared memory, registers, L2, DRAM), and
// their texts. Plain C++ (tclens_profiling_model): a client reads them from a worker's JSON
// (device_json.h); the worker asks the CUDA runtime for them (device_query.h).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tclens::profiling {

struct DeviceFacts {
    int index = 0;
    std::string name;
    std::string pci_bus_id;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    int sm_clock_khz = 0;   // peak SM clock
    int mem_clock_khz = 0;  // peak memory clock
    int mem_bus_width_bits = 0;
    std::size_t global_mem_bytes = 0;
    int l2_bytes = 0;
    int persisting_l2_max_bytes = 0;
    std::size_t smem_per_block = 0;        // without opt-in
    std::size_t smem_per_block_optin = 0;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
    std::size_t smem_per_sm = 0;
    std::size_t reserved_smem_per_block = 0;
    int regs_per_block = 0;
    int regs_per_sm = 0;
    int warp_size = 0;
    int max_threads_per_block = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int async_engines = 0;
    bool ecc_enabled = false;
    bool cluster_launch = false;
};

struct SystemReport {
    int runtime_version = 0;      // CUDA runtime this binary uses, e.g. 13000
    int driver_cuda_version = 0;  // CUDA version the driver supports; 0 when there is no driver
    std::string driver_version;   // kernel module version, e.g. "580.159.04"; "" if unknown
    std::vector<DeviceFacts> devices;
    std::string no_gpu_reason;  // why `devices` is empty, e.g. "CUDA driver not found"
    bool has_gpu() const { return !devices.empty(); }
};

// 13000 -> "13.0", 12040 -> "12.4"; 0 -> "none".
std::string format_cuda_version(int version);

// Extracts "580.159.04" from the text of /proc/driver/nvidia/version; "" if absent.
std::string parse_nvidia_driver_version(std::string_view proc_text);

// Theoretical DRAM bandwidth in bytes/s: 2 transfers per clock (double data rate) x bus bytes.
// H100 SXM: 2 x 2619 MHz x 5120 bit / 8 = 3.35 TB/s.
double peak_dram_bandwidth(int mem_clock_khz, int bus_width_bits);

// "CUDA runtime 13.0, driver 580.159.04 (supports CUDA 13.0)" or
// "CUDA runtime 13.0, no NVIDIA driver found".
std::string versions_summary(const SystemReport& report);

// One line for a status bar: "NVIDIA H100 80GB HBM3 | sm_90 | 132 SMs | driver 580.159.04 |
// CUDA 13.0 (runtime 13.0)", or "no GPU found: layouts, bank models and recordings only".
std::string system_summary(const SystemReport& report);

// The facts a kernel writer cares about as (label, value) rows, in reading order; shared by
// the Device panel and `tclens device`.
std::vector<std::pair<std::string, std::string>> describe_device(const DeviceFacts& device);

}  // namespace tclens::profiling
