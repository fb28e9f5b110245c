// Tests for the pure parts of profiling/pm_sampler.*: the sample ring behind snapshot(), the
// sampling interval CUPTI is given per trigger, and the size of the counter data image.

#include "profiling/pm_sampler.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

PmSample sample_at(std::uint64_t start_ns) {
    PmSample sample;
    sample.start_ns = start_ns;
    sample.end_ns = start_ns + 1000;
    sample.values = {static_cast<double>(start_ns)};
    return sample;
}

TEST(SampleRing, KeepsTheNewestInOrderWithSequenceNumbers) {
    SampleRing ring(3);
    EXPECT_TRUE(ring.since(0).empty());
    for (std::uint64_t i = 0; i < 5; ++i) ring.push(sample_at(100 * i));
    EXPECT_EQ(ring.size(), 3u);
    EXPECT_EQ(ring.capacity(), 3u);
    EXPECT_EQ(ring.pushed(), 5u);
    EXPECT_EQ(ring.dropped(), 2u);
    const std::vector<PmSample> all = ring.since(0);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].sequence, 2u);
    EXPECT_EQ(all[0].start_ns, 200u);
    EXPECT_EQ(all[2].sequence, 4u);
    EXPECT_EQ(all[2].start_ns, 400u);
}

TEST(SampleRing, SinceGivesOnlyNewerSamples) {
    SampleRing ring(10);
    for (std::uint64_t i = 0; i < 4; ++i) ring.push(sample_at(i));
    const std::vector<PmSample> newer = ring.since(2);
    ASSERT_EQ(newer.size(), 2u);
    EXPECT_EQ(newer[0].sequence, 2u);
    EXPECT_EQ(newer[1].sequence, 3u);
    EXPECT_TRUE(ring.since(4).empty());
    EXPECT_TRUE(ring.since(99).empty());
}

// A reader that fell behind the ring learns how many samples it missed: oldest() - its cursor.
TEST(SampleRing, OldestSaysWhereAFallenBehindReaderResumes) {
    SampleRing ring(3);
    EXPECT_EQ(ring.oldest(), 0u);
    for (std::uint64_t i = 0; i < 8; ++i) ring.push(sample_at(i));
    EXPECT_EQ(ring.oldest(), 5u);
    const std::vector<PmSample> resumed = ring.since(2);  // 2, 3, 4 were dropped
    ASSERT_EQ(resumed.size(), 3u);
    EXPECT_EQ(resumed.front().sequence, ring.oldest());
}

TEST(SampleRing, CapacityIsAtLeastOne) {
    SampleRing ring(0);
    ring.push(sample_at(1));
    ring.push(sample_at(2));
    ASSERT_EQ(ring.size(), 1u);
    EXPECT_EQ(ring.since(0).front().start_ns, 2u);
}

TEST(PmSampling, IntervalSettingPerTrigger) {
    EXPECT_EQ(pm_interval_setting(PmTrigger::kGpuTime, 1'000'000, 1'755'000), 1'000'000u);
    EXPECT_EQ(pm_interval_setting(PmTrigger::kSysClock, 1'000'000, 1'755'000), 1'755'000u);
    EXPECT_EQ(pm_interval_setting(PmTrigger::kSysClock, 100'000, 1'980'000), 198'000u);
    EXPECT_EQ(pm_interval_setting(PmTrigger::kSysClock, 1, 1), 1u);  // never 0 cycles
    EXPECT_STREQ(pm_trigger_name(PmTrigger::kGpuTime), "gpu-time");
    EXPECT_STREQ(pm_trigger_name(PmTrigger::kSysClock), "sysclk");
}

TEST(PmSampling, CounterDataHoldsSeveralDecodePasses) {
    EXPECT_EQ(pm_max_samples(1'000'000, 20'000'000), 256u);  // 20 per pass -> the floor
    EXPECT_EQ(pm_max_samples(100'000, 20'000'000), 2000u);   // 200 per pass x 10
    EXPECT_EQ(pm_max_samples(100'000, 100'000'000), 4000u);  // capped
    EXPECT_EQ(pm_max_samples(10'000'000, 20'000'000), 256u);
}

TEST(PmSampling, IntervalOutsideTheRangeIsRefusedBeforeAnyCuptiCall) {
    PmSampler sampler;
    PmSamplerConfig config;
    for (const std::uint64_t interval : {kMinPmIntervalNs - 1, kMaxPmIntervalNs + 1}) {
        config.interval_ns = interval;
        const ProfilerError error = sampler.start(config);
        EXPECT_EQ(error.problem, ProfilerProblem::kInvalidRequest) << error.message;
        EXPECT_NE(error.message.find(std::to_string(interval)), std::string::npos) << error.message;
    }
    EXPECT_FALSE(sampler.running());
    EXPECT_TRUE(sampler.snapshot().samples.empty());
    EXPECT_TRUE(sampler.stop().ok());  // stop() without a session is harmless
}

}  // namespace
}  // namespace tclens::profiling
