#include "common/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_command.h"

namespace tclens::common {
namespace {

std::string read(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

TEST(AtomicFile, ReplacesTheTargetWhole) {
    const std::string path = test::temp_path("atomic.txt");
    ASSERT_EQ(write_bytes_atomically(path, "first"), "");
    ASSERT_EQ(write_bytes_atomically(path, "second, longer"), "");
    EXPECT_EQ(read(path), "second, longer");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::filesystem::remove(path);
}

TEST(AtomicFile, FailedWriterLeavesTheOldFileAndNoTemporary) {
    const std::string path = test::temp_path("keep.txt");
    ASSERT_EQ(write_bytes_atomically(path, "old"), "");
    const std::string error = write_file_atomically(path, [](const std::string& temporary) {
        std::ofstream(temporary) << "half a fi";
        return std::string("disk full");
    });
    EXPECT_EQ(error, "cannot write " + path + ": disk full");
    EXPECT_EQ(read(path), "old");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::filesystem::remove(path);
}

TEST(AtomicFile, MissingFolderIsOneLine) {
    const std::string path = test::temp_path("no_folder") + "/x.txt";
    const std::string error = write_bytes_atomically(path, "x");
    EXPECT_EQ(error.rfind("cannot write " + path + ": ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace tclens::common
