// Tests for app/worker/gpu_neighbours.*: the note a bench carries when another program had a
// context on its GPU, and NVML's absence said, not taken for an idle GPU.

#include "app/worker/gpu_neighbours.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "app/worker/results.h"

namespace tclens::worker {
namespace {

TEST(GpuNeighbours, TheNoteCountsTheOthersSeenBeforeOrAfterTheTiming) {
    EXPECT_EQ(shared_gpu_note({}, {}), "");
    EXPECT_EQ(shared_gpu_note({0, ""}, {1, ""}),
              "1 other process had a CUDA context on this GPU while it was timed (NVML): times "
              "may be slower than on an idle GPU");
    EXPECT_EQ(shared_gpu_note({3, ""}, {1, ""}).rfind("3 other processes had", 0), 0u);
    EXPECT_EQ(shared_gpu_note({0, "NVML not found (libnvidia-ml.so.1)"}, {}), "")
        << "not knowing is no note: docs say what is not seen";
}

TEST(GpuNeighbours, WithoutNvmlItSaysSoAndCountsNobody) {
    if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL); nvml != nullptr) {
        dlclose(nvml);
        GTEST_SKIP() << "NVML is installed here";
    }
    const GpuNeighbours seen = gpu_neighbours("0000:06:00.0");
    EXPECT_EQ(seen.others, 0);
    EXPECT_EQ(seen.unknown, "NVML not found (libnvidia-ml.so.1)");
}

TEST(GpuNeighbours, TheNoteTravelsInABenchResult) {
    BenchResult bench;
    bench.report.shared_gpu = shared_gpu_note({}, {2, ""});
    BenchResult back;
    std::string error;
    ASSERT_TRUE(bench_from_json(to_json(bench), back, error)) << error;
    EXPECT_EQ(back.report.shared_gpu, bench.report.shared_gpu);
    BenchResult idle;
    ASSERT_TRUE(bench_from_json(to_json(idle), back, error)) << error;
    EXPECT_EQ(back.report.shared_gpu, "");
}

}  // namespace
}  // namespace tclens::worker
