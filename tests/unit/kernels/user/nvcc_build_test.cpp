#include "kernels/user/nvcc_build.h"

#include <gtest/gtest.h>

namespace tclens::kernels::user {
namespace {

Discovered discovered(const std::string& source) {
    auto d = discover_kernel(source, "k.cu", KernelRef{"k.cu", "", std::nullopt});
    EXPECT_TRUE(d) << d.error();
    return *d;
}

TEST(NvccShim, HostLauncherCallsTheUsersFunctionInItsOrder) {
    const std::string shim = shim_source(
        discovered("namespace ns { void launch(int M, int N, int K, const float* A, const float* "
                   "B, float* C) {} }"),
        "/abs/k.cu");
    EXPECT_NE(shim.find("#include \"/abs/k.cu\""), std::string::npos);
    EXPECT_NE(shim.find("extern \"C\" int tclens_user_gemm("), std::string::npos);
    EXPECT_NE(shim.find("tclens_shim::call(&ns::launch, m, n, k, a, b, c);"), std::string::npos);
    EXPECT_EQ(shim.find("tclens_user_workspace_size"), std::string::npos);
    EXPECT_EQ(shim.find("tclens_user_exercise"), std::string::npos);
    // Event waits only around a stream other than the legacy default one.
    EXPECT_NE(shim.find("stream != nullptr && stream != cudaStreamLegacy"), std::string::npos);
}

TEST(NvccShim, PointersFirstAndWorkspace) {
    const std::string shim = shim_source(
        discovered("size_t get_workspace_size(int M, int N, int K) { return 0; }\n"
                   "void g(const float* A, const float* B, float* C, int M, int N, int K, "
                   "void* w) {}"),
        "/abs/dir with \"quote\"/k.cu");
    EXPECT_NE(shim.find("#include \"/abs/dir with \\\"quote\\\"/k.cu\""), std::string::npos);
    EXPECT_NE(shim.find("tclens_shim::call(&g, a, b, c, m, n, k, workspace);"), std::string::npos);
    EXPECT_NE(shim.find("tclens_shim::call(&get_workspace_size, m, n, k)"), std::string::npos);
}

TEST(NvccShim, ExerciseLaunchesOneWarp) {
    const std::string shim = shim_source(
        discovered("__global__ void mma_16x8x8_kernel(float const *a, float const *b, float *c) "
                   "{}"),
        "/abs/e.cu");
    EXPECT_NE(shim.find("extern \"C\" int tclens_user_exercise("), std::string::npos);
    EXPECT_NE(shim.find("tclens_shim::launch_one_warp(&mma_16x8x8_kernel, a, b, c);"),
              std::string::npos);
    EXPECT_NE(shim.find("kernel<<<1, 32>>>"), std::string::npos);
    EXPECT_EQ(shim.find("tclens_user_gemm"), std::string::npos);
}

TEST(NvccShim, FindsAnNvccOrSaysNone) {
    EXPECT_EQ(find_nvcc("/nonexistent/nvcc"), "");
    const std::string found = find_nvcc("");
    if (found.empty()) GTEST_SKIP() << "skipped: no nvcc on this machine";
    EXPECT_NE(found.find("nvcc"), std::string::npos);
}

}  // namespace
}  // namespace tclens::kernels::user
