// Tests for app/gui/views/user_kernel_runs.*: versions of kernels of yours as bench rows and
// profiles named yours.x.vN, and through them rows in Compare (the live source), in a saved
// recording that opens with those rows, and the Profile panel's snapshot. No GPU: the versions
// are built from structs as the worker's results would fill them.

#include "app/gui/views/user_kernel_runs.h"

#include <gtest/gtest.h>

#include "app/gui/views/compare_runs.h"
#include "app/gui/views/recording_view.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"

namespace tclens::gui {
namespace {

worker::WatchVersion version(int number, double tflops, bool with_profile) {
    worker::WatchVersion v;
    v.number = number;
    v.row = test::sample_bench_row("yours.matmul_3", 0, kernels::Precision::kBF16, "cublas.bf16",
                                   tflops);
    v.reference =
        test::sample_bench_row("cublas.bf16", 0, kernels::Precision::kBF16, "", 740.0 + number);
    if (with_profile) {
        profiling::KernelProfile profile;
        profile.kernel_id = "yours.matmul_3";
        profile.precision = kernels::Precision::kBF16;
        profile.problem = {4096, 4096, 4096};
        profile.device = "tclens test GPU";
        profile.check.passed = true;
        profile.metrics.push_back({"gpu__time_duration.sum", "duration", "ns", 1e6 * number});
        v.profile = profile;
        // The sample recording's made-up timeline and mix, as the worker would have sent them.
        const profiling::Recording sample = test::sample_recording();
        v.timeline = sample.timelines.front();
        v.timeline->kernel_id = "yours.matmul_3";
        v.mix = sample.instruction_mixes.front();
        v.mix->kernel_id = "yours.matmul_3";
        v.mix->mix.counts[std::size_t(kernels::OpClass::kHmma)] = 10 * number;
    }
    return v;
}

// yours.matmul_3 with v1 (400 TFLOP/s, profiled), v2 (a compile error), v3 (500, profiled).
UserKernels two_good_versions() {
    UserKernel kernel;
    kernel.ref = "/tmp/matmul_3.cu";
    kernel.id = "yours.matmul_3";
    kernel.versions.push_back(version(1, 400.0, true));
    worker::WatchVersion broken;
    broken.number = 2;
    broken.error = "matmul_3.cu:12: error: expected ';'";
    kernel.versions.push_back(broken);
    kernel.versions.push_back(version(3, 500.0, true));
    kernel.last_good = 2;
    UserKernels kernels;
    kernels.kernels.push_back(kernel);
    return kernels;
}

TEST(UserKernelRuns, EveryBuiltVersionIsARowNamedByItsNumberBesideItsCublas) {
    EXPECT_EQ(user_version_id("yours.matmul_3", 7), "yours.matmul_3.v7");
    const UserKernelResults results = user_kernel_results(two_good_versions());
    // v1, its cuBLAS (once: v3's reference at the same size is the same run id), v3.
    ASSERT_EQ(results.rows.size(), 3u);
    EXPECT_EQ(results.rows[0].result.kernel_id, "yours.matmul_3.v1");
    EXPECT_EQ(results.rows[1].result.kernel_id, "cublas.bf16");
    EXPECT_DOUBLE_EQ(results.rows[1].result.tflops, 741.0);
    EXPECT_EQ(results.rows[2].result.kernel_id, "yours.matmul_3.v3");
    EXPECT_DOUBLE_EQ(results.rows[2].result.tflops, 500.0);
    ASSERT_EQ(results.profiles.size(), 2u);
    EXPECT_EQ(results.profiles[1].kernel_id, "yours.matmul_3.v3");
    EXPECT_EQ(user_profiled_versions(two_good_versions()),
              (std::vector<std::string>{"yours.matmul_3.v1", "yours.matmul_3.v3"}));
}

TEST(UserKernelRuns, CompareListsEachVersionNextToTheRungsOfTheSameSession) {
    const UserKernels yours = two_good_versions();
    BenchResults bench;
    bench.device = "tclens test GPU";
    bench.report.rows = test::sample_recording().bench;  // wmma.f16, ..., cublas.f16 at 4096^3
    const CompareSource source = live_compare_source(&bench, nullptr, nullptr, &yours);
    const CompareRun* v1 = find_compare_run(source, "yours.matmul_3.v1@4096x4096x4096");
    const CompareRun* v3 = find_compare_run(source, "yours.matmul_3.v3@4096x4096x4096");
    ASSERT_TRUE(v1 && v3);
    EXPECT_TRUE(v1->comparable() && v3->comparable());
    EXPECT_DOUBLE_EQ(v3->tflops, 500.0);
    EXPECT_TRUE(v3->profile.has_value()) << "its profile joins its row";
    EXPECT_TRUE(find_compare_run(source, "wmma.f16@4096x4096x4096")) << "the rungs stay";
    EXPECT_TRUE(find_compare_run(source, "cublas.bf16@4096x4096x4096"));
    EXPECT_FALSE(find_compare_run(source, "yours.matmul_3.v2@4096x4096x4096"))
        << "a version that did not build has no row";
    // "v3 next to v1": the table's TFLOP/s row has both, the change from the baseline v1.
    const std::vector<viz::CompareRow> rows = compare_rows({v1, v3});
    const auto tflops = std::find_if(rows.begin(), rows.end(), [](const viz::CompareRow& row) {
        return row.label.rfind("TFLOP/s", 0) == 0;
    });
    ASSERT_NE(tflops, rows.end());
    EXPECT_DOUBLE_EQ(tflops->values[0], 400.0);
    EXPECT_DOUBLE_EQ(tflops->values[1], 500.0);
    // Without kernels of yours the live source has none of them.
    const CompareSource plain = live_compare_source(&bench, nullptr, nullptr, nullptr);
    EXPECT_FALSE(find_compare_run(plain, "yours.matmul_3.v1@4096x4096x4096"));
}

TEST(UserKernelRuns, ASavedRecordingCarriesTheVersionsAndOpensWithThemInCompare) {
    const UserKernels yours = two_good_versions();
    const profiling::Recording sample = test::sample_recording();  // its system has a GPU
    ASSERT_TRUE(session_has_recording(nullptr, &sample.system, nullptr, nullptr, &yours));
    const auto saved = session_recording(nullptr, &sample.system, nullptr, nullptr,
                                         "2026-12-01T09:30:00Z", &yours);
    ASSERT_TRUE(saved.has_value());
    const std::string path = test::temp_path("yours_recording.json");
    ASSERT_EQ(profiling::save_recording(path, *saved), "");
    profiling::Recording opened;
    std::string error;
    ASSERT_TRUE(profiling::load_recording(path, opened, error)) << error;
    std::remove(path.c_str());
    const CompareSource source = recording_compare_source(opened, path);
    const CompareRun* v3 = find_compare_run(source, "yours.matmul_3.v3@4096x4096x4096");
    ASSERT_TRUE(v3);
    EXPECT_DOUBLE_EQ(v3->tflops, 500.0);
    EXPECT_TRUE(v3->profile.has_value());
    EXPECT_TRUE(find_compare_run(source, "yours.matmul_3.v1@4096x4096x4096"));
    EXPECT_TRUE(find_compare_run(source, "cublas.bf16@4096x4096x4096"));
    // Each version's PM timeline and instruction mix, shown for its row as a rung's are.
    const auto recorded = recorded_profile(opened, {"yours.matmul_3.v3"});
    ASSERT_TRUE(recorded);
    ASSERT_TRUE(recorded->timeline);
    EXPECT_EQ(recorded->timeline->kernel_id, "yours.matmul_3.v3");
    EXPECT_EQ(recorded->samples, 300u);
    const ShownMix mix = shown_instruction_mix(&opened, nullptr, "yours.matmul_3.v3", 80);
    ASSERT_TRUE(mix.mix);
    EXPECT_EQ((*mix.mix)[kernels::OpClass::kHmma], 30);
    EXPECT_EQ(mix.line.rfind("SASS of yours.matmul_3.v3 (sm_90a, recorded): HMMA 30,", 0), 0u)
        << mix.line;
    EXPECT_EQ(opened.instruction_mixes_missing, "");
    // Nothing of yours and nothing measured: nothing to save.
    const UserKernels none;
    EXPECT_FALSE(session_has_recording(nullptr, &sample.system, nullptr, nullptr, &none));
}

TEST(UserKernelRuns, AProfiledVersionIsTheProfilePanelsSnapshot) {
    const UserKernels yours = two_good_versions();
    const auto live = user_version_profile(yours, "yours.matmul_3.v3");
    ASSERT_TRUE(live);
    ASSERT_EQ(live->kernels.size(), 1u);
    EXPECT_EQ(live->kernels.front().kernel_id, "yours.matmul_3.v3");
    ASSERT_TRUE(live->kernels.front().latest);
    EXPECT_DOUBLE_EQ(live->kernels.front().latest->metrics.front().value, 3e6);
    EXPECT_FALSE(live->running);
    EXPECT_EQ(live->device, "tclens test GPU, yours (worker)");
    EXPECT_EQ(user_version_profile(yours, "yours.matmul_3.v2"), nullptr) << "v2 did not build";
}

TEST(UserKernelRuns, AVersionsTimelineAndMixAreShownAsARungs) {
    const UserKernels yours = two_good_versions();
    const UserKernelResults results = user_kernel_results(yours);
    ASSERT_EQ(results.timelines.size(), 2u);
    EXPECT_EQ(results.timelines[1].kernel_id, "yours.matmul_3.v3");
    ASSERT_EQ(results.mixes.size(), 2u);
    EXPECT_EQ(results.mixes[0].kernel_id, "yours.matmul_3.v1");

    const auto live = user_version_profile(yours, "yours.matmul_3.v1");
    ASSERT_TRUE(live);
    ASSERT_TRUE(live->timeline);
    EXPECT_EQ(live->timeline->kernel_id, "yours.matmul_3.v1");
    EXPECT_EQ(live->samples, yours.kernels[0].versions[0].timeline->samples.size());
    ASSERT_EQ(live->timeline_metrics.size(), live->timeline_history.size());
    EXPECT_EQ(live->timeline_history.front().size(), live->samples);

    const ShownMix mix = user_version_mix(yours, "yours.matmul_3.v3");
    ASSERT_TRUE(mix.mix);
    EXPECT_EQ(mix.mix->counts, yours.kernels[0].versions[2].mix->mix.counts);
    EXPECT_EQ(mix.line.rfind("SASS of yours.matmul_3.v3 (sm_90a, its cubin): HMMA 30,", 0), 0u)
        << mix.line;

    // A version with a timeline and no profile is still listed and shown.
    UserKernels sampled_only = yours;
    sampled_only.kernels[0].versions[0].profile.reset();
    EXPECT_EQ(user_profiled_versions(sampled_only),
              (std::vector<std::string>{"yours.matmul_3.v1", "yours.matmul_3.v3"}));
    const auto timeline_only = user_version_profile(sampled_only, "yours.matmul_3.v1");
    ASSERT_TRUE(timeline_only);
    EXPECT_TRUE(timeline_only->kernels.empty());
    EXPECT_TRUE(timeline_only->timeline);
    EXPECT_EQ(timeline_only->device, "tclens test GPU, yours (worker)");

    // Without a mix the line says why.
    UserKernels unread = yours;
    unread.kernels[0].versions[2].mix.reset();
    unread.kernels[0].versions[2].mix_missing = "no cuobjdump or nvdisasm (looked in /x)";
    const ShownMix missing = user_version_mix(unread, "yours.matmul_3.v3");
    EXPECT_FALSE(missing.mix);
    EXPECT_EQ(missing.line, "SASS of yours.matmul_3.v3: no cuobjdump or nvdisasm (looked in /x)");
    EXPECT_FALSE(user_version_mix(yours, "yours.matmul_3.v2").mix);
}

}  // namespace
}  // namespace tclens::gui
