// Tests for app/worker/gpu_turns.*: turns on one GPU between processes (forked here), in ticket
// order, released by a holder's death, with the folder and files every user can use; and for
// app/worker/gpu_turn_wait.* (the worker's side), which shares their holders.

#include "app/worker/gpu_turns.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <vector>

#include "app/worker/gpu_turn_wait.h"
#include "app/worker/messages.h"
#include "tests/support/run_command.h"

namespace tclens::worker {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kKey = "0000:06:00.0";  // its files are named 0000_06_00.0.*

// One line from `fd` ("" after 2 s or at its end).
std::string read_line(int fd) {
    std::string line;
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 2000) == 1) {
        char c = 0;
        if (::read(fd, &c, 1) != 1 || c == '\n') break;
        line += c;
    }
    return line;
}

void say(int fd, const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The ticket files of kKey in `folder`.
int tickets_in(const std::string& folder) {
    int n = 0;
    for (const auto& entry : fs::directory_iterator(folder))
        n += entry.path().filename().string().rfind("0000_06_00.0.t.", 0) == 0;
    return n;
}

class GpuTurnsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        options_.folder = test::temp_path("gpu-turns");
        options_.report_s = 0.05;
        ASSERT_EQ(pipe(said_), 0);
        ASSERT_EQ(pipe(go_), 0);
    }
    void TearDown() override {
        for (const pid_t pid : children_) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        for (const int fd : {said_[0], said_[1], go_[0], go_[1]}) close(fd);
        fs::remove_all(options_.folder);
    }

    // A child process that runs `body` and exits with its result.
    pid_t child(const std::function<int()>& body) {
        const pid_t pid = fork();
        if (pid == 0) _exit(body());
        children_.push_back(pid);
        return pid;
    }

    // A child that takes the turn, says "held", and gives it back (staying alive) once told to;
    // it exits when `go_` closes.
    pid_t holder() {
        const pid_t pid = child([this] {
            {
                GpuTurn turn;
                if (!turn.take(
                             kKey, [](const TurnPlace&) { return true; }, options_)
                         .empty())
                    return 1;
                say(said_[1], "held");
                read_line(go_[0]);
            }
            read_line(go_[0]);
            return 0;
        });
        EXPECT_EQ(read_line(said_[0]), "held");
        return pid;
    }

    TurnOptions options_;
    int said_[2] = {-1, -1};  // children -> the test
    int go_[2] = {-1, -1};    // the test -> children
    std::vector<pid_t> children_;
};

