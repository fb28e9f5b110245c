// Tests for app/worker/client.*, over real pipes: with the real `tclens worker` (made to crash,
// hang, write garbage or lose its CUDA context by TCLENS_INJECT_FAULT, which it inherits) and
// with small shell scripts that play a broken worker. Whatever the worker does, a call returns
// one Reply with one line, and the next call gets a fresh worker that answers. On this machine
// (no GPU) the real worker's clean answers are errors such as "needs an NVIDIA GPU".

#include "app/worker/client.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/worker/chunked_result.h"
#include "app/worker/remote_target.h"
#include "tests/support/run_command.h"

namespace tclens::worker {
namespace {

using namespace std::chrono_literals;

const std::string kWorker = "exec " + shell_quote(TCLENS_BINARY) + " worker";

// Sets TCLENS_INJECT_FAULT for one test; workers started meanwhile inherit it.
class ScopedFault {
  public:
    explicit ScopedFault(const char* value) { setenv("TCLENS_INJECT_FAULT", value, 1); }
    ~ScopedFault() { unsetenv("TCLENS_INJECT_FAULT"); }
};

ClientOptions options(const std::string& command, double limit_s = 10) {
    ClientOptions o;
    o.command = command;
    o.time_limit_s = limit_s;
    return o;
}

BenchRequest bench() {
    BenchRequest b;
    b.kernels = {"naive_fma.f32"};
    b.problems = {{64, 64, 64}};
    return b;
}

bool one_line(const std::string& text) {
    return !text.empty() && text.find('\n') == std::string::npos;
}

// The hello result of a scripted worker.
HelloResult scripted_hello() {
    HelloResult hello;
    hello.protocol = kProtocolVersion;
    hello.tclens_version = "scripted";
    hello.pid = 1;
    return hello;
}

// What a scripted worker writes to answer the client's hello (request id 1).
Message hello_answer() {
    Message answer;
    answer.id = 1;
    answer.result = to_json(scripted_hello());
    return answer;
}

TEST(WorkerClient, StartsTheRealWorkerAndGetsCleanAnswers) {
    WorkerClient client(options(kWorker));
    const Reply hello = client.call(HelloRequest{});
    ASSERT_TRUE(hello.ok()) << hello.message;
    EXPECT_EQ(client.starts(), 1);
    EXPECT_GT(client.worker().pid, 0);
    EXPECT_EQ(client.worker().protocol, kProtocolVersion);
    // A request the worker refuses cleanly keeps it: the same process answers the next one.
    const Reply load = client.call(LoadRequest{"/nonexistent/kernel.cu", false, {}});
    EXPECT_EQ(load.outcome, Reply::Outcome::kError);
    EXPECT_EQ(load.error.kind, ErrorKind::kUsage);
    EXPECT_TRUE(one_line(load.message)) << load.message;
    EXPECT_NE(load.message.find("kernel.cu"), std::string::npos) << load.message;
    WorkerProfileRequest profile;
    profile.kernel = "warp_speed";
    profile.problem = {64, 64, 64};
    profile.metrics = {"m"};
    const Reply unknown = client.call(profile);
    EXPECT_EQ(unknown.error.kind, ErrorKind::kUsage);
    EXPECT_NE(unknown.message.find("unknown kernel 'warp_speed'"), std::string::npos);
    EXPECT_TRUE(client.call(HelloRequest{}).ok());
    EXPECT_EQ(client.starts(), 1);
}

TEST(WorkerClient, AWorkerThatCrashesIsOneLineAndTheNextCallGetsAFreshOne) {
    const ScopedFault fault("worker-crash");
    WorkerClient client(options(kWorker));
    ASSERT_TRUE(client.call(HelloRequest{}).ok());
    const std::int64_t first_pid = client.worker().pid;
    const Reply crashed = client.call(bench());
    EXPECT_EQ(crashed.outcome, Reply::Outcome::kCrashed);
    EXPECT_TRUE(crashed.worker_lost());
    EXPECT_TRUE(one_line(crashed.message)) << crashed.message;
    EXPECT_NE(crashed.message.find("died during the bench request"), std::string::npos)
        << crashed.message;
    EXPECT_NE(crashed.message.find("SIGABRT"), std::string::npos) << crashed.message;
    const Reply hello = client.call(HelloRequest{});
    ASSERT_TRUE(hello.ok()) << hello.message;
    EXPECT_EQ(client.starts(), 2);
    EXPECT_NE(client.worker().pid, first_pid);
}

TEST(WorkerClient, AWorkerThatHangsIsKilledAtTheTimeLimit) {
    const ScopedFault fault("worker-hang");
    WorkerClient client(options(kWorker, 0.5));
    ASSERT_TRUE(client.call(HelloRequest{}).ok());
    const auto start = std::chrono::steady_clock::now();
    const Reply hung = client.call(bench());
    const auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(hung.outcome, Reply::Outcome::kTimedOut);
    EXPECT_TRUE(one_line(hung.message)) << hung.message;
    EXPECT_NE(hung.message.find("no answer for 0.5 s"), std::string::npos) << hung.message;
    EXPECT_NE(hung.message.find("--time-limit"), std::string::npos) << hung.message;
    EXPECT_GE(waited, 450ms);
    EXPECT_LT(waited, 5s);
    EXPECT_TRUE(client.call(HelloRequest{}).ok());
    EXPECT_EQ(client.starts(), 2);
}

TEST(WorkerClient, AWorkerThatWritesGarbageIsKilled) {
    const ScopedFault fault("worker-garbage");
    WorkerClient client(options(kWorker));
    const Reply garbage = client.call(bench());
    EXPECT_EQ(garbage.outcome, Reply::Outcome::kGarbage);
    EXPECT_TRUE(one_line(garbage.message)) << garbage.message;
    EXPECT_NE(garbage.message.find("not protocol"), std::string::npos) << garbage.message;
    EXPECT_NE(garbage.message.find("'this line is not protocol"), std::string::npos)
        << garbage.message;
    EXPECT_TRUE(client.call(HelloRequest{}).ok());
    EXPECT_EQ(client.starts(), 2);
}

TEST(WorkerClient, AWorkerWhoseContextIsLostSaysSoAndIsReplaced) {
    const ScopedFault fault("worker-fault");
    WorkerClient client(options(kWorker));
    const Reply fault_reply = client.call(bench());
    EXPECT_EQ(fault_reply.outcome, Reply::Outcome::kError);
    EXPECT_EQ(fault_reply.error.kind, ErrorKind::kFault);
    EXPECT_TRUE(fault_reply.worker_lost());
    EXPECT_TRUE(one_line(fault_reply.message)) << fault_reply.message;
    EXPECT_NE(fault_reply.message.find("CUDA context is lost"), std::string::npos);
    EXPECT_TRUE(client.call(HelloRequest{}).ok());
    EXPECT_EQ(client.starts(), 2);
}

TEST(WorkerClient, CancelKillsTheWorkerSoon) {
    const ScopedFault fault("worker-hang");
    WorkerClient client(options(kWorker, 60));
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(300ms);
        cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = client.call(bench(), {}, &cancel);
    canceller.join();
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCancelled);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    EXPECT_TRUE(client.call(HelloRequest{}).ok());
}

TEST(WorkerClient, ProgressReachesTheHandlerBeforeTheAnswer) {
    // A scripted worker: answers hello, then sends two progress lines and a result.
    Message answer = hello_answer();
    Message progress;
    progress.id = 2;
    progress.type = Message::Type::kProgress;
    progress.progress = {"run", "a", 0, 2, 0};
    std::string script = "read l; echo '" + encode_message(answer) + "'; read l; echo '" +
                         encode_message(progress) + "'; ";
    progress.progress.text = "b";
    progress.progress.index = 1;
    answer.id = 2;
    answer.result = {{"done", true}};
    script += "echo '" + encode_message(progress) + "'; echo '" + encode_message(answer) +
              "'; cat >/dev/null";
    WorkerClient client(options(script));
    std::vector<std::string> seen;
    const Reply reply =
        client.call(ExerciseRequest{"x.cu"}, [&](const Progress& p) { seen.push_back(p.text); });
    ASSERT_TRUE(reply.ok()) << reply.message;
    EXPECT_EQ(reply.result["done"], true);
    EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
}

LiveProfileRequest live_request() {
    LiveProfileRequest request;
    request.kernels = {"naive_fma.f32"};
    request.problem = {64, 64, 64};
    request.metrics = {"m"};
    return request;
}

// An update message holding {"n": n}, of request 1 until answer() gives it the request's id.
std::string update_line(int n) {
    Message update;
    update.id = 1;
    update.type = Message::Type::kUpdate;
    update.update = {{"n", n}};
    return encode_message(update);
}

// Shell that reads the next request and writes each of `lines` (messages of id 1) with its id, so
// a scripted worker answers a fresh client's requests as the restarts number them.
std::string answer(const std::vector<std::string>& lines) {
    std::string shell = "read l; id=${l#*\\\"id\\\":}; id=${id%%,*}; ";
    for (const std::string& line : lines) {
        shell += "echo '" + line + "' | sed \"s/^{\\\"id\\\":1,/{\\\"id\\\":$id,/\"; ";
    }
    return shell;
}

TEST(WorkerClient, AStreamHandsOverEachUpdateAndStopsWhenAsked) {
    // A scripted worker: answers hello, streams two updates, then answers a result only when
    // the next line it reads is the stop of request 2.
    Message result = hello_answer();
    result.id = 2;
    result.result = {{"stopped", true}};
    const std::string script = answer({encode_message(hello_answer())}) +
                               answer({update_line(0), update_line(1)}) +
                               "read s; case \"$s\" in '{\"id\":2,\"type\":\"stop\"}') echo '" +
                               encode_message(result) + "';; esac; cat >/dev/null";
    WorkerClient client(options(script, 5));
    std::vector<int> seen;
    const Reply reply = client.stream(
        live_request(),
        [&](const nlohmann::json& update) {
            seen.push_back(update["n"].get<int>());
            return std::string();
        },
        [&] { return seen.size() >= 2; });
    ASSERT_TRUE(reply.ok()) << reply.message;
    EXPECT_EQ(reply.result["stopped"], true);
    EXPECT_EQ(seen, (std::vector<int>{0, 1}));
    EXPECT_EQ(client.starts(), 1);
}

// A result sent in chunks (app/worker/chunked_result.h) reaches the caller whole; chunks that
// the result miscounts make the worker's answer garbage, one line.
TEST(WorkerClient, AResultInChunksArrivesWholeAndAMiscountIsGarbage) {
    const nlohmann::json result = {{"rows", {"a", "b", "c"}}, {"note", "4096³"}};
    std::vector<std::string> lines;
    // Request 2 (after the hello): a chunk's line begins with "data", so answer() keeps its id.
    for (const Message& m : result_messages(2, result, 8)) lines.push_back(encode_message(m));
    ASSERT_GT(lines.size(), 3u);
    WorkerClient client(
        options(answer({encode_message(hello_answer())}) + answer(lines) + "cat >/dev/null"));
    const Reply reply = client.call(bench());
    ASSERT_TRUE(reply.ok()) << reply.message;
    EXPECT_EQ(reply.result, result);

    lines.erase(lines.begin());  // one chunk lost on the way
    WorkerClient miscounted(
        options(answer({encode_message(hello_answer())}) + answer(lines) + "cat >/dev/null"));
    const Reply garbage = miscounted.call(bench());
    EXPECT_EQ(garbage.outcome, Reply::Outcome::kGarbage);
    EXPECT_TRUE(one_line(garbage.message)) << garbage.message;
    EXPECT_NE(garbage.message.find("chunks, "), std::string::npos) << garbage.message;
}

TEST(WorkerClient, AWorkerThatDiesMidStreamIsOneLineAndTheNextCallGetsAFreshOne) {
    const std::string script =
        answer({encode_message(hello_answer())}) + answer({update_line(0)}) + "kill -SEGV $$";
    WorkerClient client(options(script));
    int updates = 0;
    const Reply reply = client.stream(
        live_request(),
        [&](const nlohmann::json&) {
            ++updates;
            return std::string();
        },
        [] { return false; });
    EXPECT_EQ(updates, 1);
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCrashed);
    EXPECT_TRUE(one_line(reply.message)) << reply.message;
    EXPECT_NE(reply.message.find("died during the live_profile request"), std::string::npos)
        << reply.message;
    EXPECT_TRUE(client.connect().ok());  // a fresh worker answers hello
    EXPECT_EQ(client.starts(), 2);
}

