#include "profiling/device_json.h"

namespace tclens::profiling {

nlohmann::json to_json(const SystemReport& report) {
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceFacts& d : report.devices) {
        devices.push_back({
            {"index", d.index},
            {"name", d.name},
            {"pci_bus_id", d.pci_bus_id},
            {"cc_major", d.cc_major},
            {"cc_minor", d.cc_minor},
            {"sm_count", d.sm_count},
            {"sm_clock_khz", d.sm_clock_khz},
            {"mem_clock_khz", d.mem_clock_khz},
            {"mem_bus_width_bits", d.mem_bus_width_bits},
            {"peak_dram_bandwidth_bytes_per_s",
             peak_dram_bandwidth(d.mem_clock_khz, d.mem_bus_width_bits)},
            {"global_mem_bytes", d.global_mem_bytes},
            {"l2_bytes", d.l2_bytes},
            {"persisting_l2_max_bytes", d.persisting_l2_max_bytes},
            {"smem_per_block", d.smem_per_block},
            {"smem_per_block_optin", d.smem_per_block_optin},
            {"smem_per_sm", d.smem_per_sm},
            {"reserved_smem_per_block", d.reserved_smem_per_block},
            {"regs_per_block", d.regs_per_block},
            {"regs_per_sm", d.regs_per_sm},
            {"warp_size", d.warp_size},
            {"max_threads_per_block", d.max_threads_per_block},
            {"max_threads_per_sm", d.max_threads_per_sm},
            {"max_blocks_per_sm", d.max_blocks_per_sm},
            {"async_engines", d.async_engines},
            {"ecc_enabled", d.ecc_enabled},
            {"cluster_launch", d.cluster_launch},
        });
    }
    return {
        {"gpu_found", report.has_gpu()},
        {"runtime_version", report.runtime_version},
        {"driver_cuda_version", report.driver_cuda_version},
        {"driver_version", report.driver_version},
        {"no_gpu_reason", report.no_gpu_reason},
        {"devices", devices},
    };
}

}  // namespace tclens::profiling
