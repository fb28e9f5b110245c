// `tclens bench` on a GPU, end to end: a kernel and its reference verified and timed, the JSON
// fields, and the same-run percentage.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"

namespace tclens {
namespace {

const std::string kTclens = TCLENS_BINARY;

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
    // 8.0+), and none beats its precision's peak.
    bool mma_sync_bf16 = false;
    for (const nlohmann::json& measured : j["instruction_peaks"]) {
        mma_sync_bf16 |= measured["instruction"] == "mma.sync.m16n8k16.f32.bf16.bf16" &&
                         measured["tflops"].get<double>() > 0;
        for (const nlohmann::json& peak : j["peaks"]) {
            if (peak["precision"] == measured["precision"]) {
                EXPECT_LE(measured["tflops"].get<double>(), peak["tflops"].get<double>());
            }
        }
    }
    EXPECT_TRUE(mma_sync_bf16) << j["instruction_peaks"];
    EXPECT_TRUE(j["device"]["gpu_found"]);
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
