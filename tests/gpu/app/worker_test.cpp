// Users' kernels through the worker process on a GPU: the examples benched next to
// their same-run cuBLAS; a kernel that faults, one that hangs and one that writes past C, each
// reported in one line while the worker is replaced (or goes on) and the next request works;
// a loaded copy of rung 8 within 2 % of the built-in rung in the same run; a profile, a watch
// version with its times, an exercise and an error map, all through the worker; a bank
// measurement and a layout probe (tclens's own probes) through it too.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "app/worker/client.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::run_command;
using worker::Reply;

using test::kSource;
using test::kTclens;
const std::string kInSource = "cd " + kSource + " && " + kTclens;

// Thread 0 stores 2^40 floats past C: an illegal address that kills the CUDA context.
const char* const kFaultingKernel =
    "// tclens: grid=(1, 1) block=32 type=f32\n"
    "__global__ void wild_store(int M, int N, int K, const float* A, const float* B, float* C) {\n"
    "    if (threadIdx.x == 0) C[1ll << 40] = 1.0f;\n"
    "}\n";

// Thread 0 never returns.
const char* const kHangingKernel =
    "// tclens: grid=(1, 1) block=32 type=f32\n"
    "__global__ void spin(int M, int N, int K, const float* A, const float* B, float* C) {\n"
    "    // clock64() never goes negative, and the compiler cannot know it: a loop that stays.\n"
    "    if (threadIdx.x == 0) { long long t; do { t = clock64(); } while (t >= 0); }\n"
    "}\n";

worker::ClientOptions client_options(double time_limit_s) {
    worker::ClientOptions options;
    options.command = "exec " + worker::shell_quote(kTclens) + " worker";
    options.time_limit_s = time_limit_s;
    return options;
}

worker::BenchRequest bench(const std::string& id, kernels::GemmProblem problem) {
    worker::BenchRequest request;
    request.kernels = {id};
    request.problems = {problem};
    request.runs = 20;
    request.peaks = false;
    return request;
}

std::string loaded_id(worker::WorkerClient& client, const std::string& path) {
    const Reply reply = client.call(worker::LoadRequest{path, false, {}});
    EXPECT_TRUE(reply.ok()) << reply.message;
    worker::LoadResult loaded;
    std::string error;
    EXPECT_TRUE(worker::load_from_json(reply.result, loaded, error)) << error;
    return loaded.id;
}

// The next request after a lost worker works: a ladder rung verifies and times.
void expect_next_request_works(worker::WorkerClient& client, int starts_before) {
    const Reply reply = client.call(bench("naive_fma.f32", {256, 256, 256}));
    ASSERT_TRUE(reply.ok()) << reply.message;
    worker::BenchResult result;
    std::string error;
    ASSERT_TRUE(worker::bench_from_json(reply.result, result, error)) << error;
    ASSERT_FALSE(result.report.rows.empty());
    EXPECT_TRUE(result.report.rows.front().result.counts())
        << kernels::run_status(result.report.rows.front().result);
    EXPECT_EQ(client.starts(), starts_before + 1);
}

const nlohmann::json* find_row(const nlohmann::json& report, const std::string& id) {
    for (const nlohmann::json& row : report["results"])
        if (row["kernel"] == id) return &row;
    return nullptr;
}

