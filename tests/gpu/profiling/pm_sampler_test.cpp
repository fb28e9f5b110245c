// GPU tests of profiling/pm_sampler.* and timelines (profiling/kernel_profile.h): samples come at
// roughly the requested interval, the tensor pipe shows up while a tensor kernel runs and the FMA
// pipe while an FMA kernel runs, snapshots are incremental, and sampling costs the kernel < 2 %.
//
// With TCLENS_RESULTS_DIR set, the timelines' summaries go to $TCLENS_RESULTS_DIR/pm_timeline.md.

#include "profiling/pm_sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "kernels/problem_text.h"
#include "profiling/kernel_profile.h"
#include "profiling/metric_catalogue.h"
#include "tests/gpu/gpu_test_support.h"

namespace tclens::profiling {
namespace {

// Index of each default timeline metric in the sample values.
constexpr std::size_t kTensorColumn = 0;
constexpr std::size_t kDramColumn = 1;
constexpr std::size_t kFmaColumn = 2;

double median_of(const KernelTimeline& timeline, std::size_t metric) {
    std::vector<double> values;
    for (const PmSample& sample : timeline.samples) values.push_back(sample.values.at(metric));
    if (values.empty()) return -1;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

KernelTimeline timeline_of(const std::string& kernel, const kernels::GemmProblem& problem,
                           std::uint64_t interval_ns, double duration_ms = 500,
                           double baseline_ms = 100) {
    KernelTimelineRequest request;
    request.kernel_id = kernel;
    request.problem = problem;
    request.options.interval_ns = interval_ns;
    request.options.duration_ms = duration_ms;
    request.options.baseline_ms = baseline_ms;
    KernelTimeline timeline = record_timeline(request);
    EXPECT_TRUE(timeline.ok()) << timeline.error.message;
    if (const char* folder = std::getenv("TCLENS_RESULTS_DIR");
        folder != nullptr && *folder != '\0') {
        std::ofstream(std::string(folder) + "/pm_timeline.md", std::ios::app)
            << "| " << kernel << " " << kernels::problem_text(problem) << " | "
            << interval_ns / 1000 << " us (" << pm_trigger_name(timeline.trigger) << ") | "
            << timeline.measured_interval_ns / 1000 << " us | " << timeline.samples.size() << " | "
            << median_of(timeline, kTensorColumn) << " | " << median_of(timeline, kDramColumn)
            << " | " << median_of(timeline, kFmaColumn) << " | " << timeline.kernel_ms_alone
            << " | " << timeline.kernel_ms_sampled << " | " << timeline.overhead_pct() << " % |\n";
    }
    return timeline;
}

TEST(PmTimeline, TensorKernelShowsOnTheTensorPipeAtTheRequestedInterval) {
    TCLENS_REQUIRE_GPU();
    const KernelTimeline timeline = timeline_of("mma_cp_async.bf16", {4096, 4096, 4096}, 1'000'000);
    ASSERT_TRUE(timeline.ok());
    EXPECT_EQ(timeline.metrics, metric_set("timeline"));
    // ~500 samples in 0.5 s; allow for start-up and the interval the trigger really gives.
    EXPECT_GT(timeline.samples.size(), 200u);
    EXPECT_LT(timeline.samples.size(), 1000u);
    EXPECT_GT(timeline.measured_interval_ns, 0.5e6);
    EXPECT_LT(timeline.measured_interval_ns, 2.0e6);
    EXPECT_GT(median_of(timeline, kTensorColumn), 10.0);
    EXPECT_GT(median_of(timeline, kTensorColumn), median_of(timeline, kFmaColumn));
    EXPECT_FALSE(timeline.overflow);
    for (std::size_t i = 1; i < timeline.samples.size(); ++i) {
        EXPECT_GE(timeline.samples[i].start_ns, timeline.samples[i - 1].start_ns) << i;
        EXPECT_GT(timeline.samples[i].end_ns, timeline.samples[i].start_ns) << i;
    }
    EXPECT_GT(timeline.launches, 0u);
}

TEST(PmTimeline, ShortIntervalGivesMoreSamples) {
    TCLENS_REQUIRE_GPU();
    const KernelTimeline timeline = timeline_of("mma_cp_async.bf16", {4096, 4096, 4096}, 200'000);
    ASSERT_TRUE(timeline.ok());
    EXPECT_GT(timeline.samples.size(), 1000u);
    EXPECT_GT(timeline.measured_interval_ns, 0.1e6);
    EXPECT_LT(timeline.measured_interval_ns, 0.4e6);
    EXPECT_EQ(timeline.lost, 0u);
}

TEST(PmTimeline, FmaKernelShowsOnTheFmaPipe) {
    TCLENS_REQUIRE_GPU();
    const KernelTimeline timeline =
        timeline_of("register_tiled.f32", {4096, 4096, 4096}, 1'000'000);
    ASSERT_TRUE(timeline.ok());
    EXPECT_GT(median_of(timeline, kFmaColumn), 10.0);
    EXPECT_LT(median_of(timeline, kTensorColumn), 1.0);
}

// PM sampling costs the kernel's own time < 2 %. The kernel's own time is GPU time of
// gated batches (stream_gate.h: host stalls do not count); "alone" is the mean of 500 ms before
// and 500 ms after the 1 s sampled run, after a 500 ms warm-up, so a tensor kernel that slows
// as the GPU heats up (it did: 4 % at 0.5 s, 7 % at 1 s with the baseline only before) is
// compared with itself at the same clocks.
TEST(PmTimeline, SamplingOverheadIsBelowTwoPercent) {
    TCLENS_REQUIRE_GPU();
    const KernelTimeline timeline =
        timeline_of("mma_cp_async.bf16", {4096, 4096, 4096}, 1'000'000, 1000, 1000);
    ASSERT_TRUE(timeline.ok());
    EXPECT_GT(timeline.kernel_ms_alone, 0);
    EXPECT_LT(timeline.overhead_pct(), 2.0)
        << timeline.kernel_ms_alone << " ms alone, " << timeline.kernel_ms_sampled << " ms sampled";
}

// The GUI's live timeline: progress sees each sample once, in order, and stops the loop.
// The 300 ms run from the first progress call, that is from when sampling runs: before it, the
// first timeline of a process initialises CUPTI's profiler and builds the config (several hundred
// ms on the H100), which would otherwise eat the whole budget before one sample is taken.
TEST(PmTimeline, ProgressSeesNewSamplesAndCanStopTheLoop) {
    TCLENS_REQUIRE_GPU();
    KernelProfiler profiler;
    ASSERT_TRUE(profiler.prepare("mma_cp_async.bf16", {2048, 2048, 2048}).ok());
    TimelineOptions options;
    options.interval_ns = 500'000;
    options.duration_ms = 0;  // until progress says stop
    options.baseline_ms = 0;
    int calls = 0;
    std::uint64_t seen = 0;
    std::uint64_t expected = 0;
    std::uint64_t skipped = 0;
    bool in_order = true;
    std::chrono::steady_clock::time_point first_call;
    const auto since_first_call_ms = [&first_call] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                         first_call)
            .count();
    };
    const KernelTimeline timeline = profiler.timeline(options, [&](const PmSnapshot& newest) {
        if (calls++ == 0) first_call = std::chrono::steady_clock::now();
        skipped += newest.skipped;
        for (const PmSample& sample : newest.samples) {
            in_order = in_order && sample.sequence == expected;
            expected = sample.sequence + 1;
            ++seen;
        }
        return since_first_call_ms() < 300;
    });
    ASSERT_TRUE(timeline.ok()) << timeline.error.message;
    // Stopped within one ~10 ms batch plus stop()'s last decode.
    EXPECT_LT(since_first_call_ms(), 500);
    EXPECT_GT(calls, 5);
    EXPECT_GT(seen, 100u);  // ~600 samples in 300 ms at 0.5 ms
    EXPECT_TRUE(in_order);
    EXPECT_EQ(skipped, 0u);                    // the ring (20,000) never ran ahead of the reader
    EXPECT_GE(timeline.samples.size(), seen);  // the rest came with the last decode at stop
    EXPECT_EQ(timeline.kernel_ms_alone, 0);    // no baseline asked for
    EXPECT_EQ(profiler.timeline(options).error.problem, ProfilerProblem::kInvalidRequest);
}

// Snapshots continue where the last one stopped. The ring holds more than the run produces
// (~600 samples in 300 ms at 0.5 ms), so nothing is dropped between the two snapshots; a second
// session with a 100-sample ring then shows that the ring keeps the newest and that a snapshot
// names the samples a late reader missed.
TEST(PmSampler, SnapshotsAreIncrementalWhileRunning) {
    TCLENS_REQUIRE_GPU();
    PmSampler sampler;
    PmSamplerConfig config;
    config.interval_ns = 500'000;
    config.ring_capacity = 5'000;
    ASSERT_TRUE(sampler.start(config).ok());
    EXPECT_TRUE(sampler.running());
    EXPECT_EQ(sampler.start(config).problem, ProfilerProblem::kInvalidRequest);  // already running
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    const PmSnapshot first = sampler.snapshot();
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    const PmSnapshot newer = sampler.snapshot(first.next_sequence);
    EXPECT_TRUE(sampler.stop().ok());
    EXPECT_FALSE(sampler.running());
    const PmSnapshot last = sampler.snapshot();
    EXPECT_TRUE(first.running);
    EXPECT_FALSE(last.running);
    EXPECT_EQ(first.metrics, metric_set("timeline"));
    EXPECT_GT(first.samples.size(), 50u);  // ~300 by 150 ms at 0.5 ms
    ASSERT_FALSE(newer.samples.empty());
    EXPECT_EQ(newer.skipped, 0u);
    EXPECT_EQ(newer.samples.front().sequence, first.next_sequence);
    EXPECT_EQ(newer.samples.back().sequence + 1, newer.next_sequence);
    EXPECT_EQ(last.dropped, 0u);
    EXPECT_EQ(last.next_sequence, last.samples.size());
    // Idle GPU: the tensor pipe reads ~0.
    for (const PmSample& sample : last.samples) EXPECT_LT(sample.values.at(kTensorColumn), 5.0);

    // A second session on the same sampler, with a ring smaller than what it samples.
    config.ring_capacity = 100;
    ASSERT_TRUE(sampler.start(config).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_TRUE(sampler.stop().ok());
    const PmSnapshot small = sampler.snapshot();
    EXPECT_LE(small.samples.size(), 100u);  // the ring keeps the newest
    EXPECT_GT(small.dropped, 0u);
    ASSERT_FALSE(small.samples.empty());
    EXPECT_EQ(small.skipped, small.dropped);  // a reader starting at 0 missed the dropped ones
    EXPECT_EQ(small.samples.front().sequence, small.skipped);
    EXPECT_EQ(small.next_sequence, small.samples.back().sequence + 1);
}

TEST(PmSampler, MultiPassSetsAndRangeProfilerMetricsAreRefused) {
    TCLENS_REQUIRE_GPU();
    PmSampler sampler;
    PmSamplerConfig config;
    config.metrics = {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"};
    const ProfilerError error = sampler.start(config);
    EXPECT_EQ(error.problem, ProfilerProblem::kBadMetric) << error.message;
    EXPECT_NE(error.message.find("sm__pipe_tensor_op_hmma_cycles_active"), std::string::npos);
    EXPECT_FALSE(sampler.running());
}

}  // namespace
}  // namespace tclens::profiling
