#include "profiling/device_json.h"

#include "profiling/json_reader.h"

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

bool system_report_from_json(const nlohmann::json& in, SystemReport& report, std::string& error) {
    error.clear();
    JsonReader read(error);
    SystemReport out;
    read(in, "runtime_version", out.runtime_version);
    read(in, "driver_cuda_version", out.driver_cuda_version);
    read(in, "driver_version", out.driver_version);
    read(in, "no_gpu_reason", out.no_gpu_reason);
    read.array(in, "devices", [&](const nlohmann::json& j) {
        DeviceFacts d;
        read(j, "index", d.index);
        read(j, "name", d.name);
        read(j, "pci_bus_id", d.pci_bus_id);
        read(j, "cc_major", d.cc_major);
        read(j, "cc_minor", d.cc_minor);
        read(j, "sm_count", d.sm_count);
        read(j, "sm_clock_khz", d.sm_clock_khz);
        read(j, "mem_clock_khz", d.mem_clock_khz);
        read(j, "mem_bus_width_bits", d.mem_bus_width_bits);
        read(j, "global_mem_bytes", d.global_mem_bytes);
        read(j, "l2_bytes", d.l2_bytes);
        read(j, "persisting_l2_max_bytes", d.persisting_l2_max_bytes);
        read(j, "smem_per_block", d.smem_per_block);
        read(j, "smem_per_block_optin", d.smem_per_block_optin);
        read(j, "smem_per_sm", d.smem_per_sm);
        read(j, "reserved_smem_per_block", d.reserved_smem_per_block);
        read(j, "regs_per_block", d.regs_per_block);
        read(j, "regs_per_sm", d.regs_per_sm);
        read(j, "warp_size", d.warp_size);
        read(j, "max_threads_per_block", d.max_threads_per_block);
        read(j, "max_threads_per_sm", d.max_threads_per_sm);
        read(j, "max_blocks_per_sm", d.max_blocks_per_sm);
        read(j, "async_engines", d.async_engines);
        read(j, "ecc_enabled", d.ecc_enabled);
        read(j, "cluster_launch", d.cluster_launch);
        if (!read.ok()) {
            error = "devices[" + std::to_string(out.devices.size()) + "]: " + error;
        }
        out.devices.push_back(d);
    });
    if (!read.ok()) return false;
    report = std::move(out);
    return true;
}

}  // namespace tclens::profiling
