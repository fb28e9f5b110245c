// Tests for app/worker/watch_versions.*: the lines `tclens watch` prints per version (result,
// times, what an edit changed) and its JSON.

#include "app/worker/watch_versions.h"

#include <gtest/gtest.h>

#include "profiling/recorded_mix.h"

namespace tclens::worker {
namespace {

kernels::BenchRow timed_row(const std::string& id, double tflops, double pct = 0) {
    kernels::BenchRow row;
    row.result.kernel_id = id;
    row.result.precision = kernels::Precision::kBF16;
    row.result.problem = {4096, 4096, 4096};
    row.result.check.passed = true;
    row.result.check.rel_rms_error = 3.1e-6;
    row.result.timed_runs = 30;
    row.result.tflops = tflops;
    row.result.median_ms = 0.224;
    row.pct_of_reference = pct;
    return row;
}

WatchVersion good(int number, double tflops, double tensor_pct) {
    WatchVersion v;
    v.number = number;
    v.row = timed_row("yours.matmul", tflops, 82.1);
    v.reference = timed_row("cublas.bf16", 745.8);
    v.profile.emplace();
    v.profile->metrics = {{"sm__pipe_tensor", "Tensor pipe", "%", tensor_pct},
                          {"dram__bytes", "DRAM read", "bytes", 1e9},
                          {"only_in_one", "Other", "", 5}};
    return v;
}

TEST(WatchVersions, AGoodVersionShowsTflopsAndItsShareOfCublas) {
    const std::string text = version_result_text(good(3, 612.3, 80));
    EXPECT_EQ(text,
              "v3  yours.matmul 4096x4096x4096: 612.3 TFLOP/s, 82.1 % of cublas.bf16 (745.8), "
              "0.224 ms, rel. err 3.1e-06");
}

TEST(WatchVersions, AFailedVersionShowsWhy) {
    WatchVersion broken;
    broken.number = 2;
    broken.error = "matmul.cu:12: error: identifier \"x\" is undefined";
    EXPECT_EQ(version_result_text(broken),
              "v2  matmul.cu:12: error: identifier \"x\" is undefined");
    EXPECT_FALSE(broken.good());

    WatchVersion wrong = good(4, 0, 0);
    wrong.row->result.check.passed = false;
    wrong.row->result.check.rel_rms_error = 0.31;
    wrong.row->result.check.bound = 1e-2;
    wrong.row->result.check.reference = "cublas.sgemm";
    wrong.row->result.timed_runs = 0;
    EXPECT_FALSE(wrong.good());
    EXPECT_NE(version_result_text(wrong).find("NOT VERIFIED"), std::string::npos)
        << version_result_text(wrong);
}

TEST(WatchVersions, TimesListOnlyTheStepsThatRan) {
    WatchVersion v;
    EXPECT_EQ(version_times_text(v), "");
    v.compile_s = 1.214;
    v.load_s = 0.05;
    v.verify_s = 0.31;
    v.time_s = 0.12;
    EXPECT_EQ(version_times_text(v),
              "times: compile 1.21 s, load 0.05 s, verify 0.31 s, time 0.12 s");
    v.profile_s = 1.5;
    v.save_to_result_s = 1.724;
    EXPECT_EQ(version_times_text(v),
              "times: compile 1.21 s, load 0.05 s, verify 0.31 s, time 0.12 s, profile 1.50 s; "
              "saved -> TFLOP/s 1.72 s");
}

TEST(WatchVersions, TheChangeListsTflopsThenTheMetricsThatMovedMost) {
    const WatchVersion before = good(1, 581.4, 78.0);
    WatchVersion after = good(3, 612.3, 82.0);
    after.profile->metrics[1].value = 1.01e9;  // +1 %: under the threshold
    const std::string text = version_change_text(before, after);
    EXPECT_EQ(text.rfind("vs v1: TFLOP/s 581.4 -> 612.3 (+5.3 %); Tensor pipe ", 0), 0u) << text;
    EXPECT_NE(text.find("(+5.1 %)"), std::string::npos) << text;
    EXPECT_EQ(text.find("DRAM read"), std::string::npos) << text;
    after.profile->metrics[1].value = 2e9;  // +100 %: the largest change comes first
    const std::string larger = version_change_text(before, after);
    EXPECT_LT(larger.find("DRAM read"), larger.find("Tensor pipe")) << larger;
    EXPECT_NE(version_change_text(before, after, 2.0, 1).find("DRAM read"), std::string::npos);
    EXPECT_EQ(version_change_text(before, after, 2.0, 1).find("Tensor pipe"), std::string::npos);
}

TEST(WatchVersions, NoComparisonUnlessBothVerified) {
    WatchVersion broken;
    broken.number = 2;
    broken.error = "compile error";
    EXPECT_EQ(version_change_text(good(1, 500, 70), broken),
              "vs v1: no comparison (not both verified)");
}

TEST(WatchVersions, JsonCarriesTimesResultAndProfile) {
    WatchVersion v = good(5, 600, 80);
    v.compile_s = 2;
    const nlohmann::json json = to_json(v);
    EXPECT_EQ(json["version"], 5);
    EXPECT_EQ(json["ok"], true);
    EXPECT_DOUBLE_EQ(json["times"]["compile_s"].get<double>(), 2);
    EXPECT_TRUE(json["times"]["save_to_result_s"].is_null());
    EXPECT_EQ(json["result"]["kernel"], "yours.matmul");
    EXPECT_EQ(json["reference"]["kernel"], "cublas.bf16");
    EXPECT_EQ(json["profile"]["metrics"].size(), 3u);
    EXPECT_TRUE(json["instruction_mix"].is_null());
}

// The SASS mix the worker's load read from the version's cubin, as a recording keeps it
// (profiling/recorded_mix.h), else why there is none.
TEST(WatchVersions, JsonCarriesTheInstructionMixOfTheCubin) {
    WatchVersion v = good(2, 600, 80);
    v.mix.emplace();
    v.mix->kernel_id = "yours.matmul";
    v.mix->sm = 90;
    v.mix->mix.arch = "sm_90a";
    v.mix->mix.functions = 1;
    v.mix->mix.counts[static_cast<std::size_t>(kernels::OpClass::kHmma)] = 16;
    nlohmann::json json = to_json(v);
    EXPECT_EQ(json["instruction_mix"], profiling::to_json(*v.mix));
    profiling::RecordedInstructionMix back;
    std::string error;
    ASSERT_TRUE(profiling::recorded_mix_from_json(json["instruction_mix"], back, error)) << error;
    EXPECT_EQ(back.mix[kernels::OpClass::kHmma], 16);
    EXPECT_EQ(json["instruction_mix_missing"], "");

    v.mix.reset();
    v.mix_missing = "compiled only: the mix is read when it is loaded";
    json = to_json(v);
    EXPECT_TRUE(json["instruction_mix"].is_null());
    EXPECT_EQ(json["instruction_mix_missing"], v.mix_missing);
}

}  // namespace
}  // namespace tclens::worker