TEST(WorkerClient, AnUpdateThatCannotBeReadOrIsNotAskedForIsGarbage) {
    const std::string script =
        answer({encode_message(hello_answer())}) + answer({update_line(0)}) + "cat >/dev/null";
    WorkerClient client(options(script));
    Reply reply =
        client.stream(live_request(),
                      [](const nlohmann::json&) { return std::string("field 'n' is wrong"); }, {});
    EXPECT_EQ(reply.outcome, Reply::Outcome::kGarbage);
    EXPECT_NE(reply.message.find("during the live_profile request (field 'n' is wrong)"),
              std::string::npos)
        << reply.message;
    reply = client.call(bench());  // a fresh worker; its update answers a request without one
    EXPECT_EQ(reply.outcome, Reply::Outcome::kGarbage);
    EXPECT_NE(reply.message.find("an update for a request that streams nothing"), std::string::npos)
        << reply.message;
}

TEST(WorkerClient, AWorkerKilledBySigkillIsSaidToHaveWantedMemory) {
    // A scripted worker that answers hello, then is SIGKILLed during the next request, as the
    // system's out-of-memory killer does (nothing in tclens sends a worker SIGKILL unasked).
    WorkerClient client(
        options("read l; echo '" + encode_message(hello_answer()) + "'; read l; kill -KILL $$"));
    const Reply reply = client.call(bench());  // after the client's own hello
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCrashed);
    EXPECT_TRUE(one_line(reply.message)) << reply.message;
    EXPECT_NE(reply.message.find("SIGKILL"), std::string::npos) << reply.message;
    EXPECT_NE(reply.message.find("perhaps by the system for want of memory"), std::string::npos)
        << reply.message;
}

