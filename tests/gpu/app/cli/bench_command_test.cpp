// `tclens bench` on a GPU, end to end: a kernel and its reference verified and timed, the JSON
// fields, the same-run percentage, and measured peaks under the whitepaper's bound.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/peak_bound.h"
#include "profiling/bench_json.h"
#include "profiling/device_json.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

TEST(BenchCommandOnGpu, JsonHasVerifiedRowsAndTheSameRunReference) {
    TCLENS_REQUIRE_GPU();
    const auto result = test::run_command(
        kTclens + " bench --kernels smem_tiled.f32 --mnk 512x512x512 --runs 20 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    ASSERT_EQ(j["results"].size(), 2u);
    const nlohmann::json& kernel = j["results"][0];
    const nlohmann::json& cublas = j["results"][1];
    EXPECT_EQ(kernel["kernel"], "smem_tiled.f32");
    EXPECT_EQ(cublas["kernel"], "cublas.sgemm");
    EXPECT_TRUE(kernel["verified"]);
    EXPECT_EQ(kernel["reference"], "cpu.fp64");
    EXPECT_EQ(kernel["timed_runs"], 20);
    const double pct = kernel["pct_of_cublas"].get<double>();
    EXPECT_NEAR(pct, 100.0 * kernel["tflops"].get<double>() / cublas["tflops"].get<double>(), 1e-6);
    EXPECT_EQ(cublas["pct_of_cublas"], 100.0);
    ASSERT_FALSE(j["peaks"].empty()) << j["peak_error"];
    EXPECT_GT(kernel["pct_of_peak"].get<double>(), 0);
    // Every instruction's own ceiling is there too, mma.sync's among them (compute capability
    // 8.0+).
    std::vector<kernels::PeakMeasurement> measured;
    for (const nlohmann::json& each : j["instruction_peaks"]) {
        kernels::PeakMeasurement peak;
        std::string error;
        ASSERT_TRUE(profiling::peak_from_json(each, peak, error)) << error << ": " << each;
        measured.push_back(peak);
    }
    EXPECT_TRUE(std::any_of(measured.begin(), measured.end(), [](const auto& peak) {
        return peak.instruction == "mma.sync.m16n8k16.f32.bf16.bf16" && peak.tflops > 0;
    })) << j["instruction_peaks"];
    EXPECT_TRUE(j["device"]["gpu_found"]);

    // None beats what the SMs can do at all: the whitepaper's dense rate x SMs x the peak SM
    // clock (kernels/peak_bound.h), from the device facts alone, 2 % tolerance.
    profiling::SystemReport system;
    std::string error;
    ASSERT_TRUE(profiling::system_report_from_json(j["device"], system, error)) << error;
    ASSERT_FALSE(system.devices.empty());
    const profiling::DeviceFacts& gpu = system.devices.front();
    const kernels::BoundDevice device{gpu.cc_major, gpu.cc_minor, gpu.sm_count, gpu.sm_clock_khz};
    if (kernels::dense_flops_per_sm_clock(gpu.cc_major, gpu.cc_minor, kernels::Precision::kF32) ==
        0) {
        GTEST_SKIP() << "skipped: no whitepaper rate for compute capability " << gpu.cc_major << "."
                     << gpu.cc_minor << " in kernels/peak_bound.h";
    }
    for (const kernels::PeakMeasurement& peak : measured) {
        const double bound = kernels::peak_bound_tflops(gpu.cc_major, gpu.cc_minor, peak.precision,
                                                        gpu.sm_count, gpu.sm_clock_khz);
        std::printf("%-34s %7.1f TFLOP/s measured, bound %7.1f (%.0f %%)\n",
                    peak.instruction.c_str(), peak.tflops, bound, 100.0 * peak.tflops / bound);
        EXPECT_NE(bound, peak.tflops) << "the bound must not be a measured number";
    }
    EXPECT_EQ(kernels::peaks_above_bound(measured, device, 0.02), "");

    // On Hopper the FP8 roof is measured too (wgmma k32 e4m3), and it is well above the 16-bit
    // one: twice the FLOP per issue, so even a power-capped board keeps more than 1.3x of it.
    if (gpu.cc_major == 9 && gpu.cc_minor == 0) {
        double e4m3 = 0, bf16 = 0;
        for (const kernels::PeakMeasurement& peak : measured) {
            if (peak.instruction == "wgmma.m64n256k32.f32.e4m3.e4m3") e4m3 = peak.tflops;
            if (peak.instruction == "wgmma.m64n256k16.f32.bf16.bf16") bf16 = peak.tflops;
        }
        EXPECT_GT(bf16, 0) << j["instruction_peaks"];
        EXPECT_GT(e4m3, 1.3 * bf16) << j["instruction_peaks"];
    }
}

// No row anywhere counts above the measured peak of its precision (kernels/bench.h, above_peak):
// every rung (the default) and reference at 4096^3 counts, at most 100 % of its peak, and none is
// refused.
TEST(BenchCommandOnGpu, NoRowIsAboveTheMeasuredPeakOfItsPrecision) {
    TCLENS_REQUIRE_GPU();
    const auto result = test::run_command(kTclens + " bench --mnk 4096x4096x4096 --runs 20 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    ASSERT_FALSE(j["peaks"].empty()) << j["peak_error"];
    int counted = 0;
    for (const nlohmann::json& row : j["results"]) {
        EXPECT_TRUE(row["refused"].is_null()) << row["kernel"] << ": " << row["refused"];
        if (row["tflops"].is_null()) continue;
        ++counted;
        EXPECT_GT(row["pct_of_peak"].get<double>(), 0) << row["kernel"];
        EXPECT_LE(row["pct_of_peak"].get<double>(), 100.0) << row["kernel"];
    }
    EXPECT_GE(counted, 20) << result.out;
}

TEST(BenchCommandOnGpu, TableAndProgress) {
    TCLENS_REQUIRE_GPU();
    const auto result =
        test::run_command(kTclens + " bench --kernels naive_fma.f32 --mnk 256x256x256 --runs 20");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("naive_fma.f32"), std::string::npos);
    EXPECT_NE(result.out.find("%cuBLAS"), std::string::npos);
    EXPECT_NE(result.err.find("bench [1/2] naive_fma.f32 256x256x256"), std::string::npos)
        << result.err;
}

}  // namespace
}  // namespace tclens
