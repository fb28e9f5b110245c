// Which kernels a bench runs (kernels/bench_selection.h), on the model's registry alone: the
// same-precision references in registry order, FP32 cuBLAS for TF32 rungs, and an unknown id as
// one line.

#include "kernels/bench_selection.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tclens::kernels {
namespace {

std::vector<std::string> ids_of(const std::vector<const KernelDescriptor*>& kernels) {
    std::vector<std::string> ids;
    for (const KernelDescriptor* k : kernels) ids.push_back(k->id);
    return ids;
}

TEST(BenchKernels, AddsTheSamePrecisionReferenceInRegistryOrder) {
    std::string error;
    EXPECT_EQ(ids_of(bench_kernels({"cublas.f16", "wmma.f16"}, error)),
              (std::vector<std::string>{"wmma.f16", "cublas.f16"}));
    EXPECT_EQ(error, "");
    EXPECT_EQ(ids_of(bench_kernels({"naive_fma.f32"}, error)),
              (std::vector<std::string>{"naive_fma.f32", "cublas.sgemm"}));
}

TEST(BenchKernels, WithoutReferencesOnlyTheRequestedOnes) {
    std::string error;
    EXPECT_EQ(ids_of(bench_kernels({"mma_tf32_tuned", "naive_fma.f32"}, error, false)),
              (std::vector<std::string>{"naive_fma.f32", "mma_tf32_tuned"}));
}

TEST(BenchKernels, TF32RungsAlsoGetFP32cuBLAS) {
    std::string error;
    EXPECT_EQ(ids_of(bench_kernels({"mma_tf32_tuned"}, error)),
              (std::vector<std::string>{"mma_tf32_tuned", "cublas.sgemm", "cublas.tf32"}));
}

TEST(BenchKernels, UnknownIdIsOneLineListingValidIds) {
    std::string error;
    EXPECT_TRUE(bench_kernels({"naive_fma.f32", "fastest"}, error).empty());
    EXPECT_NE(error.find("'fastest'"), std::string::npos);
    EXPECT_NE(error.find("mma_cp_async.bf16"), std::string::npos);
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tclens::kernels
