// The GPU registry (kernels/gpu_registry.h): the registry's kernels, in its order, each with its
// launch, and the traced launch exactly where the descriptor has trace points.
#include "kernels/gpu_registry.h"

#include <gtest/gtest.h>

#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

TEST(GpuRegistry, ListsTheRegistrysKernelsInItsOrder) {
    const std::vector<KernelDescriptor>& described = all_kernels();
    const std::vector<KernelDescriptor>& launchable = all_gpu_kernels();
    ASSERT_EQ(launchable.size(), described.size());
    for (std::size_t i = 0; i < described.size(); ++i) {
        EXPECT_EQ(launchable[i].id, described[i].id);
        EXPECT_EQ(launchable[i].rung, described[i].rung);
        EXPECT_EQ(launchable[i].precision, described[i].precision);
        EXPECT_EQ(find_gpu_kernel(described[i].id), &launchable[i]);
    }
    EXPECT_EQ(find_gpu_kernel("no.such.kernel"), nullptr);
}

TEST(GpuRegistry, EveryKernelHasItsLaunchAndTracedOnesTheirTracedLaunch) {
    for (const KernelDescriptor& k : all_gpu_kernels()) {
        SCOPED_TRACE(k.id);
        EXPECT_NE(k.launch, nullptr);
        EXPECT_EQ(k.traced.launch != nullptr, k.traced.traceable());
        EXPECT_EQ(k.traced.traceable(), find_kernel(k.id)->traced.traceable());
    }
}

// Rung 11's tile per problem (for_problem) comes with its launches too.
TEST(GpuRegistry, ThePersistentRungsTilePerProblemHasItsLaunches) {
    for (const char* id : {"wgmma_persistent.f16", "wgmma_persistent.bf16"}) {
        SCOPED_TRACE(id);
        const KernelDescriptor& d = *find_gpu_kernel(id);
        ASSERT_NE(d.for_problem, nullptr);
        for (const GemmProblem& p :
             {GemmProblem{3072, 3072, 3072}, GemmProblem{4096, 4096, 4096}}) {
            const KernelDescriptor chosen = d.for_problem(p, 132);
            EXPECT_NE(chosen.launch, nullptr);
            EXPECT_NE(chosen.traced.launch, nullptr);
        }
    }
}

// The registry's descriptors describe only: their launches live in the CUDA layer.
TEST(GpuRegistry, TheRegistrysDescriptorsHaveNoLaunch) {
    for (const KernelDescriptor& k : all_kernels()) {
        EXPECT_EQ(k.launch, nullptr) << k.id;
        EXPECT_EQ(k.traced.launch, nullptr) << k.id;
    }
    EXPECT_TRUE(find_kernel("mma_cp_async.f16")->traced.traceable());
}

}  // namespace
}  // namespace tclens::kernels