TEST(WorkerOnGpu, ExamplesAreBenchedNextToTheirSameRunCublas) {
    TCLENS_REQUIRE_GPU();
    const auto result = run_command(
        kInSource +
        " bench --kernel examples/directive_gemm.cu --kernel examples/matmul_tensor.cu --mnk "
        "1024x1024x1024 --mnk 257x263x1032 --no-peak --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out;
    int yours = 0;
    for (const nlohmann::json& row : report["results"]) {
        const std::string id = row["kernel"];
        if (id.rfind("yours.", 0) != 0) continue;
        ++yours;
        EXPECT_TRUE(row["verified"].get<bool>()) << row;
        EXPECT_GT(row["tflops"].get<double>(), 0) << row;
        EXPECT_GT(row["pct_of_cublas"].get<double>(), 0) << row;  // its reference ran and counted
        const nlohmann::json* reference = find_row(report, row["cublas_id"]);
        ASSERT_NE(reference, nullptr) << row;
        std::printf("%s %sx%sx%s: %.1f TFLOP/s, %.1f %% of %s\n", id.c_str(),
                    row["m"].dump().c_str(), row["n"].dump().c_str(), row["k"].dump().c_str(),
                    row["tflops"].get<double>(), row["pct_of_cublas"].get<double>(),
                    row["cublas_id"].get<std::string>().c_str());
    }
    EXPECT_EQ(yours, 4);
}

TEST(WorkerOnGpu, AFaultingKernelIsOneLineAndTheNextRequestGetsAFreshWorker) {
    TCLENS_REQUIRE_GPU();
    worker::WorkerClient client(client_options(10));
    const std::string id =
        loaded_id(client, test::write_kernel_file("wild_store.cu", kFaultingKernel));
    const Reply reply = client.call(bench(id, {256, 256, 256}));
    ASSERT_FALSE(reply.ok());
    EXPECT_TRUE(reply.worker_lost()) << reply.message;
    EXPECT_EQ(reply.message.find('\n'), std::string::npos) << reply.message;
    std::printf("reported: %s\n", reply.message.c_str());
    EXPECT_NE(reply.message.find("yours.wild_store"), std::string::npos) << reply.message;
    expect_next_request_works(client, 1);
    // Through the CLI: one last line, exit 1.
    const std::string path = test::write_kernel_file("wild_store.cu", kFaultingKernel);
    const auto cli = run_command(kTclens + " bench --kernel " + path + " --mnk 256x256x256");
    EXPECT_EQ(cli.exit_code, 1) << cli.err;
    EXPECT_NE(test::last_line(cli.err).find("faulted"), std::string::npos) << cli.err;
}

TEST(WorkerOnGpu, AHangingKernelIsKilledAtTheTimeLimitAndTheNextRequestWorks) {
    TCLENS_REQUIRE_GPU();
    worker::WorkerClient client(client_options(3));
    const std::string id = loaded_id(client, test::write_kernel_file("spin.cu", kHangingKernel));
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = client.call(bench(id, {256, 256, 256}));
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(reply.outcome, Reply::Outcome::kTimedOut) << reply.message;
    EXPECT_EQ(reply.message.find('\n'), std::string::npos) << reply.message;
    EXPECT_NE(reply.message.find("at run 'yours.spin 256x256x256'"), std::string::npos)
        << reply.message;
    std::printf("reported after %.1f s: %s\n", waited, reply.message.c_str());
    EXPECT_LT(waited, 30);
    expect_next_request_works(client, 1);
}

TEST(WorkerOnGpu, AKernelWritingPastCIsReportedAndTheWorkerGoesOn) {
    TCLENS_REQUIRE_GPU();
    worker::WorkerClient client(client_options(10));
    const std::string id = loaded_id(client, kSource + "/examples/out_of_bounds.cu");
    const Reply reply = client.call(bench(id, {100, 64, 64}));
    ASSERT_TRUE(reply.ok()) << reply.message;
    worker::BenchResult result;
    std::string error;
    ASSERT_TRUE(worker::bench_from_json(reply.result, result, error)) << error;
    const kernels::RunResult& row = result.report.rows.back().result;
    EXPECT_EQ(row.kernel_id, id);
    EXPECT_FALSE(row.check.passed);
    EXPECT_NE(row.check.out_of_bounds.find("wrote outside C"), std::string::npos)
        << kernels::run_status(row);
    EXPECT_EQ(kernels::run_status(row).find('\n'), std::string::npos);
    std::printf("reported: %s\n", kernels::run_status(row).c_str());
    EXPECT_EQ(client.starts(), 1);  // a clean result: the same worker goes on
    EXPECT_TRUE(client.call(bench("naive_fma.f32", {128, 128, 128})).ok());
    EXPECT_EQ(client.starts(), 1);
}

TEST(WorkerOnGpu, ALoadedCopyOfRung8IsWithin2PercentOfTheBuiltInRungInTheSameRun) {
    TCLENS_REQUIRE_GPU();
    const auto result = run_command(kInSource +
                                    " bench --kernel examples/rung8_copy.cu --kernels "
                                    "mma_cp_async.bf16 --mnk 4096x4096x4096 --runs 200 --no-peak "
                                    "--no-reference --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out;
    const nlohmann::json* copy = find_row(report, "yours.rung8_copy");
    const nlohmann::json* rung = find_row(report, "mma_cp_async.bf16");
    ASSERT_NE(copy, nullptr) << result.out;
    ASSERT_NE(rung, nullptr) << result.out;
    const double copy_ms = (*copy)["median_ms"].get<double>();
    const double rung_ms = (*rung)["median_ms"].get<double>();
    std::printf("rung 8 built in %.4f ms, loaded copy %.4f ms (%+.2f %%)\n", rung_ms, copy_ms,
                100.0 * (copy_ms / rung_ms - 1.0));
    EXPECT_LE(std::fabs(copy_ms / rung_ms - 1.0), 0.02);
}

TEST(WorkerOnGpu, AUsersKernelIsProfiledThroughTheWorker) {
    TCLENS_REQUIRE_GPU();
    const auto result = run_command(kInSource +
                                    " profile --kernel examples/directive_gemm.cu --mnk "
                                    "1024x1024x1024 --json");
    if (result.exit_code == 3) GTEST_SKIP() << "skipped: " << result.err;  // no permission
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json profile = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(profile.is_discarded()) << result.out;
    EXPECT_EQ(profile["kernel"], "yours.directive_gemm");
    EXPECT_TRUE(profile["verified"].get<bool>());
    EXPECT_FALSE(profile["metrics"].empty());
    EXPECT_FALSE(profile["launches"].empty()) << profile["launch_error"];
}

TEST(WorkerOnGpu, WatchGivesAVerifiedVersionWithTheTimeOfEachStep) {
    TCLENS_REQUIRE_GPU();
    const auto result = run_command(kInSource +
                                    " watch examples/directive_gemm.cu --mnk 4096x4096x4096 "
                                    "--stop-after 1 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json version = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(version.is_discarded()) << result.out;
    EXPECT_EQ(version["ok"], true) << version;
    const nlohmann::json& times = version["times"];
    for (const char* step : {"compile_s", "load_s", "verify_s", "time_s", "profile_s"})
        EXPECT_GT(times[step].get<double>(), 0) << step << " " << times;
    EXPECT_GT(version["result"]["tflops"].get<double>(), 0);
    EXPECT_EQ(version["reference"]["kernel"], "cublas.bf16");
    std::printf("watch v1: %s\n", times.dump().c_str());
}

TEST(WorkerOnGpu, TheExerciseWithAPlantedBugIsReportedThroughTheWorker) {
    TCLENS_REQUIRE_GPU();
    worker::WorkerClient client(client_options(30));
    for (const auto& [file, wrong] : {std::pair<std::string, bool>{"exercise_mma.cu", false},
                                      {"exercise_mma_planted_bug.cu", true}}) {
        const Reply reply = client.call(worker::ExerciseRequest{kSource + "/examples/" + file});
        ASSERT_TRUE(reply.ok()) << file << ": " << reply.message;
        worker::ExerciseResult result;
        std::string error;
        ASSERT_TRUE(worker::exercise_from_json(reply.result, result, error)) << error;
        EXPECT_EQ(result.report.wrong > 0, wrong) << file << ": " << result.summary;
        std::printf("%s: %s\n", file.c_str(), result.summary.c_str());
        // The CLI: exit 1 and a line per wrong element when the mapping is wrong.
        const auto cli = run_command(kInSource + " exercise examples/" + file);
        EXPECT_EQ(cli.exit_code, wrong ? 1 : 0) << cli.err;
        EXPECT_EQ(cli.out.find("  A (") != std::string::npos ||
                      cli.out.find("  B (") != std::string::npos ||
                      cli.out.find("  C (") != std::string::npos,
                  wrong)
            << cli.out;
    }
}

TEST(WorkerOnGpu, AWrongKernelGetsItsErrorMapDrawnAndItsFirstWrongElementPrinted) {
    TCLENS_REQUIRE_GPU();
    const std::string png = test::temp_path("error_map.png");
    const auto result = run_command(kInSource +
                                    " bench --kernel examples/wrong_block_offset.cu --mnk "
                                    "512x512x512 --no-peak --error-map " +
                                    png);
    EXPECT_EQ(result.exit_code, 1) << result.err;  // it failed verification
    EXPECT_NE(result.out.find("yours.wrong_block_offset 512x512x512: "), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("expected"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("got"), std::string::npos) << result.out;
    ASSERT_TRUE(std::filesystem::exists(png)) << result.err;
    EXPECT_GT(std::filesystem::file_size(png), 1000u);
    std::filesystem::remove(png);
}

// tclens's own probes in the worker: xor-swizzled ldmatrix.x4 on 16 x 128 bytes is conflict free
// (4 phases, one wavefront each, as the model says), and mma.m16n8k8.tf32 matches its model in
// every element; the CLI prints the same through its own worker.
TEST(WorkerOnGpu, ABankMeasurementAndALayoutProbeRunInTheWorker) {
    TCLENS_REQUIRE_GPU();
    worker::WorkerClient client(client_options(30));
    worker::BankMeasureRequest bank;
    bank.swizzle = "xor";
    bank.pattern = "ldmatrix.x4";
    bank.rows = 16;
    bank.row_bytes = 128;
    Reply measured = client.call(bank);
    worker::BankMeasureResult banks;
    if (worker::read_result(measured, "bank_measure", worker::bank_measure_from_json, banks)) {
        EXPECT_NEAR(banks.measurement.wavefronts_per_request, 4.0, 0.005);
        EXPECT_FALSE(banks.device.empty());
    } else {  // no profiling permission or busy counters: one line saying so
        EXPECT_EQ(measured.error.kind, worker::ErrorKind::kNeedsResource) << measured.message;
    }
    Reply verified = client.call(worker::LayoutVerifyRequest{"mma.m16n8k8.tf32"});
    worker::LayoutVerifyResult layout;
    ASSERT_TRUE(
        worker::read_result(verified, "layout_verify", worker::layout_verify_from_json, layout))
        << verified.message;
    EXPECT_GT(layout.comparison.total, 0);
    EXPECT_EQ(layout.comparison.matched, layout.comparison.total);
    EXPECT_TRUE(layout.comparison.mismatches.empty());
    const auto cli = run_command(kTclens + " layout mma.m16n8k8.tf32 --verify");
    EXPECT_EQ(cli.exit_code, 0) << cli.err;
    EXPECT_NE(cli.out.find(" elements match"), std::string::npos) << cli.out;
}

}  // namespace
}  // namespace tclens
