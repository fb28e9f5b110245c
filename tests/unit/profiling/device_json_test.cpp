#include "profiling/device_json.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

TEST(DeviceJson, NoGpuReportSaysWhy) {
    SystemReport report;
    report.runtime_version = 13000;
    report.no_gpu_reason = "no NVIDIA driver found";
    const nlohmann::json json = to_json(report);
    EXPECT_EQ(json.at("gpu_found"), false);
    EXPECT_EQ(json.at("runtime_version"), 13000);
    EXPECT_EQ(json.at("no_gpu_reason"), "no NVIDIA driver found");
    EXPECT_TRUE(json.at("devices").empty());
}

TEST(DeviceJson, DeviceCarriesFieldsAndDerivedBandwidth) {
    SystemReport report;
    DeviceFacts d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.sm_count = 132;
    d.mem_clock_khz = 2619000;
    d.mem_bus_width_bits = 5120;
    d.smem_per_block_optin = 232448;
    report.devices.push_back(d);
    const nlohmann::json device = to_json(report).at("devices").at(0);
    EXPECT_EQ(device.at("name"), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(device.at("sm_count"), 132);
    EXPECT_EQ(device.at("smem_per_block_optin"), 232448);
    EXPECT_NEAR(device.at("peak_dram_bandwidth_bytes_per_s").get<double>(), 3.352e12, 1e9);
}

}  // namespace
}  // namespace tclens::profiling
