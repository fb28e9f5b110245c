// The CLI never calls CUDA in its own process (issue 30, "one path to the GPU"): the commands that
// ask about the GPU (--version, kernels --json, device) or run on it (trace --clock-skew, banks
// --measure, layout --verify) ask a worker, and the CLI's process loads no CUDA library
// (tests/support/cuda_libraries_loaded.h: the loader's own log, so an attempt shows even on a
// machine without a driver). Label e2e: it runs in CI and in scripts/gpu_check.sh's GPU run.
#include <gtest/gtest.h>

#include <string>

#include "profiling/device_query.h"
#include "tests/support/cuda_libraries_loaded.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

TEST(NoCudaInTheCli, CommandsThatAskAboutTheGpuLoadNoCudaLibrary) {
    test::expect_no_cuda_loaded(kTclens + " --version", "version");
    test::expect_no_cuda_loaded(kTclens + " kernels --json", "kernels");
    test::expect_no_cuda_loaded(kTclens + " device --json", "device");
}

// Without a GPU the worker refuses (exit 3); with one it runs them (exit 0): either way not here.
TEST(NoCudaInTheCli, CommandsThatRunOnTheGpuLoadNoCudaLibrary) {
    const int exit_code = profiling::query_system().has_gpu() ? 0 : 3;
    test::expect_no_cuda_loaded(kTclens + " trace --clock-skew --rounds 3", "clock_skew",
                                exit_code);
    test::expect_no_cuda_loaded(kTclens + " banks --swizzle xor --pattern ldmatrix.x4 --measure",
                                "banks", exit_code);
    test::expect_no_cuda_loaded(kTclens + " layout ldmatrix.x4 --verify", "layout", exit_code);
}

}  // namespace
}  // namespace tclens