TEST(WorkerClient, AWorkerThatCannotStartIsOneLine) {
    WorkerClient missing(options("/nonexistent/tclens worker"));
    Reply reply = missing.call(HelloRequest{});
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCannotStart);
    EXPECT_TRUE(one_line(reply.message)) << reply.message;
    EXPECT_NE(reply.message.find("cannot start the worker `/nonexistent/tclens worker`"),
              std::string::npos)
        << reply.message;
    EXPECT_NE(reply.message.find("it exited with code 127 before answering hello"),
              std::string::npos)
        << reply.message;

    WorkerClient chatty(options("echo 'Welcome to the GPU server!'; cat"));
    reply = chatty.call(HelloRequest{});
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCannotStart);
    EXPECT_NE(reply.message.find("not protocol"), std::string::npos) << reply.message;
    EXPECT_NE(reply.message.find("Welcome"), std::string::npos) << reply.message;
}

// An ssh that refuses at once may be gone before the client writes its hello (on a loaded
// machine, or about 1 start in 15 on a quiet one): the write fails, and the line is still ssh's.
TEST(WorkerClient, AnSshThatExitsBeforeTheHelloIsWrittenIsStillSshsOneLine) {
    const std::filesystem::path dir = test::temp_path("refusing_ssh");
    std::filesystem::create_directories(dir);
    const std::string ssh = (dir / "ssh").string();
    std::ofstream(ssh) << "#!/bin/sh\necho 'ssh: connect to host gpu-down port 22: Connection "
                          "refused' >&2\nexit 255\n";
    chmod(ssh.c_str(), 0755);
    const std::string path = std::getenv("PATH");
    setenv("PATH", (dir.string() + ":" + path).c_str(), 1);
    ClientOptions refused;
    refused.remote = *parse_remote_target("gpu-down");
    for (int start = 0; start < 40; ++start) {
        WorkerClient client(refused);
        const Reply reply = client.call(HelloRequest{});
        EXPECT_EQ(reply.outcome, Reply::Outcome::kCannotStart);
        EXPECT_EQ(reply.message,
                  "cannot reach gpu-down: ssh: connect to host gpu-down port 22: Connection "
                  "refused")
            << "start " << start;
    }
    setenv("PATH", path.c_str(), 1);
    std::filesystem::remove_all(dir);
}

