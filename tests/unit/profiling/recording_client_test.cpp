// Tests for profiling/recording.* as a client without CUDA has it: this test links
// tclens_profiling_model alone (tests/CMakeLists.txt), so opening a shipped recording and reading
// back every part a view draws proves the client's build can do it.

#include <gtest/gtest.h>

#include <string>

#include "profiling/recording.h"

namespace tclens::profiling {
namespace {

TEST(RecordingClient, AShippedRecordingOpensWithTheModelAlone) {
    Recording recording;
    std::string error;
    ASSERT_TRUE(load_recording(std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz",
                               recording, error))
        << error;
    EXPECT_TRUE(recording.system.has_gpu());
    EXPECT_FALSE(recording.bench.empty());
    EXPECT_FALSE(recording.profiles.empty());
    EXPECT_FALSE(recording.timelines.empty());
    EXPECT_FALSE(recording.instruction_mixes.empty());
    ASSERT_FALSE(sources_of(recording).empty());
    EXPECT_GT(sources_of(recording).front().total_samples(), 0u);
    EXPECT_FALSE(traces_of(recording).empty());
}

}  // namespace
}  // namespace tclens::profiling
