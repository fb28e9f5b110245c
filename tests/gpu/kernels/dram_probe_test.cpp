// GPU test of kernels/dram_probe.*: the measured copy bandwidth is a believable share of the
// device's theoretical DRAM bandwidth (2 x memory clock x bus width): above 30 % (a copy that
// missed DRAM or ran one block would fall far below), never above 100 % (buffers small enough
// to hit in L2 would exceed it), and the buffers are far larger than L2.
//
// With TCLENS_RESULTS_DIR set, the measurement goes to $TCLENS_RESULTS_DIR/dram_probe.md.

#include "kernels/dram_probe.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "tests/gpu/gpu_test_support.h"

namespace tclens::kernels {
namespace {

TEST(DramProbe, BandwidthIsBetween30And100PercentOfTheTheoreticalPeak) {
    TCLENS_REQUIRE_GPU();
    const profiling::DeviceFacts device = profiling::query_system().devices.at(0);
    const double peak =
        profiling::peak_dram_bandwidth(device.mem_clock_khz, device.mem_bus_width_bits);
    ASSERT_GT(peak, 0);

    DramMeasurement measured;
    const std::string error = measure_dram_bandwidth(measured);
    ASSERT_EQ(error, "");
    const double pct = 100.0 * measured.bytes_per_s / peak;
    EXPECT_GT(pct, 30.0) << measured.bytes_per_s << " B/s of " << peak;
    EXPECT_LE(pct, 100.0) << measured.bytes_per_s << " B/s of " << peak;
    EXPECT_GE(measured.buffer_bytes, 4u * std::size_t(device.l2_bytes));
    EXPECT_GT(measured.median_ms, 0);
    EXPECT_NE(measured.method.find("median of 11"), std::string::npos) << measured.method;

    if (const char* folder = std::getenv("TCLENS_RESULTS_DIR"); folder != nullptr && *folder) {
        std::ofstream(std::string(folder) + "/dram_probe.md", std::ios::app)
            << "| " << device.name << " | " << measured.bytes_per_s / 1e12 << " TB/s | "
            << peak / 1e12 << " TB/s | " << pct << " % | " << measured.method << " |\n";
    }
}

}  // namespace
}  // namespace tclens::kernels
