#include "profiling/device_info.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

TEST(DeviceInfo, FormatsCudaVersions) {
    EXPECT_EQ(format_cuda_version(13000), "13.0");
    EXPECT_EQ(format_cuda_version(12040), "12.4");
    EXPECT_EQ(format_cuda_version(0), "none");
}

TEST(DeviceInfo, ParsesDriverVersionFromProcText) {
    const char* text =
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Tue Oct  7 2025\n"
        "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
    EXPECT_EQ(parse_nvidia_driver_version(text), "580.159.04");
    const char* open_module =
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build\n";
    EXPECT_EQ(parse_nvidia_driver_version(open_module), "570.86.15");
    EXPECT_EQ(parse_nvidia_driver_version("no driver here"), "");
}

TEST(DeviceInfo, PeakDramBandwidthOfH100Sxm) {
    // HBM3: 2619 MHz, 5120-bit bus, double data rate -> 3.352 TB/s.
    EXPECT_NEAR(peak_dram_bandwidth(2619000, 5120), 3.352e12, 1e9);
}

TEST(DeviceInfo, SummariesWithoutGpu) {
    SystemReport report;
    report.runtime_version = 13000;
    report.no_gpu_reason = "no NVIDIA driver found";
    EXPECT_FALSE(report.has_gpu());
    EXPECT_EQ(system_summary(report), "no GPU found: layouts, bank models and recordings only");
    EXPECT_EQ(versions_summary(report), "CUDA runtime 13.0, no NVIDIA driver found");
}

TEST(DeviceInfo, SummariesWithGpu) {
    SystemReport report;
    report.runtime_version = 13000;
    report.driver_cuda_version = 13000;
    report.driver_version = "580.159.04";
    DeviceFacts h100;
    h100.name = "NVIDIA H100 80GB HBM3";
    h100.cc_major = 9;
    h100.sm_count = 132;
    report.devices.push_back(h100);
    EXPECT_EQ(system_summary(report),
              "NVIDIA H100 80GB HBM3 | sm_90 | 132 SMs | driver 580.159.04 | CUDA 13.0 "
              "(runtime 13.0)");
    EXPECT_EQ(versions_summary(report),
              "CUDA runtime 13.0, driver 580.159.04 (supports CUDA 13.0)");
}

TEST(DeviceInfo, DescribesTheFactsAKernelWriterNeeds) {
    DeviceFacts d;
    d.cc_major = 9;
    d.sm_count = 132;
    d.mem_clock_khz = 2619000;
    d.mem_bus_width_bits = 5120;
    d.l2_bytes = 50 * 1024 * 1024;
    d.smem_per_block_optin = 227 * 1024;
    std::map<std::string, std::string> rows;
    for (const auto& [label, value] : describe_device(d)) rows[label] = value;
    EXPECT_EQ(rows.at("SMs"), "132");
    EXPECT_EQ(rows.at("Compute capability"), "9.0 (sm_90)");
    EXPECT_EQ(rows.at("DRAM bandwidth (theoretical)"), "3352 GB/s");
    EXPECT_EQ(rows.at("L2 cache"), "50 MiB");
    EXPECT_EQ(rows.at("Shared memory / block (opt-in)"), "227 KiB");
    for (const char* label : {"SM clock (peak)", "Registers / SM", "Shared memory / SM",
                              "Blocks / SM (max)", "Global memory"}) {
        EXPECT_TRUE(rows.count(label)) << label;
    }
}

}  // namespace
}  // namespace tclens::profiling
