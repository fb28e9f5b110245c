// Tests for app/worker/worker_mix.*: a kernel's instruction mix comes from the worker's hello
// where it carries mixes (the census of the worker's build), from this build's census where it
// carries none (an earlier tclens, a client build's worker) or no worker answered; and what a
// full build's worker puts in its hello.

#include "app/worker/worker_mix.h"

#include <gtest/gtest.h>

#include "kernels/instruction_mix.h"
#include "kernels/registry.h"
#include "profiling/built_in_mixes.h"

namespace tclens::worker {
namespace {

// A hello from an sm_90 GPU whose build planted a wmma.f16 mix no census has (HMMA 4242).
HelloResult hello_with_planted_mix() {
    HelloResult hello;
    profiling::DeviceFacts gpu;
    gpu.cc_major = 9;
    hello.system.devices = {gpu};
    kernels::InstructionMix mix;
    mix.arch = "sm_90a";
    mix.functions = 1;
    mix.counts[std::size_t(kernels::OpClass::kHmma)] = 4242;
    hello.mixes = WorkerMixes{{{"wmma.f16", 90, mix}}, ""};
    return hello;
}

TEST(WorkerMix, TheHellosMixIsPreferredAndSaysItIsTheWorkers) {
    const HelloResult hello = hello_with_planted_mix();
    const KernelMix mix = worker_mix(&hello, "wmma.f16", 90);
    ASSERT_TRUE(mix.mix);
    EXPECT_EQ((*mix.mix)[kernels::OpClass::kHmma], 4242);
    EXPECT_EQ(mix.missing, "");
    EXPECT_EQ(mix.line, "SASS of wmma.f16 (sm_90a, the worker's build): " +
                            kernels::instruction_mix_text(*mix.mix));

    std::string missing;
    const std::vector<profiling::RecordedInstructionMix> mixes =
        worker_mixes(&hello, {"wmma.f16", "cublas.f16", "wmma.f16"}, 90, missing);
    ASSERT_EQ(mixes.size(), 1u);
    EXPECT_EQ(mixes[0].mix[kernels::OpClass::kHmma], 4242);
    EXPECT_EQ(missing, "");
}

TEST(WorkerMix, WithoutTheHellosMixesThisBuildsCensusAnswers) {
    HelloResult earlier = hello_with_planted_mix();
    earlier.mixes.reset();  // a worker of an earlier tclens, or a client build's
    for (const HelloResult* hello :
         {static_cast<const HelloResult*>(nullptr), static_cast<const HelloResult*>(&earlier)}) {
        const KernelMix mix = worker_mix(hello, "wmma.f16", 86);
        const kernels::InstructionMix* census = kernels::instruction_mix("wmma.f16", 86);
        ASSERT_EQ(mix.mix.has_value(), census != nullptr);
        if (census) {
            EXPECT_EQ(mix.mix->counts, census->counts);
        }
        EXPECT_EQ(mix.missing, kernels::instruction_mix_missing("wmma.f16", 86));
        EXPECT_EQ(mix.line, kernels::instruction_mix_line("wmma.f16", 86));

        std::string missing;
        std::string census_missing;
        const auto mixes = worker_mixes(hello, {"wmma.f16", "wgmma_tma.f16"}, 86, missing);
        const auto expected =
            profiling::built_in_mixes({"wmma.f16", "wgmma_tma.f16"}, 86, census_missing);
        ASSERT_EQ(mixes.size(), expected.size());
        for (std::size_t i = 0; i < mixes.size(); ++i) {
            EXPECT_EQ(mixes[i].mix.counts, expected[i].mix.counts);
        }
        EXPECT_EQ(missing, census_missing);
    }
}

TEST(WorkerMix, AKernelTheHelloLacksSaysWhy) {
    HelloResult hello = hello_with_planted_mix();
    EXPECT_EQ(worker_mix(&hello, "cublas.f16", 90).line,
              "SASS of cublas.f16: cuBLAS: not our binary");
    const KernelMix other = worker_mix(&hello, "wgmma_tma.f16", 90);
    EXPECT_FALSE(other.mix);
    EXPECT_EQ(other.missing, "the worker's build has no SASS of it for sm_90");

    // A worker whose census is empty sends its reason, whatever this build's census holds.
    hello.mixes = WorkerMixes{{}, "this build had no cuobjdump"};
    EXPECT_EQ(worker_mix(&hello, "wmma.f16", 90).line,
              "SASS of wmma.f16: this build had no cuobjdump");
    std::string missing;
    EXPECT_TRUE(worker_mixes(&hello, {"cublas.f16", "wmma.f16"}, 90, missing).empty());
    EXPECT_EQ(missing, "this build had no cuobjdump");
}

TEST(WorkerMix, AWorkersHelloCarriesThisBuildsCensus) {
    const WorkerMixes sent = this_build_mixes(90);
    std::size_t with_mix = 0;
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) {
        const kernels::InstructionMix* census = kernels::instruction_mix(kernel.id, 90);
        const profiling::RecordedInstructionMix* told = profiling::find_mix(sent.mixes, kernel.id);
        ASSERT_EQ(told != nullptr, census != nullptr) << kernel.id;
        if (census == nullptr) continue;
        ++with_mix;
        EXPECT_EQ(told->sm, 90);
        EXPECT_EQ(told->mix.counts, census->counts) << kernel.id;
    }
    EXPECT_EQ(sent.mixes.size(), with_mix);
    EXPECT_EQ(sent.missing, with_mix == 0 ? kernels::census_missing() : "");
}

TEST(WorkerMix, TheSmIsTheFirstGpusElseAnH100s) {
    profiling::SystemReport system;
    EXPECT_EQ(mix_sm(system), kernels::kDefaultMixSm);
    profiling::DeviceFacts gpu;
    gpu.cc_major = 8;
    gpu.cc_minor = 6;
    system.devices = {gpu, profiling::DeviceFacts{}};
    EXPECT_EQ(mix_sm(system), 86);
}

}  // namespace
}  // namespace tclens::worker
