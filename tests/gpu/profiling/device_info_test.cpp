// The device query agrees with nvidia-smi, which reads the driver through NVML: a different
// path to the same facts.

#include "profiling/device_info.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"

namespace tclens::profiling {
namespace {

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');) {
        const auto first = field.find_first_not_of(' ');
        fields.push_back(first == std::string::npos ? "" : field.substr(first));
    }
    return fields;
}

// "00000000:19:00.0" and "0000:19:00.0" name the same bus: compare bus:device.function.
std::string bus_tail(std::string id) {
    std::transform(id.begin(), id.end(), id.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return id.size() > 7 ? id.substr(id.size() - 7) : id;
}

TEST(DeviceQuery, MatchesNvidiaSmi) {
    TCLENS_REQUIRE_GPU();
    const SystemReport report = query_system();
    const auto smi = test::run_command(
        "nvidia-smi --query-gpu=name,pci.bus_id,compute_cap,memory.total,clocks.max.sm,"
        "clocks.max.memory,driver_version --format=csv,noheader,nounits");
    ASSERT_EQ(smi.exit_code, 0) << "nvidia-smi failed: " << smi.err;
    // nvidia-smi lists every GPU of the host; CUDA those CUDA_VISIBLE_DEVICES leaves, in its
    // own order: each CUDA device is compared with nvidia-smi's line of the same PCI bus.
    std::map<std::string, std::string> line_of_bus;
    std::stringstream lines(smi.out);
    for (std::string line; std::getline(lines, line);) {
        const auto f = split_csv(line);
        if (f.size() > 1) line_of_bus[bus_tail(f[1])] = line;
    }
    for (const DeviceFacts& d : report.devices) {
        const auto found = line_of_bus.find(bus_tail(d.pci_bus_id));
        ASSERT_NE(found, line_of_bus.end()) << "nvidia-smi lists no GPU at " << d.pci_bus_id;
        const std::string& line = found->second;
        const auto f = split_csv(line);
        ASSERT_EQ(f.size(), 7u) << line;
        SCOPED_TRACE(line);
        EXPECT_EQ(d.name, f[0]);
        EXPECT_EQ(std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor), f[2]);
        // nvidia-smi counts memory the driver reserves; CUDA reports what it can use (<= 2% less).
        const double smi_mib = std::stod(f[3]);
        const double cuda_mib = d.global_mem_bytes / 1048576.0;
        EXPECT_LE(cuda_mib, smi_mib);
        EXPECT_GE(cuda_mib, smi_mib * 0.98);
        EXPECT_NEAR(d.sm_clock_khz / 1000.0, std::stod(f[4]), 1.0);
        EXPECT_NEAR(d.mem_clock_khz / 1000.0, std::stod(f[5]), 1.0);
        EXPECT_EQ(report.driver_version, f[6]);
    }
}

TEST(DeviceQuery, ReportsAPlausibleTensorCoreGpu) {
    TCLENS_REQUIRE_GPU();
    for (const DeviceFacts& d : query_system().devices) {
        EXPECT_GE(d.cc_major, 8) << d.name << ": tclens targets sm_80 and newer";
        EXPECT_GT(d.sm_count, 0);
        EXPECT_EQ(d.warp_size, 32);
        EXPECT_GE(d.smem_per_block_optin, d.smem_per_block);
        EXPECT_GT(d.l2_bytes, 0);
    }
}

}  // namespace
}  // namespace tclens::profiling