TEST_F(GpuTurnsTest, AFreeTurnIsTakenAtOnceInAFolderAndFileEveryUserCanUse) {
    const mode_t old_umask = umask(077);
    GpuTurn turn;
    const std::string error = turn.take(
        kKey, [](const TurnPlace&) { return ADD_FAILURE(), true; }, options_);
    umask(old_umask);
    ASSERT_EQ(error, "");
    EXPECT_TRUE(turn.held());
    struct stat st {};
    ASSERT_EQ(lstat(options_.folder.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 01777u) << "like /tmp: everyone writes, only owners remove";
    const std::string lock = options_.folder + "/0000_06_00.0.lock";
    EXPECT_EQ(gpu_turn_lock_file(kKey, options_.folder), lock);
    ASSERT_EQ(stat(lock.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666u) << "whatever the umask";
    int holder = 0;
    std::ifstream(lock) >> holder;
    EXPECT_EQ(holder, getpid()) << "the lock file names its holder";
    EXPECT_EQ(tickets_in(options_.folder), 0) << "the holder's ticket is gone";
}

TEST_F(GpuTurnsTest, ASecondWaiterIsNextInLineNamesTheHolderAndGetsTheTurnWhenItIsGivenBack) {
    const pid_t first = holder();
    std::vector<TurnPlace> seen;
    GpuTurn turn;
    const std::string error = turn.take(
        kKey,
        [&](const TurnPlace& place) {
            seen.push_back(place);
            if (seen.size() == 1) say(go_[1], "release");
            return true;
        },
        options_);
    ASSERT_EQ(error, "");
    EXPECT_TRUE(turn.held());
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.front().place, 1);
    EXPECT_EQ(seen.front().holder_pid, first);
    EXPECT_EQ(waitpid(first, nullptr, WNOHANG), 0) << "given back by the turn's end, not an exit";
}

TEST_F(GpuTurnsTest, AHolderKilledWithSigkillGivesTheTurnBackAtOnce) {
    const pid_t first = holder();
    kill(first, SIGKILL);
    waitpid(first, nullptr, 0);
    const Clock::time_point start = Clock::now();
    int waits = 0;
    GpuTurn turn;
    ASSERT_EQ(turn.take(
                  kKey, [&](const TurnPlace&) { return ++waits, true; }, options_),
              "");
    EXPECT_EQ(waits, 0);
    EXPECT_LT(seconds_since(start), 0.2);
}

TEST_F(GpuTurnsTest, ThreeWaitersGetTheTurnInTicketOrderEachKnowingItsPlace) {
    holder();  // a child: a forked waiter would inherit this process's lock
    for (int k = 0; k < 3; ++k) {
        child([this, k] {
            bool told = false;
            GpuTurn mine;
            const std::string error = mine.take(
                kKey,
                [&](const TurnPlace& place) {
                    if (!told) say(said_[1], "w" + std::to_string(place.place));
                    told = true;
                    return true;
                },
                options_);
            say(said_[1], "g" + std::to_string(k));
            usleep(20000);
            return error.empty() ? 0 : 1;
        });
        EXPECT_EQ(read_line(said_[0]), "w" + std::to_string(k + 1));
    }
    say(go_[1], "release");
    for (int k = 0; k < 3; ++k) EXPECT_EQ(read_line(said_[0]), "g" + std::to_string(k));
}

TEST_F(GpuTurnsTest, AStaleTicketOfADeadWaiterIsSkippedAndRemoved) {
    ASSERT_TRUE(fs::create_directories(options_.folder));
    const std::string stale = options_.folder + "/0000_06_00.0.t.00000000000000000001.0000099999";
    std::ofstream(stale) << "";
    int waits = 0;
    GpuTurn turn;
    ASSERT_EQ(turn.take(
                  kKey, [&](const TurnPlace&) { return ++waits, true; }, options_),
              "");
    EXPECT_EQ(waits, 0);
    EXPECT_FALSE(fs::exists(stale));
}

TEST_F(GpuTurnsTest, AWaitCancelledLeavesTheQueueWithoutTheTurn) {
    holder();
    GpuTurn turn;
    EXPECT_EQ(turn.take(
                  kKey, [](const TurnPlace&) { return false; }, options_),
              "cancelled");
    EXPECT_FALSE(turn.held());
    EXPECT_EQ(tickets_in(options_.folder), 0);
}

TEST_F(GpuTurnsTest, SymlinksAreRefusedForTheFolderAndItsFiles) {
    const std::string real = test::temp_path("gpu-turns-real");
    ASSERT_TRUE(fs::create_directories(real));
    fs::create_directory_symlink(real, options_.folder);
    GpuTurn turn;
    const auto never = [](const TurnPlace&) { return true; };
    EXPECT_NE(turn.take(kKey, never, options_).find("is a symlink: refused"), std::string::npos);
    fs::remove(options_.folder);
    ASSERT_TRUE(fs::create_directories(options_.folder));
    fs::create_symlink(real + "/elsewhere", options_.folder + "/0000_06_00.0.lock");
    EXPECT_NE(turn.take(kKey, never, options_).find("cannot open"), std::string::npos);
    EXPECT_FALSE(fs::exists(real + "/elsewhere"));
    fs::remove_all(real);
}

TEST_F(GpuTurnsTest, TurnsOffTakesNothingAndNeverWaits) {
    holder();
    setenv("TCLENS_GPU_TURNS", "off", 1);
    GpuTurn turn;
    const std::string error = turn.take(
        kKey, [](const TurnPlace&) { return ADD_FAILURE(), true; }, options_);
    unsetenv("TCLENS_GPU_TURNS");
    EXPECT_EQ(error, "");
    EXPECT_FALSE(turn.held());
}

profiling::SystemReport one_gpu() {
    profiling::DeviceFacts gpu;
    gpu.name = "NVIDIA H200";
    gpu.pci_bus_id = kKey;
    profiling::SystemReport system;
    system.devices = {gpu};
    return system;
}

TEST_F(GpuTurnsTest, AWorkerWithoutAGpuTakesNoTurnAndSaysNothing) {
    Replier reply(said_[1], 7);
    GpuTurn turn;
    EXPECT_TRUE(wait_for_gpu_turn(profiling::SystemReport{}, reply, turn, options_));
    EXPECT_FALSE(turn.held());
    EXPECT_FALSE(fs::exists(options_.folder));
    EXPECT_FALSE(reply.answered());
}

TEST_F(GpuTurnsTest, AWaitingWorkerSaysWaitWithItsPlaceUntilTheTurnIsItsOwn) {
    const pid_t first = holder();
    int out[2] = {-1, -1};
    ASSERT_EQ(pipe(out), 0);
    Replier reply(out[1], 7);
    GpuTurn turn;
    std::thread release([this] {  // the holder gives it back while the worker waits
        usleep(200000);
        say(go_[1], "release");
    });
    ASSERT_TRUE(wait_for_gpu_turn(one_gpu(), reply, turn, options_));
    release.join();
    EXPECT_TRUE(turn.held());
    EXPECT_FALSE(reply.answered());
    close(out[1]);
    const std::string line = read_line(out[0]);
    close(out[0]);
    std::string error;
    const auto message = decode_message(line, error);
    ASSERT_TRUE(message) << error;
    EXPECT_EQ(message->id, 7);
    EXPECT_EQ(message->progress.stage, "wait");
    EXPECT_EQ(message->progress.text.rfind(
                  "waiting for the GPU (NVIDIA H200, " + std::string(kKey) + "): next in line", 0),
              0u)
        << message->progress.text;
    EXPECT_NE(message->progress.text.find("held by pid " + std::to_string(first)),
              std::string::npos)
        << message->progress.text;
    EXPECT_GT(message->progress.allow_s, kWaitReportS);
}

TEST_F(GpuTurnsTest, AWorkerWhoseClientWentAwayLeavesTheLine) {
    holder();
    int out[2] = {-1, -1};
    ASSERT_EQ(pipe(out), 0);
    close(out[0]);  // the client is gone
    Replier reply(out[1], 7);
    GpuTurn turn;
    EXPECT_FALSE(wait_for_gpu_turn(one_gpu(), reply, turn, options_));
    close(out[1]);
    EXPECT_FALSE(turn.held());
    EXPECT_TRUE(reply.client_gone());
    EXPECT_EQ(tickets_in(options_.folder), 0);
}

TEST(GpuTurnWaitText, SaysThePlaceAndTheHolderWhenKnown) {
    TurnPlace place{2, 1234, "ana", 12.7, 3};
    EXPECT_EQ(turn_wait_text("NVIDIA H200, 0000:06:00.0", place),
              "waiting for the GPU (NVIDIA H200, 0000:06:00.0): 2nd in line, held by pid 1234 "
              "(ana) for 12 s");
    EXPECT_EQ(turn_wait_text("GPU 0", TurnPlace{}), "waiting for the GPU (GPU 0): next in line");
    place.place = 12;
    EXPECT_NE(turn_wait_text("GPU 0", place).find("12th in line"), std::string::npos);
}

}  // namespace
}  // namespace tclens::worker
