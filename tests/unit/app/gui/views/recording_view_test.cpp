// Tests for app/gui/recording_view.*: a recording turned into the snapshots the Kernels and
// Profile panels draw, and what File > Save recording as writes (live results never mixed with
// a recording made elsewhere).

#include "app/gui/views/recording_view.h"

#include <gtest/gtest.h>

#include "app/gui/views/bench_view.h"
#include "kernels/instruction_mix.h"
#include "profiling/bench_json.h"
#include "profiling/built_in_mixes.h"
#include "profiling/device_json.h"
#include "profiling/profile_json.h"
#include "tests/support/sample_recording.h"

namespace tclens::gui {
namespace {

TEST(RecordingView, CaptionNamesTheGpuAndTheDate) {
    profiling::Recording recording = test::sample_recording();
    EXPECT_EQ(recording_caption(recording), "tclens test GPU, 2026-11-22 10:00 UTC");
    recording.system.devices.clear();
    recording.created_utc = "";
    EXPECT_EQ(recording_caption(recording), "no GPU, unknown date");
}

TEST(RecordingView, OriginIsTheFileNameWhenAndWhereNotTheCommandLine) {
    profiling::Recording recording = test::sample_recording();
    const std::string origin = recording_origin("/tmp/gpuout6/sample.json", recording);
    EXPECT_EQ(origin,
              "sample.json: recorded on tclens test GPU, 2026-11-22 10:00 UTC (driver 580.159.04, "
              "CUDA runtime 13.0, tclens 0.1.0)");
    EXPECT_EQ(origin.find("/tmp"), std::string::npos);
    EXPECT_EQ(origin.find(recording.command), std::string::npos);
    recording.system = {};
    recording.tclens_version.clear();
    EXPECT_EQ(recording_origin("h100.json", recording),
              "h100.json: recorded on no GPU, 2026-11-22 10:00 UTC");
}

TEST(RecordingView, StatusNamesTheFileTheGpuAndTheDateAndSaysItIsNotLive) {
    EXPECT_EQ(recording_status("/home/me/runs/sample.json.gz", test::sample_recording()),
              "showing sample.json.gz: tclens test GPU, 2026-11-22 10:00 UTC (recorded, not live)");
}

TEST(RecordingView, BenchBecomesTheKernelsPanelsResults) {
    const profiling::Recording recording = test::sample_recording();
    const auto results = recorded_bench(recording);
    ASSERT_NE(results, nullptr);
    EXPECT_EQ(results->error, "");
    EXPECT_EQ(results->device, "tclens test GPU, 2026-11-22 10:00 UTC, recorded");
    ASSERT_EQ(results->report.rows.size(), recording.bench.size());
    EXPECT_EQ(results->report.peaks.size(), 4u);
    ASSERT_EQ(results->request.problems.size(), 1u);
    EXPECT_EQ(results->request.problems[0].m, 4096);
    EXPECT_EQ(results->request.kernels.size(), 4u);
    // The same table the live bench gives: counted rows with numbers, the others with reasons.
    const std::vector<BenchTableRow> table = bench_table(results->report);
    ASSERT_EQ(table.size(), 4u);
    EXPECT_EQ(table[0].state, RowState::kCounted);
    EXPECT_EQ(table[0].tflops, "292.0");
    EXPECT_EQ(table[1].state, RowState::kSkipped);
    EXPECT_EQ(table[2].state, RowState::kFailed);
}

TEST(RecordingView, ProfileAndTimelineOfTheChosenKernel) {
    const profiling::Recording recording = test::sample_recording();
    EXPECT_EQ(recorded_profile_kernels(recording), std::vector<std::string>{"wmma.f16"});
    EXPECT_EQ(recorded_profile(recording, {"naive_fma.f32"}), nullptr);

    const auto live = recorded_profile(recording, {"wmma.f16"});
    ASSERT_NE(live, nullptr);
    EXPECT_FALSE(live->running);
    EXPECT_EQ(live->recorded, "2026-11-22 10:00 UTC");  // its charts say so, not "(live)"
    EXPECT_EQ(live->error, "");
    EXPECT_EQ(live->request.kernel_ids, std::vector<std::string>{"wmma.f16"});
    EXPECT_EQ(live->request.problem.k, 4096);
    ASSERT_EQ(live->kernels.size(), 1u);
    const KernelLive& kernel = live->kernels[0];
    EXPECT_EQ(kernel.kernel_id, "wmma.f16");
    ASSERT_NE(kernel.latest, nullptr);
    EXPECT_EQ(profiling::to_json(*kernel.latest), profiling::to_json(recording.profiles[0]));
    ASSERT_EQ(kernel.history.size(), recording.profiles[0].metrics.size());
    EXPECT_EQ(kernel.history[0], std::vector<double>{recording.profiles[0].metrics[0].value});
    ASSERT_NE(live->timeline, nullptr);
    EXPECT_EQ(live->timeline_metrics, recording.timelines[0].metrics);
    ASSERT_EQ(live->timeline_history.size(), recording.timelines[0].metrics.size());
    EXPECT_EQ(live->timeline_history[1].size(), 300u);
    EXPECT_EQ(live->timeline_history[1][7], recording.timelines[0].samples[7].values[1]);
    EXPECT_EQ(live->samples, 300u);
    EXPECT_EQ(live->request.history, 300u);  // every sample fits the strip charts

    profiling::Recording timeline_only = recording;
    timeline_only.profiles.clear();
    const auto sampled = recorded_profile(timeline_only, {"wmma.f16"});
    ASSERT_NE(sampled, nullptr);
    EXPECT_EQ(sampled->request.mode, ProfileMode::kTimeline);
    EXPECT_FALSE(sampled->has_profile());
}

TEST(RecordingView, ProfilesOfSeveralChosenKernelsInTheirOrder) {
    profiling::Recording recording = test::sample_recording();
    profiling::KernelProfile second = recording.profiles[0];
    second.kernel_id = "mma_cp_async.bf16";
    second.metrics[0].value = 123.0;
    recording.profiles.push_back(second);

    // Chosen order, kernels without a recorded profile left out.
    const auto live =
        recorded_profile(recording, {"mma_cp_async.bf16", "naive_fma.f32", "wmma.f16"});
    ASSERT_NE(live, nullptr);
    ASSERT_EQ(live->kernels.size(), 2u);
    EXPECT_EQ(live->kernels[0].kernel_id, "mma_cp_async.bf16");
    EXPECT_EQ(live->kernels[0].latest->metrics[0].value, 123.0);
    EXPECT_EQ(live->kernels[1].kernel_id, "wmma.f16");
    EXPECT_EQ(live->request.kernel_ids,
              (std::vector<std::string>{"mma_cp_async.bf16", "wmma.f16"}));
    EXPECT_EQ(live->find("wmma.f16"), &live->kernels[1]);
    EXPECT_EQ(live->find("naive_fma.f32"), nullptr);
    EXPECT_TRUE(live->has_profile());
    ASSERT_NE(live->timeline, nullptr);  // wmma.f16's, the only one recorded
    EXPECT_EQ(live->timeline->kernel_id, "wmma.f16");
}

TEST(RecordingView, SaveWritesTheOpenRecordingWhenNothingWasMeasured) {
    const profiling::Recording open = test::sample_recording();
    EXPECT_FALSE(session_has_recording(nullptr, nullptr, nullptr, nullptr));
    EXPECT_FALSE(session_recording(nullptr, nullptr, nullptr, nullptr, "now").has_value());
    profiling::SystemReport no_gpu;
    no_gpu.no_gpu_reason = "no driver";
    ASSERT_TRUE(session_has_recording(&open, &no_gpu, nullptr, nullptr));
    const auto saved = session_recording(&open, &no_gpu, nullptr, nullptr, "now");
    ASSERT_TRUE(saved.has_value());
    EXPECT_EQ(profiling::to_json(*saved), profiling::to_json(open));
}

TEST(RecordingView, SaveWritesOnlyLiveResultsWhenThereAreSome) {
    const profiling::Recording open = test::sample_recording();
    profiling::SystemReport gpu = open.system;
    gpu.devices[0].name = "live GPU";
    BenchResults bench;
    bench.report.rows = {open.bench[0]};
    bench.report.peaks = open.peaks;
    LiveProfile live;
    live.timeline = std::make_shared<const profiling::KernelTimeline>(open.timelines[0]);

    ASSERT_TRUE(session_has_recording(&open, &gpu, &bench, &live));
    const auto saved = session_recording(&open, &gpu, &bench, &live, "2026-12-01T09:30:00Z");
    ASSERT_TRUE(saved.has_value());
    EXPECT_EQ(saved->created_utc, "2026-12-01T09:30:00Z");
    EXPECT_EQ(saved->system.devices[0].name, "live GPU");
    EXPECT_EQ(saved->bench.size(), 1u);  // not the open recording's four rows
    EXPECT_EQ(saved->peaks.size(), 4u);
    EXPECT_TRUE(saved->profiles.empty());
    EXPECT_EQ(saved->timelines.size(), 1u);
    EXPECT_EQ(saved->dram_bandwidth.bytes_per_s, 0);

    BenchResults failed;
    failed.error = "no GPU";
    EXPECT_FALSE(session_has_recording(nullptr, &gpu, &failed, nullptr));
}

TEST(RecordingView, SaveWritesTheNewestGoodProfileOfEveryKernel) {
    const profiling::Recording open = test::sample_recording();
    LiveProfile live;
    for (const char* id : {"wmma.f16", "mma_cp_async.bf16", "wgmma_tma.bf16"}) {
        profiling::KernelProfile profile = open.profiles[0];
        profile.kernel_id = id;
        live.kernels.emplace_back();
        live.kernels.back().kernel_id = id;
        live.kernels.back().latest = std::make_shared<const profiling::KernelProfile>(profile);
    }
    profiling::KernelProfile failed = open.profiles[0];
    failed.error = profiling::profiler_error(profiling::ProfilerProblem::kBusy, "busy");
    live.kernels[2].latest = std::make_shared<const profiling::KernelProfile>(failed);

    const auto saved = session_recording(nullptr, &open.system, nullptr, &live, "now");
    ASSERT_TRUE(saved.has_value());
    ASSERT_EQ(saved->profiles.size(), 2u);
    EXPECT_EQ(saved->profiles[0].kernel_id, "wmma.f16");
    EXPECT_EQ(saved->profiles[1].kernel_id, "mma_cp_async.bf16");
}

}  // namespace
}  // namespace tclens::gui

