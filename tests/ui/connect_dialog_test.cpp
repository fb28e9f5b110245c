// File > Connect to GPU server... (app/gui/shell/connect_dialog.h), driven as scripts drive it
// (`--set connect.to=HOST`, the dialog's Connect) in the windowless GUI (`tclens headless`, the
// same shell, whose --text waits for the jobs): a hostile host is refused in one line and ssh never
// starts; a host is reached through the system's ssh (a stand-in first on PATH that starts the
// scripted worker, whose hello names a GPU no machine has), the status bar names host and GPU, and
// the host joins the recent servers in the config folder, most recent first.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;
using test::kTclens;

// A folder with an `ssh` that marks that it ran and starts the scripted worker, whatever it is
// asked (the host is not reached: the GUI's side of the link is what is tested), but refuses the
// host gpu-down as ssh does (exit 255), and a config folder of its own.
class FakeSsh {
  public:
    FakeSsh() : dir_(test::temp_path("connect_dialog")) {
        fs::remove_all(dir_);
        fs::create_directories(dir_ + "/bin");
        fs::create_directories(dir_ + "/config");
        const std::string ssh = dir_ + "/bin/ssh";
        std::ofstream(ssh) << "#!/bin/sh\ntouch " << ran() << "\n"
                           << "for a; do [ \"$a\" = gpu-down ] && { echo 'ssh: connect to host "
                              "gpu-down port 22: Connection refused' >&2; exit 255; }; done\n"
                           << "exec env " << test::scripted_gpu_worker("SCRIPTED_WORKER=none")
                           << "\n";
        chmod(ssh.c_str(), 0755);
    }
    ~FakeSsh() { fs::remove_all(dir_); }

    // `tclens headless ARGS --frames 3 --text F` with this ssh and config folder; the words drawn.
    std::string gui(const std::string& args, test::CommandResult& result) const {
        const std::string text = dir_ + "/text.txt";
        fs::remove(text);
        result = test::run_command(
            "env -u DISPLAY PATH=" + dir_ + "/bin:$PATH XDG_CONFIG_HOME=" + dir_ + "/config " +
            kTclens + " headless --view device " + args + " --frames 3 --text " + text);
        return test::read_file(text);
    }
    std::string ran() const { return dir_ + "/ssh_ran"; }
    std::string recent() const {
        return test::read_file(dir_ + "/config/tclens/recent_gpu_servers");
    }

  private:
    std::string dir_;
};

TEST(ConnectDialog, AHostileHostIsRefusedInOneLineAndSshNeverStarts) {
    const FakeSsh ssh;
    for (const char* hostile :
         {"-oProxyCommand=sh", "'gpu1;rm -rf ~'", "'gpu1:$(id)'", "user@-x", "'gpu1:`id`'"}) {
        test::CommandResult result;
        ssh.gui(std::string("--set connect.to=") + hostile, result);
        EXPECT_EQ(result.exit_code, 2) << hostile << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << hostile << "\n" << result.err;
        EXPECT_TRUE(test::contains(result.err, "tclens: --set connect.to: '")) << result.err;
    }
    EXPECT_FALSE(fs::exists(ssh.ran()));
    EXPECT_EQ(ssh.recent(), "");
}

TEST(ConnectDialog, AHostIsReachedThroughSshAndTheStatusBarNamesItAndItsGpu) {
    const FakeSsh ssh;
    test::CommandResult result;
    const std::string words = ssh.gui("--set connect.to=student@gpu-a", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(fs::exists(ssh.ran()));
    EXPECT_TRUE(test::contains(words,
                               "== status ==\nGPU on student@gpu-a (ssh): Scripted H999 | "
                               "sm_90 | 999 SMs"))
        << words;
    EXPECT_EQ(ssh.recent(), "student@gpu-a\n");
    ssh.gui("--set connect.to=gpu-b:/opt/tclens/bin/tclens", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(ssh.recent(), "gpu-b:/opt/tclens/bin/tclens\nstudent@gpu-a\n");
    ssh.gui("--set connect.to=student@gpu-a", result);
    EXPECT_EQ(ssh.recent(), "student@gpu-a\ngpu-b:/opt/tclens/bin/tclens\n");
}

// A host ssh cannot reach: the status bar names it with the link's one line, and the GUI goes on.
TEST(ConnectDialog, AHostThatCannotBeReachedIsOneLineInTheStatusBar) {
    const FakeSsh ssh;
    test::CommandResult result;
    const std::string words = ssh.gui("--set connect.to=gpu-down", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // It goes on as without a GPU: the shipped recording is shown, then the line.
    EXPECT_TRUE(test::contains(words,
                               "(recorded, not live) | GPU on gpu-down (ssh): none (cannot "
                               "reach gpu-down: ssh: connect to host gpu-down port 22: "
                               "Connection refused)\n"))
        << words;
}

// "This machine" (connect.to with no host) after a host: the worker runs here, ssh never starts
// and the status bar names no host.
TEST(ConnectDialog, ThisMachineTakesTheWorkerBack) {
    const FakeSsh ssh;
    test::CommandResult result;
    const std::string words = ssh.gui("--set connect.to=gpu-a --set connect.to=", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_FALSE(fs::exists(ssh.ran()));
    EXPECT_TRUE(test::contains(words, "== status ==")) << words;
    EXPECT_FALSE(test::contains(words, "GPU on ")) << words;
    EXPECT_FALSE(test::contains(words, "querying the GPU")) << words;
}

}  // namespace
}  // namespace tclens
