// Tests for app/worker/line_io.*: whole lines out of partial reads, the deadline, a stop flag,
// the end of the stream, lines over the limit skipped, and a write to a closed pipe that
// returns false instead of killing the process with SIGPIPE.

#include "app/worker/line_io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace tclens::worker {
namespace {

struct Pipe {
    int read_end = -1;
    int write_end = -1;
    Pipe() {
        int fds[2];
        EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
        read_end = fds[0];
        write_end = fds[1];
    }
    ~Pipe() {
        close_write();
        if (read_end >= 0) close(read_end);
    }
    void close_write() {
        if (write_end >= 0) close(write_end);
        write_end = -1;
    }
    void put(const std::string& bytes) const {
        ASSERT_EQ(write(write_end, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    }
};

TEST(LineIo, LinesComeWholeWhateverTheReadsCut) {
    Pipe pipe;
    LineReader reader(pipe.read_end, 100);
    pipe.put("first\nsec");
    std::string line;
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "first");
    pipe.put("ond\n\nthird\n");
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "second");
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "");
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "third");
    pipe.put("partial");
    pipe.close_write();
    EXPECT_EQ(reader.read_line(line), LineReader::Status::kEnd);
}

TEST(LineIo, TheDeadlinePassesWithoutALineAndAFollowingCallGoesOn) {
    Pipe pipe;
    LineReader reader(pipe.read_end, 100);
    pipe.put("half");
    std::string line;
    const auto start = Clock::now();
    EXPECT_EQ(reader.read_line(line, start + std::chrono::milliseconds(150)),
              LineReader::Status::kTimeout);
    const auto waited = Clock::now() - start;
    EXPECT_GE(waited, std::chrono::milliseconds(140));
    EXPECT_LT(waited, std::chrono::seconds(2));
    pipe.put(" done\n");
    ASSERT_EQ(reader.read_line(line, Clock::now() + std::chrono::seconds(5)),
              LineReader::Status::kLine);
    EXPECT_EQ(line, "half done");
}

TEST(LineIo, AStopFlagEndsTheWaitSoon) {
    Pipe pipe;
    LineReader reader(pipe.read_end, 100);
    std::atomic<bool> stop{false};
    std::thread setter([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        stop = true;
    });
    std::string line;
    const auto start = Clock::now();
    EXPECT_EQ(reader.read_line(line, std::nullopt, &stop), LineReader::Status::kStopped);
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
    setter.join();
}

TEST(LineIo, ALineOverTheLimitIsReportedOnceAndSkipped) {
    Pipe pipe;
    LineReader reader(pipe.read_end, 8);
    pipe.put("0123456789abcdef\nok\n");
    std::string line;
    EXPECT_EQ(reader.read_line(line), LineReader::Status::kTooLong);
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "ok");
    pipe.put("exactly8\n");
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "exactly8");
}

TEST(LineIo, WritingToAClosedPipeFailsWithoutSigpipe) {
    Pipe pipe;
    close(pipe.read_end);
    pipe.read_end = -1;
    // SIGPIPE's default action would end this test process here.
    EXPECT_FALSE(write_line(pipe.write_end, "nobody listens"));
    EXPECT_FALSE(write_line(pipe.write_end, "still nobody"));
}

TEST(LineIo, WriteLineEndsEachLine) {
    Pipe pipe;
    ASSERT_TRUE(write_line(pipe.write_end, "a"));
    ASSERT_TRUE(write_line(pipe.write_end, "b c"));
    LineReader reader(pipe.read_end, 100);
    std::string line;
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "a");
    ASSERT_EQ(reader.read_line(line), LineReader::Status::kLine);
    EXPECT_EQ(line, "b c");
}

}  // namespace
}  // namespace tclens::worker
