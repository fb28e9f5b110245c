// `tclens worker` spoken to directly, as a client would over a pipe (docs/worker-protocol.md):
// it answers each request line with one terminal message carrying the request's id, refuses a
// malformed line with a protocol error and goes on, keeps its stdout for the protocol alone,
// exits 0 at shutdown or the end of its input, and exits 1 after a lost CUDA context.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

// The worker's stdout, one JSON object per line, progress messages left out; fails the test
// on a line that is not JSON.
std::vector<nlohmann::json> messages(const std::string& out) {
    std::vector<nlohmann::json> list;
    std::size_t start = 0;
    for (std::size_t end; (end = out.find('\n', start)) != std::string::npos; start = end + 1) {
        const nlohmann::json message =
            nlohmann::json::parse(out.substr(start, end - start), nullptr, false);
        EXPECT_FALSE(message.is_discarded()) << out.substr(start, end - start);
        if (message.is_object() && message["type"] == "progress") continue;
        list.push_back(message);
    }
    EXPECT_EQ(start, out.size()) << "stdout ends in a partial line: " << out;
    return list;
}

// Runs `tclens worker` with `lines` on its stdin.
test::CommandResult worker(const std::string& lines, const std::string& environment = "") {
    return run_command("printf '%s' '" + lines + "' | " + environment + kTclens + " worker");
}

TEST(WorkerCommand, AnswersEachRequestWithItsIdAndEndsAtShutdown) {
    const auto result = worker(
        "{\"id\":1,\"type\":\"hello\",\"protocol\":2}\n"
        "{\"id\":2,\"type\":\"load\",\"ref\":\"/nonexistent/k.cu\"}\n"
        "{\"id\":3,\"type\":\"shutdown\"}\n"
        "{\"id\":4,\"type\":\"hello\",\"protocol\":2}\n");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::vector<nlohmann::json> got = messages(result.out);
    ASSERT_EQ(got.size(), 3u) << result.out;  // nothing after shutdown
    EXPECT_EQ(got[0]["id"], 1);
    EXPECT_EQ(got[0]["type"], "result");
    EXPECT_EQ(got[0]["result"]["protocol"], 2);
    EXPECT_EQ(got[1]["id"], 2);
    EXPECT_EQ(got[1]["type"], "error");
    EXPECT_EQ(got[1]["kind"], "usage");
    EXPECT_NE(got[1]["message"].get<std::string>().find("/nonexistent/k.cu"), std::string::npos);
    EXPECT_EQ(got[2]["id"], 3);
    EXPECT_EQ(got[2]["type"], "result");
    EXPECT_TRUE(got[2]["result"].empty());
}

TEST(WorkerCommand, AMalformedLineIsAProtocolErrorAndTheWorkerGoesOn) {
    const auto result = worker(
        "not json\n"
        "{\"id\":5,\"type\":\"bench\",\"kernels\":[\"naive_fma.f32\"],\"problems\":[\"64x64x64\"],"
        "\"runs\":\"many\"}\n"
        "{\"id\":6,\"type\":\"hello\",\"protocol\":1}\n"
        "{\"id\":7,\"type\":\"hello\",\"protocol\":2}\n");
    EXPECT_EQ(result.exit_code, 0) << result.err;  // its input ended
    const std::vector<nlohmann::json> got = messages(result.out);
    ASSERT_EQ(got.size(), 4u) << result.out;
    EXPECT_EQ(got[0]["id"], 0);
    EXPECT_EQ(got[0]["kind"], "protocol");
    EXPECT_EQ(got[1]["id"], 5);
    EXPECT_EQ(got[1]["kind"], "protocol");
    EXPECT_NE(got[1]["message"].get<std::string>().find("'runs'"), std::string::npos);
    EXPECT_EQ(got[2]["kind"], "protocol");  // another protocol version
    EXPECT_NE(got[2]["message"].get<std::string>().find("speaks protocol 2, the client 1"),
              std::string::npos);
    EXPECT_EQ(got[3]["type"], "result");
}

TEST(WorkerCommand, ALostContextIsAFaultAndExit1) {
    const auto result = worker(
        "{\"id\":1,\"type\":\"bench\",\"kernels\":[\"naive_fma.f32\"],\"problems\":[\"64x64x64\"]}"
        "\n"
        "{\"id\":2,\"type\":\"hello\",\"protocol\":2}\n",
        "TCLENS_INJECT_FAULT=worker-fault ");
    EXPECT_EQ(result.exit_code, 1);
    const std::vector<nlohmann::json> got = messages(result.out);
    ASSERT_EQ(got.size(), 1u) << result.out;  // it ended after the fault
    EXPECT_EQ(got[0]["kind"], "fault");
    EXPECT_EQ(got[0]["exits"], true);
}

TEST(WorkerCommand, WithoutAGpuABenchIsACleanNeedsResourceError) {
    const auto result = worker(
        "{\"id\":1,\"type\":\"bench\",\"kernels\":[\"naive_fma.f32\"],\"problems\":[\"64x64x64\"]}"
        "\n");
    if (test::tclens_sees_gpu(kTclens)) GTEST_SKIP() << "skipped: this machine has a GPU";
    const std::vector<nlohmann::json> got = messages(result.out);
    ASSERT_EQ(got.size(), 1u) << result.out;
    EXPECT_EQ(got[0]["kind"], "needs_resource");
    EXPECT_NE(got[0]["message"].get<std::string>().find("needs an NVIDIA GPU"), std::string::npos);
}

TEST(WorkerCommand, WithoutAGpuALiveProfileIsOneNeedsResourceLineAndAStopAfterItIsIgnored) {
    const auto result = worker(
        "{\"id\":1,\"type\":\"live_profile\",\"kernels\":[\"naive_fma.f32\"],"
        "\"problem\":\"64x64x64\",\"metrics\":[\"gpu__time_duration.sum\"]}\n"
        "{\"id\":1,\"type\":\"stop\"}\n"
        "{\"id\":2,\"type\":\"hello\",\"protocol\":2}\n");
    if (test::tclens_sees_gpu(kTclens)) GTEST_SKIP() << "skipped: this machine has a GPU";
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::vector<nlohmann::json> got = messages(result.out);
    ASSERT_EQ(got.size(), 2u) << result.out;  // the stop is not answered
    EXPECT_EQ(got[0]["id"], 1);
    EXPECT_EQ(got[0]["kind"], "needs_resource");
    EXPECT_EQ(got[0]["message"].get<std::string>().rfind("live_profile needs an NVIDIA GPU (", 0),
              0u)
        << got[0];
    EXPECT_EQ(got[1]["id"], 2);
    EXPECT_EQ(got[1]["type"], "result");
}

TEST(WorkerCommand, AnUnknownKernelInALiveProfileIsAUsageError) {
    const auto result = worker(
        "{\"id\":3,\"type\":\"live_profile\",\"kernels\":[\"naive_fma.f32\",\"warp_speed\"],"
        "\"problem\":\"64x64x64\",\"metrics\":[\"m\"]}\n");
    const std::vector<nlohmann::json> got = messages(result.out);
    ASSERT_EQ(got.size(), 1u) << result.out;
    EXPECT_EQ(got[0]["kind"], "usage");
    EXPECT_NE(got[0]["message"].get<std::string>().find("unknown kernel 'warp_speed'"),
              std::string::npos)
        << got[0];
}

}  // namespace
}  // namespace tclens