namespace tclens::gui {
namespace {

TEST(RecordingView, TheInstructionMixShownIsTheRecordingsWhereItCarriesOne) {
    const profiling::Recording recording = test::sample_recording();  // a made-up wmma.f16 mix
    const ShownMix recorded = shown_instruction_mix(&recording, nullptr, "wmma.f16", 86);
    ASSERT_TRUE(recorded.mix);
    EXPECT_EQ(recorded.mix->counts, recording.instruction_mixes[0].mix.counts);
    EXPECT_EQ(recorded.line, "SASS of wmma.f16 (sm_90a, recorded): " +
                                 kernels::instruction_mix_text(recording.instruction_mixes[0].mix));
    EXPECT_NE(recorded.line.find("HMMA 16"), std::string::npos) << recorded.line;

    // A kernel the recording has no mix of, or no recording: this build's census.
    for (const ShownMix& built : {shown_instruction_mix(&recording, nullptr, "wgmma_tma.f16", 90),
                                  shown_instruction_mix(nullptr, nullptr, "wmma.f16", 90)}) {
        EXPECT_EQ(built.line.find("recorded"), std::string::npos) << built.line;
    }
    const ShownMix built = shown_instruction_mix(nullptr, nullptr, "wgmma_tma.f16", 90);
    EXPECT_EQ(built.mix.has_value(), kernels::instruction_mix("wgmma_tma.f16", 90) != nullptr);
    EXPECT_EQ(built.line, kernels::instruction_mix_line("wgmma_tma.f16", 90));
}

// The hello of a worker on `recording`'s GPU whose build's mixes hold only wmma.f16's, with an
// HMMA count (4242) that no census has.
worker::HelloResult hello_planting_a_wmma_mix(const profiling::Recording& recording) {
    worker::HelloResult hello;
    hello.system = recording.system;
    profiling::RecordedInstructionMix planted = recording.instruction_mixes[0];  // wmma.f16
    planted.mix.counts[std::size_t(kernels::OpClass::kHmma)] = 4242;
    hello.mixes = worker::WorkerMixes{{planted}, ""};
    return hello;
}

// Live results (no recording) show the mix of the worker's build where its hello carries mixes.
TEST(RecordingView, TheLiveInstructionMixIsTheWorkersBuilds) {
    const profiling::Recording recording = test::sample_recording();
    const worker::HelloResult hello = hello_planting_a_wmma_mix(recording);
    const ShownMix shown = shown_instruction_mix(nullptr, &hello, "wmma.f16", 90);
    ASSERT_TRUE(shown.mix);
    EXPECT_EQ((*shown.mix)[kernels::OpClass::kHmma], 4242);
    EXPECT_EQ(shown.line.rfind("SASS of wmma.f16 (sm_90a, the worker's build): HMMA 4242,", 0), 0u)
        << shown.line;
    // A recording's own mix still wins over the worker's.
    EXPECT_EQ(
        (*shown_instruction_mix(&recording, &hello, "wmma.f16", 90).mix)[kernels::OpClass::kHmma],
        16);
}

TEST(RecordingView, ASavedSessionCarriesTheMixOfEveryKernelItHolds) {
    profiling::Recording open = test::sample_recording();
    profiling::SystemReport system = open.system;  // an sm_90 GPU
    auto bench = std::make_shared<BenchResults>();
    bench->report.rows = open.bench;
    const std::optional<profiling::Recording> saved =
        session_recording(nullptr, &system, bench.get(), nullptr, "2026-11-25T10:00:00Z");
    ASSERT_TRUE(saved);
    std::string missing;
    const std::vector<profiling::RecordedInstructionMix> expected =
        profiling::built_in_mixes({"wmma.f16", "wgmma_tma.f16", "mma_tf32_puzzle"}, 90, missing);
    ASSERT_EQ(saved->instruction_mixes.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(saved->instruction_mixes[i].kernel_id, expected[i].kernel_id);
        EXPECT_EQ(saved->instruction_mixes[i].mix.counts, expected[i].mix.counts);
    }
    EXPECT_EQ(saved->instruction_mixes_missing, missing);  // a build without cuobjdump says so
}

// With the worker's hello, the saved session carries the mixes of the worker's build (a client
// build has none of its own), not this build's.
TEST(RecordingView, ASavedSessionCarriesTheMixesOfTheWorkersBuild) {
    profiling::Recording open = test::sample_recording();
    auto bench = std::make_shared<BenchResults>();
    bench->report.rows = open.bench;
    const worker::HelloResult hello = hello_planting_a_wmma_mix(open);
    const std::optional<profiling::Recording> saved = session_recording(
        nullptr, &open.system, bench.get(), nullptr, "2026-11-25T10:00:00Z", nullptr, &hello);
    ASSERT_TRUE(saved);
    ASSERT_EQ(saved->instruction_mixes.size(), 1u);
    EXPECT_EQ(saved->instruction_mixes[0].kernel_id, "wmma.f16");
    EXPECT_EQ(saved->instruction_mixes[0].mix[kernels::OpClass::kHmma], 4242);
    EXPECT_EQ(saved->instruction_mixes_missing, "");
}

}  // namespace
}  // namespace tclens::gui
