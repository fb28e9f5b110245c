// Argument checks of the probe run before any CUDA call, so they hold without a GPU.

#include "kernels/probes/thread_id_probe.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(ThreadIdProbe, RejectsBadLaunchShapesBeforeTouchingTheGpu) {
    EXPECT_NE(run_thread_id_probe(0, 32).error, "");
    EXPECT_NE(run_thread_id_probe(1, 0).error, "");
    EXPECT_NE(run_thread_id_probe(1, 1025).error, "");
    EXPECT_TRUE(run_thread_id_probe(0, 32).records.empty());
}

}  // namespace
}  // namespace tclens::kernels
