// Tests for kernels/sixteen_bit_rung.*: the per-precision half of a 16-bit rung's descriptor,
// and the refusing descriptor a registry bug (another precision) gets.
#include "kernels/sixteen_bit_rung.h"

#include <gtest/gtest.h>

#include "kernels/cuda_util.h"
#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

std::string can_run_any(const GemmProblem&) { return "can_run_any"; }
cudaError_t launch_f16(const GemmOperands&, cudaStream_t) { return cudaSuccess; }
cudaError_t launch_bf16(const GemmOperands&, cudaStream_t) { return cudaErrorNotReady; }

TEST(SixteenBitRung, NamesTheRungAndPicksTheLaunchOfEachPrecision) {
    KernelDescriptor f16;
    ASSERT_TRUE(
        set_sixteen_bit_inputs(f16, Precision::kF16, "rung", can_run_any, launch_f16, launch_bf16));
    EXPECT_EQ(f16.id, "rung.f16");
    EXPECT_EQ(f16.precision, Precision::kF16);
    EXPECT_EQ(f16.reference_id, "cublas.f16");
    // The launch and can_run are std::function: tell them apart by what they return.
    EXPECT_EQ(as_cuda_error(f16.launch({}, nullptr)), cudaSuccess);
    EXPECT_EQ(f16.can_run({64, 64, 64}), "can_run_any");

    KernelDescriptor bf16;
    ASSERT_TRUE(set_sixteen_bit_inputs(bf16, Precision::kBF16, "rung", can_run_any, launch_f16,
                                       launch_bf16));
    EXPECT_EQ(bf16.id, "rung.bf16");
    EXPECT_EQ(bf16.reference_id, "cublas.bf16");
    EXPECT_EQ(as_cuda_error(bf16.launch({}, nullptr)), cudaErrorNotReady);
}

TEST(SixteenBitRung, AnotherPrecisionGetsADescriptorThatRefusesEverything) {
    for (const Precision precision : {Precision::kF32, Precision::kTF32}) {
        KernelDescriptor d;
        d.id = "stale";
        EXPECT_FALSE(
            set_sixteen_bit_inputs(d, precision, "rung", can_run_any, launch_f16, launch_bf16));
        EXPECT_EQ(d.id, "");
        EXPECT_EQ(d.can_run({4096, 4096, 4096}), "this rung takes f16 or bf16 inputs only");
        EXPECT_EQ(as_cuda_error(d.launch({}, nullptr)), cudaErrorInvalidValue);
    }
    // Every 16-bit rung goes through it.
    for (const KernelDescriptor& d :
         {wmma_kernel(Precision::kF32), mma_ldmatrix_xor_kernel(Precision::kTF32),
          mma_cp_async_kernel(Precision::kF32), wgmma_tma_kernel(Precision::kF32),
          wgmma_warp_specialized_kernel(Precision::kTF32),
          wgmma_persistent_kernel(Precision::kF32)}) {
        EXPECT_EQ(d.id, "");
        EXPECT_EQ(d.can_run({64, 64, 64}), "this rung takes f16 or bf16 inputs only");
    }
}

}  // namespace
}  // namespace tclens::kernels
