#pragma once
// A recording saved to a temporary file of this test process for a test that opens it, removed
// again when it goes out of scope.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "profiling/recording.h"
#include "tests/support/run_command.h"

namespace tclens::test {

class RecordingFile {
  public:
    explicit RecordingFile(const profiling::Recording& recording)
        : path_(temp_path("recording_" + std::to_string(next()) + ".json")) {
        EXPECT_EQ(profiling::save_recording(path_, recording), "");
    }
    ~RecordingFile() { std::remove(path_.c_str()); }
    RecordingFile(const RecordingFile&) = delete;
    RecordingFile& operator=(const RecordingFile&) = delete;
    const std::string& path() const { return path_; }

  private:
    static int next() {
        static std::atomic<int> count{0};
        return count++;
    }
    std::string path_;
};

}  // namespace tclens::test
