#include "profiling/device_info.h"

#include <cstdio>
#include <regex>

namespace tclens::profiling {
namespace {

std::string bytes_text(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024.0 && unit < 4) {
        bytes /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.4g %s", bytes, units[unit]);
    return text;
}

std::string mhz_text(int khz) { return std::to_string(khz / 1000) + " MHz"; }

}  // namespace

std::string format_cuda_version(int version) {
    if (version <= 0) return "none";
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string parse_nvidia_driver_version(std::string_view proc_text) {
    static const std::regex pattern(R"(Kernel Module(?:\s+for\s+\S+)?\s+(\d+\.\d+(?:\.\d+)?))");
    std::match_results<std::string_view::const_iterator> match;
    if (std::regex_search(proc_text.begin(), proc_text.end(), match, pattern)) {
        return match[1].str();
    }
    return "";
}

double peak_dram_bandwidth(int mem_clock_khz, int bus_width_bits) {
    return 2.0 * mem_clock_khz * 1000.0 * (bus_width_bits / 8.0);
}

std::string versions_summary(const SystemReport& report) {
    std::string line = "CUDA runtime " + format_cuda_version(report.runtime_version);
    if (report.driver_cuda_version == 0 && report.driver_version.empty()) {
        return line + ", no NVIDIA driver found";
    }
    return line + ", driver " + (report.driver_version.empty() ? "?" : report.driver_version) +
           " (supports CUDA " + format_cuda_version(report.driver_cuda_version) + ")";
}

std::string system_summary(const SystemReport& report) {
    if (!report.has_gpu()) return "no GPU found: layouts, bank models and recordings only";
    const DeviceFacts& d = report.devices.front();
    std::string line = d.name + " | sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) +
                       " | " + std::to_string(d.sm_count) + " SMs | driver " +
                       (report.driver_version.empty() ? "?" : report.driver_version) + " | CUDA " +
                       format_cuda_version(report.driver_cuda_version) + " (runtime " +
                       format_cuda_version(report.runtime_version) + ")";
    if (report.devices.size() > 1) {
        line += " | +" + std::to_string(report.devices.size() - 1) + " more GPU(s)";
    }
    return line;
}

std::vector<std::pair<std::string, std::string>> describe_device(const DeviceFacts& d) {
    char bandwidth[32];
    std::snprintf(bandwidth, sizeof bandwidth, "%.0f GB/s",
                  peak_dram_bandwidth(d.mem_clock_khz, d.mem_bus_width_bits) / 1e9);
    return {
        {"Name", d.name},
        {"PCI bus", d.pci_bus_id},
        {"Compute capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) +
                                   " (sm_" + std::to_string(d.cc_major) +
                                   std::to_string(d.cc_minor) + ")"},
        {"SMs", std::to_string(d.sm_count)},
        {"SM clock (peak)", mhz_text(d.sm_clock_khz)},
        {"Memory clock (peak)", mhz_text(d.mem_clock_khz)},
        {"Memory bus", std::to_string(d.mem_bus_width_bits) + " bit"},
        {"DRAM bandwidth (theoretical)", bandwidth},
        {"Global memory", bytes_text(static_cast<double>(d.global_mem_bytes))},
        {"L2 cache", bytes_text(d.l2_bytes)},
        {"L2 persisting max", bytes_text(d.persisting_l2_max_bytes)},
        {"Shared memory / block", bytes_text(static_cast<double>(d.smem_per_block))},
        {"Shared memory / block (opt-in)", bytes_text(static_cast<double>(d.smem_per_block_optin))},
        {"Shared memory / SM", bytes_text(static_cast<double>(d.smem_per_sm))},
        {"Shared memory reserved / block",
         bytes_text(static_cast<double>(d.reserved_smem_per_block))},
        {"Registers / block", std::to_string(d.regs_per_block)},
        {"Registers / SM", std::to_string(d.regs_per_sm)},
        {"Warp size", std::to_string(d.warp_size)},
        {"Threads / block (max)", std::to_string(d.max_threads_per_block)},
        {"Threads / SM (max)", std::to_string(d.max_threads_per_sm)},
        {"Blocks / SM (max)", std::to_string(d.max_blocks_per_sm)},
        {"Copy engines", std::to_string(d.async_engines)},
        {"ECC", d.ecc_enabled ? "on" : "off"},
        {"Thread-block clusters", d.cluster_launch ? "yes" : "no"},
    };
}

}  // namespace tclens::profiling
