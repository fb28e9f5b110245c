// Tests for profiling/profile_json.*: profiles and timelines survive a round trip through JSON
// (recordings open without a GPU), the keys tools read are there, and broken documents are
// refused with the key that is wrong.

#include "profiling/profile_json.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

KernelProfile sample_profile() {
    KernelProfile p;
    p.kernel_id = "mma_cp_async.bf16";
    p.precision = kernels::Precision::kBF16;
    p.problem = {2048, 1024, 512};
    p.device = "NVIDIA H100 80GB HBM3";
    p.chip = "GH100";
    p.check.passed = true;
    p.check.rel_rms_error = 1.5e-6;
    p.check.bound = 1e-2;
    p.check.reference = "cublas.sgemm";
    p.passes = 2;
    p.l2_flushed = true;
    p.per_kernel_range = true;
    p.prepare_ms = 812.5;
    p.profile_ms = 41.25;
    p.metrics = {{"gpu__time_duration.sum", "duration", "ns", 123456.0},
                 {"lts__t_sector_hit_rate.pct", "L2 hit rate", "%", 87.5}};
    p.unavailable = {
        {"sm__inst_executed_pipe_tensor_op_gmma.sum", "metric ... is not available on GA100"}};
    KernelLaunch launch;
    launch.name = "void mma_cp_async_gemm<__nv_bfloat16>(...)";
    launch.grid[0] = 8;
    launch.grid[1] = 16;
    launch.grid[2] = 1;
    launch.block[0] = 256;
    launch.block[1] = 1;
    launch.block[2] = 1;
    launch.registers_per_thread = 168;
    launch.static_shared_bytes = 0;
    launch.dynamic_shared_bytes = 196608;
    launch.local_bytes_per_thread = 0;
    launch.shared_carveout_bytes = 233472;
    launch.duration_ns = 250000;
    p.launches = {launch};
    p.occupancy.blocks_per_sm = 1;
    p.occupancy.limiter = "registers";
    p.occupancy.limit_registers = 1;
    p.occupancy.limit_shared_mem = 1;
    p.occupancy.limit_warps = 8;
    p.occupancy.limit_blocks = 32;
    p.occupancy.theoretical_pct = 12.5;
    return p;
}

TEST(ProfileJson, ProfileHasTheDocumentedKeys) {
    const nlohmann::json j = to_json(sample_profile());
    for (const char* key : {"kernel",
                            "precision",
                            "m",
                            "n",
                            "k",
                            "device",
                            "chip",
                            "verified",
                            "rel_rms_error",
                            "error_bound",
                            "reference",
                            "error",
                            "passes",
                            "l2_flushed",
                            "prepare_ms",
                            "profile_ms",
                            "metrics",
                            "unavailable",
                            "launches",
                            "occupancy",
                            "launch_error",
                            "per_kernel_range"}) {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["precision"], "bf16");
    EXPECT_EQ(j["error"], "");
    ASSERT_EQ(j["metrics"].size(), 2u);
    EXPECT_EQ(j["metrics"][0]["name"], "gpu__time_duration.sum");
    EXPECT_EQ(j["metrics"][0]["unit"], "ns");
    EXPECT_EQ(j["metrics"][0]["value"], 123456.0);
    EXPECT_EQ(j["launches"][0]["grid"], nlohmann::json::array({8, 16, 1}));
    EXPECT_EQ(j["occupancy"]["limiter"], "registers");
    KernelProfile no_launch = sample_profile();
    no_launch.launches.clear();
    EXPECT_TRUE(to_json(no_launch)["occupancy"].is_null());
}

TEST(ProfileJson, ProfileRoundTrip) {
    const KernelProfile original = sample_profile();
    KernelProfile back;
    std::string error;
    ASSERT_TRUE(kernel_profile_from_json(to_json(original), back, error)) << error;
    EXPECT_EQ(to_json(back), to_json(original));
    EXPECT_EQ(back.problem.m, 2048);
    EXPECT_EQ(back.precision, kernels::Precision::kBF16);
    ASSERT_NE(back.find("lts__t_sector_hit_rate.pct"), nullptr);
    EXPECT_EQ(back.find("lts__t_sector_hit_rate.pct")->value, 87.5);
    EXPECT_EQ(back.find("nothing"), nullptr);
    EXPECT_EQ(back.launches[0].dynamic_shared_bytes, 196608);
    EXPECT_EQ(back.occupancy.theoretical_pct, 12.5);

    KernelProfile failed = sample_profile();
    failed.error = profiler_error(ProfilerProblem::kBusy, "busy");
    ASSERT_TRUE(kernel_profile_from_json(to_json(failed), back, error)) << error;
    EXPECT_FALSE(back.ok());
    EXPECT_EQ(back.error.message, "busy");
}

TEST(ProfileJson, ProfileWithoutPerKernelRangeWasAUserRange) {
    nlohmann::json j = to_json(sample_profile());
    KernelProfile back;
    std::string error;
    ASSERT_TRUE(kernel_profile_from_json(j, back, error)) << error;
    EXPECT_TRUE(back.per_kernel_range);
    j.erase("per_kernel_range");  // written before the key existed
    ASSERT_TRUE(kernel_profile_from_json(j, back, error)) << error;
    EXPECT_FALSE(back.per_kernel_range);
}