TEST(WorkerClient, AWorkerOfProtocol1IsOneLineSayingWhichSideToUpdate) {
    // A worker of protocol 1 (before live_profile) refuses this client's hello as it did then.
    WorkerClient old(options(
        "read l; echo '{\"id\":1,\"type\":\"error\",\"kind\":\"protocol\",\"message\":\"this "
        "worker (tclens 0.1.0) speaks protocol 1, the client 2: run the same tclens version on "
        "both sides\",\"exits\":false}'; cat >/dev/null"));
    const Reply reply = old.call(HelloRequest{});
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCannotStart);
    EXPECT_EQ(reply.message,
              "the worker speaks protocol 1, this tclens 2: update tclens where the worker runs");
}

TEST(WorkerClient, AnAnswerToAnotherRequestIsGarbage) {
    WorkerClient client(
        options("read l; echo '{\"id\":99,\"type\":\"result\",\"result\":{}}'; cat >/dev/null"));
    const Reply reply = client.call(HelloRequest{});
    EXPECT_EQ(reply.outcome, Reply::Outcome::kCannotStart);
    EXPECT_NE(reply.message.find("answered request 99 while 1 was asked"), std::string::npos)
        << reply.message;
}

TEST(WorkerClient, TheDefaultCommandIsThisProgramOrTheVariable) {
    setenv(kWorkerVariable, "ssh gpu tclens worker", 1);
    EXPECT_EQ(default_worker_command(), "ssh gpu tclens worker");
    unsetenv(kWorkerVariable);
    const std::string command = default_worker_command();
    EXPECT_EQ(command.substr(command.size() - 7), " worker") << command;
    EXPECT_EQ(command.rfind("exec '", 0), 0u) << command;
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

TEST(ReadResult, ReadsAResultAndMakesOneItCannotReadGarbage) {
    Reply reply;
    reply.result = to_json(scripted_hello());
    HelloResult hello;
    EXPECT_TRUE(read_result(reply, "hello", hello_from_json, hello)) << reply.message;
    EXPECT_EQ(hello.tclens_version, "scripted");

    Reply unreadable;
    unreadable.result = {{"protocol", "one"}};
    EXPECT_FALSE(read_result(unreadable, "hello", hello_from_json, hello));
    EXPECT_EQ(unreadable.outcome, Reply::Outcome::kGarbage);
    EXPECT_EQ(unreadable.message.rfind("the worker's hello result: ", 0), 0u) << unreadable.message;
    EXPECT_TRUE(one_line(unreadable.message)) << unreadable.message;

    Reply failed;
    failed.outcome = Reply::Outcome::kCrashed;
    failed.message = "the worker died";
    EXPECT_FALSE(read_result(failed, "hello", hello_from_json, hello));
    EXPECT_EQ(failed.outcome, Reply::Outcome::kCrashed);
    EXPECT_EQ(failed.message, "the worker died");
}

}  // namespace
}  // namespace tclens::worker
