// Tests for app/worker/watched_file.*: when a poll of a user's file is a new save (version).

#include "app/worker/watched_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "tests/support/run_command.h"

namespace tclens::worker {
namespace {

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

class WatchedFileTest : public ::testing::Test {
  protected:
    void TearDown() override { std::remove(path_.c_str()); }
    std::string path_ = test::temp_path("watched.cu");
};

TEST_F(WatchedFileTest, AFileIsTakenOnceItsStampHasSettledForOnePoll) {
    write(path_, "v1");
    WatchedFile file(path_);
    EXPECT_FALSE(file.poll()) << "the first look has nothing to compare with";
    const auto first = file.poll();
    ASSERT_TRUE(first);
    EXPECT_EQ(*first, "v1");
    EXPECT_NE(file.taken_mtime_ns(), 0);
    EXPECT_FALSE(file.poll()) << "the same save is no new version";
}

TEST_F(WatchedFileTest, AnEditIsANewVersionAndASaveWithoutAChangeIsNot) {
    write(path_, "v1");
    WatchedFile file(path_);
    file.poll();
    ASSERT_TRUE(file.poll());
    write(path_, "version two");  // another size: another stamp
    EXPECT_FALSE(file.poll()) << "an editor may still be writing";
    const auto second = file.poll();
    ASSERT_TRUE(second);
    EXPECT_EQ(*second, "version two");
    // Written again with the same text: the stamp moves (size the same, time may not), the text
    // does not.
    usleep(20'000);
    write(path_, "version two");
    file.poll();
    EXPECT_FALSE(file.poll());
}

TEST_F(WatchedFileTest, TheBuiltTextCountsAsTheLastVersion) {
    write(path_, "built");
    WatchedFile file(path_, std::string("built"));
    EXPECT_FALSE(file.poll());
    EXPECT_FALSE(file.poll());
    write(path_, "edited");
    file.poll();
    const auto edited = file.poll();
    ASSERT_TRUE(edited);
    EXPECT_EQ(*edited, "edited");
}

TEST_F(WatchedFileTest, AMissingFileIsNoSaveAndSaysSo) {
    WatchedFile file(path_);
    EXPECT_FALSE(file.poll());
    EXPECT_FALSE(file.poll());
    EXPECT_TRUE(file.missing());
    write(path_, "now");
    file.poll();
    EXPECT_FALSE(file.missing());
    EXPECT_TRUE(file.poll());
    EXPECT_FALSE(read_file_text(path_ + ".not-there"));
}

}  // namespace
}  // namespace tclens::worker