TEST(ProfileJson, BrokenProfilesNameTheKey) {
    KernelProfile out;
    std::string error;
    nlohmann::json j = to_json(sample_profile());
    j.erase("passes");
    EXPECT_FALSE(kernel_profile_from_json(j, out, error));
    EXPECT_EQ(error, "missing key 'passes'");
    j = to_json(sample_profile());
    j["metrics"][1]["value"] = "high";
    EXPECT_FALSE(kernel_profile_from_json(j, out, error));
    EXPECT_EQ(error, "key 'value' has the wrong type");
    j = to_json(sample_profile());
    j["precision"] = "f8";
    EXPECT_FALSE(kernel_profile_from_json(j, out, error));
    EXPECT_EQ(error, "unknown precision 'f8'");
    j = to_json(sample_profile());
    j["launches"][0]["grid"] = nlohmann::json::array({1, 2});
    EXPECT_FALSE(kernel_profile_from_json(j, out, error));
    EXPECT_EQ(error, "'grid' needs 3 numbers");
    EXPECT_FALSE(kernel_profile_from_json(nlohmann::json::array(), out, error));
    EXPECT_EQ(out.kernel_id, "");  // untouched on failure
}

KernelTimeline sample_timeline() {
    KernelTimeline t;
    t.kernel_id = "register_tiled.f32";
    t.precision = kernels::Precision::kF32;
    t.problem = {4096, 4096, 4096};
    t.device = "NVIDIA H100 80GB HBM3";
    t.chip = "GH100";
    t.check.passed = true;
    t.check.reference = "cublas.sgemm";
    t.metrics = metric_set("timeline");
    t.trigger = PmTrigger::kSysClock;
    t.interval_ns = 1'000'000;
    t.measured_interval_ns = 1'001'000;
    t.lost = 1;
    t.dropped = 2;
    t.launches = 40;
    t.kernel_ms_alone = 10.0;
    t.kernel_ms_sampled = 10.1;
    t.prepare_ms = 900;
    t.run_ms = 501;
    for (std::uint64_t i = 0; i < 3; ++i) {
        PmSample s;
        s.sequence = i;
        s.start_ns = 5'000'000 + i * 1'000'000;
        s.end_ns = s.start_ns + 1'000'000;
        s.values = {0.5, 12.0 + i, 70.25};
        t.samples.push_back(s);
    }
    return t;
}

TEST(ProfileJson, TimelineHasRelativeTimesAndLabels) {
    const nlohmann::json j = to_json(sample_timeline());
    EXPECT_EQ(j["trigger"], "sysclk");
    ASSERT_EQ(j["samples"].size(), 3u);
    EXPECT_EQ(j["samples"][0]["t_ns"], 0u);
    EXPECT_EQ(j["samples"][2]["t_ns"], 2'000'000u);
    EXPECT_EQ(j["samples"][1]["values"][1], 13.0);
    ASSERT_EQ(j["metric_info"].size(), 3u);
    EXPECT_EQ(j["metric_info"][0]["unit"], "%");
    EXPECT_NEAR(j["overhead_pct"].get<double>(), 1.0, 1e-9);
}

TEST(ProfileJson, TimelineRoundTripAndBrokenSamples) {
    KernelTimeline back;
    std::string error;
    ASSERT_TRUE(kernel_timeline_from_json(to_json(sample_timeline()), back, error)) << error;
    EXPECT_EQ(to_json(back), to_json(sample_timeline()));
    EXPECT_EQ(back.samples[2].sequence, 2u);
    nlohmann::json j = to_json(sample_timeline());
    j["samples"][1]["values"] = nlohmann::json::array({1.0});
    EXPECT_FALSE(kernel_timeline_from_json(j, back, error));
    EXPECT_EQ(error, "a sample has 1 values for 3 metrics");
    j = to_json(sample_timeline());
    j["trigger"] = "vsync";
    EXPECT_FALSE(kernel_timeline_from_json(j, back, error));
    EXPECT_EQ(error, "unknown trigger 'vsync'");
}

TEST(ProfileJson, CatalogueEntry) {
    const nlohmann::json j = to_json(*find_metric("dram__bytes_read.sum"));
    EXPECT_EQ(j["label"], "DRAM read");
    EXPECT_EQ(j["unit"], "bytes");
    EXPECT_EQ(j["source"], "range_profiler");
    EXPECT_EQ(j["default"], true);
    EXPECT_EQ(j["timeline"], false);
    EXPECT_EQ(to_json(*find_metric("launch__block_size"))["source"], "launch");
}

TEST(KernelTimeline, OverheadNeedsBothTimes) {
    KernelTimeline t;
    EXPECT_EQ(t.overhead_pct(), 0);
    t.kernel_ms_alone = 2;
    EXPECT_EQ(t.overhead_pct(), 0);
    t.kernel_ms_sampled = 2.02;
    EXPECT_NEAR(t.overhead_pct(), 1.0, 1e-9);
}

}  // namespace
}  // namespace tclens::profiling
