// kernels/cublas_library.h without a GPU: cuBLAS and cuBLASLt are not in the process until their
// first use, and then every function tclens calls is found (the toolkit's libraries are on every
// machine that builds tclens). Each ctest entry is a process of its own, so nothing loaded them
// before the test.
#include "kernels/cublas_library.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace tclens::kernels {
namespace {

bool mapped(const std::string& library) {
    std::ifstream maps("/proc/self/maps");
    std::stringstream text;
    text << maps.rdbuf();
    return text.str().find(library) != std::string::npos;
}

TEST(CublasLibrary, LoadedAtTheFirstUseWithEveryFunction) {
    ASSERT_FALSE(mapped("libcublasLt.so")) << "cuBLASLt was loaded before it was asked for";
    ASSERT_FALSE(mapped("libcublas.so"));
    std::string error = "unset";
    const CublasFunctions* cublas = cublas_functions(&error);
    ASSERT_NE(cublas, nullptr) << error;
    EXPECT_EQ(error, "");
    EXPECT_TRUE(cublas->create && cublas->destroy && cublas->set_stream && cublas->gemm_ex);
    EXPECT_TRUE(mapped("libcublas.so"));
    const CublasLtFunctions* lt = cublaslt_functions(&error);
    ASSERT_NE(lt, nullptr) << error;
    EXPECT_TRUE(lt->create && lt->destroy && lt->matmul && lt->algo_get_heuristic &&
                lt->desc_create && lt->desc_destroy && lt->desc_set_attribute &&
                lt->preference_create && lt->preference_destroy && lt->preference_set_attribute &&
                lt->layout_create && lt->layout_destroy);
    EXPECT_EQ(cublas_functions(), cublas) << "loaded once";
}

}  // namespace
}  // namespace tclens::kernels
