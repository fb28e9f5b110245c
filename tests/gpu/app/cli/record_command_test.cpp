// `tclens record` on a GPU carries each kernel's SASS instruction mix (profiling/recorded_mix.h):
// the mix of this build's census for the GPU's cubin, so a laptop opening the recording shows the
// same Instruction mix; a build without a census says why in the file; a kernel of yours, the mix
// of the cubin the worker built. Skips without a GPU, and when the counters cannot be read
// (record needs them), saying so.

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
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

}  // namespace
}  // namespace tclens
