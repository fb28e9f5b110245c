#include "kernels/probes/thread_id_probe.h"

#include <gtest/gtest.h>

#include "tests/gpu/gpu_test_support.h"

namespace tclens::kernels {
namespace {

TEST(ThreadIdProbe, EveryThreadReportsItsIds) {
    TCLENS_REQUIRE_GPU();
    const int blocks = 8, threads = 96;
    const auto result = run_thread_id_probe(blocks, threads);
    ASSERT_EQ(result.error, "");
    ASSERT_EQ(result.records.size(), size_t(blocks * threads));
    const int sm_count = profiling::query_system().devices.front().sm_count;
    for (int b = 0; b < blocks; ++b) {
        for (int t = 0; t < threads; ++t) {
            const ThreadIdRecord& r = result.records[b * threads + t];
            EXPECT_EQ(r.block, b);
            EXPECT_EQ(r.thread, t);
            EXPECT_EQ(r.lane, t % 32) << "block " << b << " thread " << t;
            EXPECT_GE(r.sm, 0);
            EXPECT_LT(r.sm, sm_count);
        }
    }
}

}  // namespace
}  // namespace tclens::kernels
