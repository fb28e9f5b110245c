// `tclens record` on a GPU carries each kernel's SASS instruction mix (profiling/recorded_mix.h):
// the mix of this build's census for the GPU's cubin, so a laptop opening the recording shows the
// same Instruction mix; a build without a census says why in the file; a kernel of yours, the mix
// of the cubin the worker built; and every part whole: for each kernel (rungs, their cuBLAS
// references, a kernel of yours) a source profile with instructions, PC samples and counts, a
// profile and a timeline, and a trace of each traced rung. Skips without a GPU, and when the
// counters cannot be read (record needs them), saying so.

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "kernels/instruction_mix.h"
#include "profiling/recording.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

// `tclens record FILE ARGUMENTS`, and the recording it wrote read back (the file removed). When
// the counters cannot be read (exit 3) returns nullopt with `skip` set to why; other failures are
// test failures and nullopt.
std::optional<profiling::Recording> record(const std::string& arguments, std::string& skip) {
    const std::string path = test::temp_path("record_mix.json");
    const auto result = test::run_command(kTclens + " record " + path + " " + arguments);
    if (result.exit_code == 3) {
        skip = result.err;
        return std::nullopt;
    }
    EXPECT_EQ(result.exit_code, 0) << result.err;
    profiling::Recording recording;
    std::string error;
    const bool loaded = profiling::load_recording(path, recording, error);
    EXPECT_TRUE(loaded) << error;
    std::filesystem::remove(path);
    if (result.exit_code != 0 || !loaded) return std::nullopt;
    return recording;
}

TEST(RecordCommandOnGpu, TheRecordingCarriesEachKernelsInstructionMix) {
    TCLENS_REQUIRE_GPU();
    std::string skip;
    const auto recorded_file =
        record("--kernels wmma.f16,mma_cp_async.f16 --mnk 512x512x512 --no-timelines", skip);
    if (!skip.empty()) GTEST_SKIP() << "skipped: " << skip;
    ASSERT_TRUE(recorded_file);
    const profiling::Recording& recording = *recorded_file;
    const profiling::DeviceFacts& gpu = recording.system.devices.at(0);
    const int sm = gpu.cc_major * 10 + gpu.cc_minor;
    for (const char* id : {"wmma.f16", "mma_cp_async.f16"}) {
        SCOPED_TRACE(id);
        const kernels::InstructionMix* census = kernels::instruction_mix(id, sm);
        const profiling::RecordedInstructionMix* recorded =
            profiling::find_mix(recording.instruction_mixes, id);
        if (census == nullptr) {  // this build has no census for the GPU: the file says why
            EXPECT_EQ(recorded, nullptr);
            EXPECT_EQ(recording.instruction_mixes_missing,
                      kernels::instruction_mix_missing(id, sm));
            continue;
        }
        ASSERT_NE(recorded, nullptr);
        EXPECT_EQ(recorded->sm, sm);
        EXPECT_EQ(recorded->mix.arch, census->arch);
        EXPECT_EQ(recorded->mix.counts, census->counts);
        EXPECT_GT(recorded->mix[kernels::OpClass::kHmma], 0);  // both rungs use mma.sync / wmma
    }
    EXPECT_EQ(profiling::find_mix(recording.instruction_mixes, "cublas.f16"), nullptr);
}

// A kernel of yours (--kernel) runs only in a worker: its mix is the one the worker's load read
// from the cubin it built (profiling/source/cubin_mix.h).
TEST(RecordCommandOnGpu, AKernelOfYoursCarriesTheMixOfItsCubin) {
    TCLENS_REQUIRE_GPU();
    std::string skip;
    const auto recorded_file =
        record(std::string("--kernel ") + TCLENS_EXAMPLES_DIR +
                   "/matmul_tensor.cu --mnk 512x512x512 --no-timelines --no-sources --no-traces",
               skip);
    if (!skip.empty()) GTEST_SKIP() << "skipped: " << skip;
    ASSERT_TRUE(recorded_file);
    const profiling::Recording& recording = *recorded_file;
    const profiling::DeviceFacts& gpu = recording.system.devices.at(0);
    const profiling::RecordedInstructionMix* recorded =
        profiling::find_mix(recording.instruction_mixes, "yours.matmul_tensor");
    ASSERT_NE(recorded, nullptr) << recording.instruction_mixes_missing;
    EXPECT_EQ(recorded->sm, gpu.cc_major * 10 + gpu.cc_minor);
    EXPECT_GT(recorded->mix[kernels::OpClass::kHmma], 0);  // its mma.sync
}

TEST(RecordCommandOnGpu, EveryKernelGetsItsSourceProfileWithSamplesAndCounts) {
    TCLENS_REQUIRE_GPU();
    std::string skip;
    const auto recorded_file =
        record(std::string("--kernels smem_tiled.f32,mma_cp_async.f16,wgmma_ws.bf16 --kernel ") +
                   TCLENS_EXAMPLES_DIR + "/matmul_tensor.cu --mnk 1024x1024x1024 --timeline-ms 100",
               skip);
    if (!skip.empty()) GTEST_SKIP() << "skipped: " << skip;
    ASSERT_TRUE(recorded_file);  // exit 0: no part is missing
    const profiling::Recording& recording = *recorded_file;
    std::set<std::string> sourced;
    for (const profiling::SourceProfile& source : recording.sources) {
        sourced.insert(source.kernel_id);
        EXPECT_TRUE(source.ok()) << source.kernel_id << ": " << source.error.message;
        EXPECT_FALSE(source.instructions.empty()) << source.kernel_id;
        EXPECT_GT(source.total_samples(), 0u)
            << source.kernel_id << ": " << source.sampling_missing;
        std::uint64_t executed = 0;
        for (const profiling::InstructionProfile& instruction : source.instructions)
            executed += instruction.executed;
        EXPECT_GT(executed, 0u) << source.kernel_id << ": " << source.counters_missing;
    }
    for (const char* kernel : {"smem_tiled.f32", "mma_cp_async.f16", "wgmma_ws.bf16",
                               "yours.matmul_tensor", "cublas.f16"}) {
        EXPECT_EQ(sourced.count(kernel), 1u) << kernel;
    }
    EXPECT_EQ(recording.profiles.size(), recording.sources.size());
    EXPECT_EQ(recording.timelines.size(), recording.sources.size());
    std::set<std::string> traced;
    for (const viz::WarpTrace& trace : recording.traces) traced.insert(trace.kernel);
    EXPECT_EQ(traced, (std::set<std::string>{"mma_cp_async.f16", "wgmma_ws.bf16"}))
        << recording.traces_missing;
}

}  // namespace
}  // namespace tclens
