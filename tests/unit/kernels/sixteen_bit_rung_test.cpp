// Tests for kernels/sixteen_bit_rung.* and kernels/sixteen_bit_launch.*: the per-precision half
// of a 16-bit rung's descriptor and of its launch, and the refusing descriptor (and launch) a
// registry bug (another precision) gets.
#include "kernels/sixteen_bit_rung.h"

#include <gtest/gtest.h>

#include <utility>

#include "kernels/cuda_util.h"
#include "kernels/ladder.h"
#include "kernels/ladder_launches.h"
#include "kernels/sixteen_bit_launch.h"

namespace tclens::kernels {
namespace {

std::string can_run_any(const GemmProblem&) { return "can_run_any"; }
cudaError_t launch_f16(const GemmOperands&, cudaStream_t) { return cudaSuccess; }
cudaError_t launch_bf16(const GemmOperands&, cudaStream_t) { return cudaErrorNotReady; }

TEST(SixteenBitRung, NamesTheRungOfEachPrecision) {
    KernelDescriptor f16;
    ASSERT_TRUE(set_sixteen_bit_inputs(f16, Precision::kF16, "rung", can_run_any));
    EXPECT_EQ(f16.id, "rung.f16");
    EXPECT_EQ(f16.precision, Precision::kF16);
    EXPECT_EQ(f16.reference_id, "cublas.f16");
    EXPECT_EQ(f16.can_run({64, 64, 64}), "can_run_any");
    EXPECT_FALSE(f16.launch) << "the descriptor half attaches no launch";

    KernelDescriptor bf16;
    ASSERT_TRUE(set_sixteen_bit_inputs(bf16, Precision::kBF16, "rung", can_run_any));
    EXPECT_EQ(bf16.id, "rung.bf16");
    EXPECT_EQ(bf16.reference_id, "cublas.bf16");
}

// The launches are std::function: tell them apart by what they return.
TEST(SixteenBitRung, AttachesTheLaunchOfEachPrecision) {
    KernelDescriptor f16;
    f16.precision = Precision::kF16;
    attach_sixteen_bit_launch(f16, launch_f16, launch_bf16);
    EXPECT_EQ(as_cuda_error(f16.launch({}, nullptr)), cudaSuccess);

    KernelDescriptor bf16;
    bf16.precision = Precision::kBF16;
    attach_sixteen_bit_launch(bf16, launch_f16, launch_bf16);
    EXPECT_EQ(as_cuda_error(bf16.launch({}, nullptr)), cudaErrorNotReady);
}

TEST(SixteenBitRung, AnotherPrecisionGetsADescriptorThatRefusesEverything) {
    for (const Precision precision : {Precision::kF32, Precision::kTF32}) {
        KernelDescriptor d;
        d.id = "stale";
        EXPECT_FALSE(set_sixteen_bit_inputs(d, precision, "rung", can_run_any));
        EXPECT_EQ(d.id, "");
        EXPECT_EQ(d.can_run({4096, 4096, 4096}), "this rung takes f16 or bf16 inputs only");
        attach_sixteen_bit_launch(d, launch_f16, launch_bf16);
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

// The launch half of each split 16-bit rung, given the refusing descriptor, enqueues nothing.
TEST(SixteenBitRung, AnotherPrecisionsLaunchEnqueuesNothing) {
    using Attach = void (*)(KernelDescriptor&);
    const std::pair<KernelDescriptor, Attach> rungs[] = {
        {wmma_kernel(Precision::kF32), attach_wmma_launches},
        {mma_ldmatrix_xor_kernel(Precision::kTF32), attach_mma_ldmatrix_xor_launches},
        {mma_cp_async_kernel(Precision::kF32), attach_mma_cp_async_launches},
        {wgmma_tma_kernel(Precision::kTF32), attach_wgmma_tma_launches},
        {wgmma_warp_specialized_kernel(Precision::kF32), attach_wgmma_warp_specialized_launches},
        {wgmma_stream_k_kernel(Precision::kF32), attach_wgmma_stream_k_launches},
    };
    for (auto [d, attach] : rungs) {
        attach(d);
        EXPECT_EQ(as_cuda_error(d.launch(GemmOperands{}, nullptr)), cudaErrorInvalidValue);
        EXPECT_FALSE(d.traced.launch);
    }
}

}  // namespace
}  // namespace tclens::kernels
