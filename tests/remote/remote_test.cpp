// `--remote` end to end, with no GPU (CI): through a pipe (`--worker "<tclens> worker"`) and
// through a real ssh to an sshd that ssh_fixture.sh starts on 127.0.0.1 with keys it makes.
// Every GPU subcommand answers "no GPU on <host>" in one line with exit 3; every fault of the
// link is one line with its exit code; a hostile --remote value is refused before ssh starts.
// Without sshd or ssh the ssh tests are reported skipped ("skipped: no sshd (...)"), never passed.
// The remote command gets a login environment, not ours: the tclens it runs is named by its
// absolute path, and what a test needs there (a fault) is played by a script at that path.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/worker/client.h"
#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"

namespace tclens::test {
namespace {

constexpr int kSkipped = 77;  // ssh_fixture.sh: this machine cannot run sshd

const std::string kHost = "tclens-test-host";
const std::string kKernel = kSource + "/examples/matmul_tensor.cu";
const std::string kExercise = kSource + "/examples/exercise_mma.cu";

// The GPU subcommands, as run against any worker (after `tclens`, before the worker's option).
// With --remote the host is asked for its GPU before anything is compiled.
const std::vector<std::string> kGpuCommands = {
    "bench --kernel " + kKernel,     "bench --kernels naive_fma.f32 --mnk 64x64x64",
    "profile --kernel " + kKernel,   "profile --kernel naive_fma.f32",
    "exercise " + kExercise,         "banks --swizzle xor --pattern ldmatrix.x4 --measure",
    "layout ldmatrix.x4 --verify",   "profile --kernel naive_fma.f32 --timeline",
    "trace --clock-skew --rounds 3",
};

void write_script(const std::string& path, const std::string& text) {
    std::ofstream(path) << "#!/bin/sh\n" << text;
    chmod(path.c_str(), 0755);
}

// An sshd on 127.0.0.1 for one test; `config()` is the ssh config naming it kHost.
class SshServer {
  public:
    SshServer() : dir_(temp_path("ssh")) {
        const CommandResult started =
            run_command("bash " + kSource + "/tests/remote/ssh_fixture.sh start " + dir_);
        if (started.exit_code == kSkipped) {
            skipped_ = started.err;
        } else if (started.exit_code != 0) {
            failed_ = started.err;
        }
    }
    ~SshServer() {
        run_command("bash " + kSource + "/tests/remote/ssh_fixture.sh stop " + dir_);
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    const std::string& skipped() const { return skipped_; }
    const std::string& failed() const { return failed_; }
    const std::string& dir() const { return dir_; }
    // `tclens ARGS` with ssh reading this server's config.
    CommandResult tclens(const std::string& args) const {
        return run_command("env TCLENS_SSH_CONFIG=" + dir_ + "/ssh_config " + kTclens + " " + args,
                           std::chrono::seconds(60));
    }

  private:
    std::string dir_;
    std::string skipped_;
    std::string failed_;
};

#define START_SSHD(server)                                           \
    SshServer server;                                                \
    if (!server.skipped().empty()) GTEST_SKIP() << server.skipped(); \
    ASSERT_EQ(server.failed(), "")

void expect_line(const CommandResult& result, int exit_code, const std::string& part,
                 const std::string& what) {
    EXPECT_EQ(result.exit_code, exit_code) << what << "\n" << result.err;
    EXPECT_TRUE(is_one_line(result.err)) << what << "\n" << result.err;
    EXPECT_TRUE(contains(result.err, part)) << what << ": '" << part << "' in\n" << result.err;
    EXPECT_EQ(result.out, "") << what;
}

// A worker started by a command compiles a user's kernel before it needs the GPU (a bad file is
// still reported where there is none), so one compile is enough here: exercise's, the slowest,
// is left to tests/unit/app/cli/exercise_command_test.cpp.
TEST(RemoteOverPipe, EachGpuSubcommandSaysNoGpuOnTheHost) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    for (const std::string& command :
         {kGpuCommands[0], kGpuCommands[1], kGpuCommands[3], kGpuCommands[5], kGpuCommands[6],
          kGpuCommands[7], kGpuCommands[8]}) {
        const CommandResult result =
            run_command(kTclens + " " + command + " --worker \"'" + kTclens + "' worker\"");
        expect_line(result, 3, "tclens: no GPU on " + std::string(host) + ": ", command);
    }
}

TEST(RemoteOption, HostileValuesAreRefusedBeforeSshStarts) {
    // An `ssh` first on PATH that leaves a mark: it must never run.
    const std::string bin = temp_path("fake-ssh");
    std::filesystem::create_directories(bin);
    write_script(bin + "/ssh", "touch " + bin + "/ran\n");
    const std::vector<std::string> hostile = {"-oProxyCommand=sh",
                                              "'host;rm -rf ~'",
                                              "user@-x",
                                              "'host:$(id)'",
                                              "'host:/x y'",
                                              "'host:`id`'",
                                              "\"$(printf 'host\\nid')\"",
                                              "'-l@host'",
                                              "'host:-x'"};
    for (const std::string& value : hostile) {
        for (const std::string& command : {kGpuCommands[0], kGpuCommands[2]}) {
            const CommandResult result = run_command("env PATH=" + bin + ":$PATH " + kTclens + " " +
                                                     command + " --remote " + value);
            expect_line(result, 2, "tclens: --remote: '", command + " --remote " + value);
        }
    }
    EXPECT_FALSE(std::filesystem::exists(bin + "/ran"));
    const CommandResult both =
        run_command(kTclens + " bench --kernel " + kKernel + " --remote gpu1 --worker 'x'");
    expect_line(both, 2, "--worker excludes --remote", "--remote with --worker");
    std::filesystem::remove_all(bin);
}

TEST(RemoteOverSsh, EachGpuSubcommandSaysNoGpuOnTheHost) {
    START_SSHD(server);
    for (const std::string& command : kGpuCommands) {
        const CommandResult result = server.tclens(command + " --remote " + kHost + ":" + kTclens);
        expect_line(result, 3, "tclens: no GPU on " + kHost + " (", command);
    }
}

// bench takes --remote more than once (one worker per host, docs/many-gpus.md): each host is asked
// for its GPU before anything runs, and the first without one is the command's one line.
TEST(RemoteOverSsh, BenchOverSeveralHostsSaysNoGpuOnTheFirst) {
    START_SSHD(server);
    const std::string host = kHost + ":" + kTclens;
    const CommandResult result =
        server.tclens("bench --kernels naive_fma.f32 --mnk 64x64x64 " + std::string("--remote ") +
                      host + " --remote " + host + " --workers 2");
    expect_line(result, 3, "tclens: no GPU on " + kHost + " (", "two --remote hosts");
}

// `tclens device` reports the worker's machine, GPU or not (exit 0), and names the host its
// worker answered on.
TEST(RemoteOverSsh, DeviceReportsTheHostsMachineAndNamesIt) {
    START_SSHD(server);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const CommandResult json = server.tclens("device --json --remote " + kHost + ":" + kTclens);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json report = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << json.out;
    EXPECT_EQ(report["host"], host);
    EXPECT_TRUE(report.contains("gpu_found")) << json.out;
    const CommandResult table = server.tclens("device --remote " + kHost + ":" + kTclens);
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_TRUE(contains(table.out, "host: " + std::string(host))) << table.out;
}

// Faults before any worker answers: each one line, exit 3 (the worker cannot start).
TEST(RemoteOverSsh, EachLinkFaultIsOneLine) {
    START_SSHD(server);
    const std::string bench = "bench --kernel " + kKernel + " --remote ";
    expect_line(server.tclens(bench + "tclens-refused-host:" + kTclens), 3,
                "tclens: cannot reach tclens-refused-host: ssh: connect to host 127.0.0.1 port 1:",
                "a port where nobody listens");
    expect_line(server.tclens(bench + "no-such-host.invalid"), 3,
                "tclens: cannot reach no-such-host.invalid: ssh: Could not resolve hostname",
                "an unknown host");
    expect_line(server.tclens(bench + kHost + ":/no/such/tclens"), 3,
                "tclens: no tclens on " + kHost + " (looked for '/no/such/tclens'; give --remote " +
                    kHost + ":/path/to/tclens)",
                "no tclens at the path");
    const std::string garbage = server.dir() + "/garbage-worker";
    write_script(garbage, "echo 'Welcome to the GPU server!'\nexec '" + kTclens + "' \"$@\"\n");
    expect_line(server.tclens(bench + kHost + ":" + garbage), 3,
                "the worker wrote a line that is not protocol during the hello request",
                "a worker that writes garbage");
    const std::string newer = server.dir() + "/newer-worker";
    write_script(
        newer,
        "read -r hello\n"
        "echo '{\"id\":1,\"type\":\"error\",\"kind\":\"protocol\",\"message\":\"this worker "
        "(tclens 9.0) speaks protocol 3, the client 2: run the same tclens version on "
        "both sides\",\"exits\":false}'\n"
        "read -r next\n");
    expect_line(server.tclens(bench + kHost + ":" + newer), 3,
                "tclens: the worker on " + kHost +
                    " speaks protocol 3, this tclens 2: update "
                    "tclens here",
                "a worker of a newer protocol");
}

// The link is cut (the remote sshd session killed) while a request is in flight: the call ends
// in one line that says so, and the next call starts a fresh worker.
TEST(RemoteOverSsh, ALinkLostDuringARequestIsOneLine) {
    START_SSHD(server);
    const std::string drop = server.dir() + "/drop-worker";
    write_script(drop, "read -r hello\nprintf '%s\\n' \"$hello\" | '" + kTclens +
                           "' worker\nread -r next\nkill -9 $PPID\nsleep 5\n");
    setenv("TCLENS_SSH_CONFIG", (server.dir() + "/ssh_config").c_str(), 1);
    worker::ClientOptions options;
    options.remote = *worker::parse_remote_target(kHost + ":" + drop);
    worker::WorkerClient client(options);
    worker::BenchRequest bench;
    bench.kernels = {"naive_fma.f32"};
    bench.problems = {{64, 64, 64}};
    const worker::Reply reply = client.call(bench);
    unsetenv("TCLENS_SSH_CONFIG");
    EXPECT_EQ(reply.outcome, worker::Reply::Outcome::kCrashed) << reply.message;
    EXPECT_EQ(reply.message,
              "lost the link to " + kHost + " during the bench request: ssh exited with code 255");
    EXPECT_TRUE(reply.worker_lost());
}

}  // namespace
}  // namespace tclens::test
