// `tclens bench` usage errors (exit 2, one line naming the value), exit 3 where there is no GPU,
// and an injected launch failure (every row failed with the CUDA error, exit 1). Real runs are
// GPU tests (tests/gpu/app/cli/bench_command_test.cpp).
// With --kernel (a user's kernel, run in a worker): bad input is one line and a non-zero exit,
// and a worker that crashes, hangs, writes garbage or loses its CUDA context (a scripted stand-in,
// tests/data/scripted_worker.sh) ends the bench with exit 1 and one line saying so.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "profiling/device_query.h"
#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

void expect_bench_usage_error(const std::string& args, const std::string& named) {
    const auto result = run_command(kTclens + " bench " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
}

TEST(BenchCommand, BadSizesAreUsageErrors) {
    expect_bench_usage_error("--mnk 0x64x64", "'0x64x64'");
    expect_bench_usage_error("--mnk -5x64x64", "'-5x64x64'");
    expect_bench_usage_error("--mnk abc", "'abc'");
    expect_bench_usage_error("--mnk 99999999999x1x1", "'99999999999x1x1'");
}

TEST(BenchCommand, UnknownKernelListsTheValidOnes) {
    expect_bench_usage_error("--kernels naive_fma.f32,warp_speed --mnk 64x64x64", "'warp_speed'");
    expect_bench_usage_error("--kernels warp_speed", "mma_cp_async.f16");
}

TEST(BenchCommand, UnknownPresetAndExclusiveFormats) {
    expect_bench_usage_error("--preset huge", "'huge'");
    expect_bench_usage_error("--json --csv", "--csv");
    expect_bench_usage_error("--runs 3", "--runs");
}

TEST(BenchCommand, WithoutAGpuExits3WithTheReason) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result = run_command(kTclens + " bench --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("GPU"), std::string::npos);
}

TEST(BadInput, BenchPresetAndKernelListTheValidOnesAndRunsMustBeANumberInRange) {
    test::expect_usage_errors(kTclens,
                              {
                                  {"bench --preset huge", {"'huge'", "lab6, llm, square"}},
                                  {"bench --kernels ''", {"''", "naive_fma.f32", "cublas.bf16"}},
                                  {"bench --runs abc", {"--runs", "abc", "20"}},
                                  {"bench --runs 99999999999", {"--runs", "99999999999"}},
                                  {"bench --warmup -1", {"--warmup", "-1"}},
                              });
}

TEST(FaultInjectionCli, NoGpuMakesBenchExit3) {
    test::expect_no_gpu_refusal(kTclens, "bench --mnk 64x64x64");
}

TEST(FaultInjectionCli, LaunchFailureBenchReportsEachFailedRowAndExits1) {
    const auto result = test::run_with_fault(
        kTclens, "launch-failure", "bench --kernels naive_fma.f32 --mnk 64x64x64 --no-peak --json");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out << result.err;
    ASSERT_EQ(report.at("results").size(), 2u) << result.out;  // the rung and its cuBLAS reference
    EXPECT_EQ(report.at("results")[0]["kernel"], "naive_fma.f32");
    EXPECT_EQ(report.at("results")[1]["kernel"], "cublas.sgemm");
    for (const nlohmann::json& row : report.at("results")) {
        EXPECT_TRUE(test::contains(row["error"].get<std::string>(), "cudaErrorLaunchFailure"))
            << row;
        EXPECT_EQ(row["verified"], false) << row;
        EXPECT_TRUE(row["tflops"].is_null()) << row;
    }
}

TEST(FaultInjectionCli, LaunchFailureBenchTableShowsTheCudaErrorWithPeaksAsked) {
    const auto result =
        test::run_with_fault(kTclens, "launch-failure", "bench --kernels wmma.f16 --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(test::contains(result.out,
                               "error: cudaErrorLaunchFailure: unspecified launch failure "
                               "(injected: TCLENS_INJECT_FAULT=launch-failure)"))
        << result.out;
    EXPECT_TRUE(test::contains(result.out, "wmma.f16")) << result.out;
    EXPECT_TRUE(test::contains(result.out, "cublas.f16")) << result.out;
    // The memory roof's column and its key (a printf format once ate "%m" as strerror).
    EXPECT_TRUE(test::contains(result.out, "%mem   xSGEMM")) << result.out;
    EXPECT_TRUE(test::contains(result.out, "; %mem: of the measured DRAM bandwidth")) << result.out;
}

TEST(BenchCommand, AUsersKernelThatIsBadInputIsOneLineAndExit2) {
    expect_bench_usage_error("--kernel /nonexistent/k.cu", "/nonexistent/k.cu");
    expect_bench_usage_error("--kernel kernel.py", "not a CUDA file");
    expect_bench_usage_error("--kernels k.cu", "--kernel k.cu");
    expect_bench_usage_error("--kernel k.cu --error-map map.jpg", ".png or .svg");
    const std::string broken = test::write_kernel_file("broken.cu", test::kCompileErrorKernel);
    const auto result = run_command(kTclens + " bench --kernel " + broken + " --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("broken.cu:3: error:"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("undefined_thing"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

// A one-warp exercise is not a GEMM: bench names what it is and the command that runs it (the
// worker says so after compiling, before it looks for a GPU).
TEST(BenchCommand, AFragmentExerciseIsSentToTclensExercise) {
    const auto result = run_command(kTclens + " bench --kernel " + std::string(TCLENS_SOURCE_DIR) +
                                    "/examples/exercise_mma.cu --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("is a fragment exercise (mma_16x8x8_kernel"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("run it with tclens exercise"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(BenchCommand, AUsersKernelWithoutAGpuExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const auto result = run_command(kTclens + " bench --kernel " + good + " --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("needs an NVIDIA GPU"), std::string::npos) << result.err;
}

// A row that failed verification prints its error map's lines: after the table, and on stderr
// with --json (and --csv), whose stdout stays one document a program can parse.
TEST(BenchCommand, AFailedRowsErrorMapLeavesTheJsonOnStdoutWhole) {
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const std::string worker = "--worker 'SCRIPTED_BENCH=" + std::string(TCLENS_SOURCE_DIR) +
                               "/tests/data/worker_bench_wrong_block.json exec sh " +
                               TCLENS_SOURCE_DIR + "/tests/data/scripted_worker.sh'";
    const std::string bench = kTclens + " bench --kernel " + good + " --mnk 64x64x64 " + worker;
    const auto json = run_command(bench + " --json");
    EXPECT_EQ(json.exit_code, 1) << json.err;
    EXPECT_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded()) << json.out;
    EXPECT_TRUE(test::contains(json.err, "elements wrong")) << json.err;
    const auto table = run_command(bench);
    EXPECT_EQ(table.exit_code, 1) << table.err;
    EXPECT_TRUE(test::contains(table.out, "elements wrong")) << table.out;
}

TEST(BenchCommand, AWorkerThatBreaksIsOneLineAndExit1) {
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const std::vector<std::pair<std::string, std::string>> modes = {
        {"crash",
         "died during the bench request, at run 'yours.scripted 64x64x64' (killed by "
         "signal 11 (SIGSEGV))"},
        {"hang", "gave no answer for 0.5 s during the bench request"},
        {"garbage", "not protocol during the bench request"},
        {"fault", "faulted: an illegal memory access was encountered"}};
    for (const auto& [mode, said] : modes) {
        const auto result =
            run_command(kTclens + " bench --kernel " + good + " --mnk 64x64x64 --time-limit 0.5 " +
                        test::scripted_worker(mode));
        EXPECT_EQ(result.exit_code, 1) << mode << "\n" << result.err;
        EXPECT_NE(test::last_line(result.err).find(said), std::string::npos) << mode << "\n"
                                                                             << result.err;
        EXPECT_EQ(test::last_line(result.err).rfind("tclens: ", 0), 0u) << result.err;
        EXPECT_EQ(result.out, "") << mode;
    }
}

// --workers 2 over real pipe workers without a GPU (an injected launch failure gives every row
// an answer): the first worker to start aborts on its first bench (worker-crash), so its size
// goes to the other, which runs every size; the report and stderr say so.
TEST(BenchCommand, ASweepWhoseWorkerDiesFinishesOnTheOtherAndSaysSo) {
    const std::string claim = test::temp_path("sweep_claim_" + std::to_string(::getpid()));
    std::filesystem::remove_all(claim);
    const std::string worker = "if mkdir " + claim +
                               " 2>/dev/null; then export TCLENS_INJECT_FAULT=worker-crash; fi; "
                               "exec " +
                               kTclens + " worker";
    const std::string sweep =
        " bench --kernels naive_fma.f32 --mnk 64x64x64 --mnk 96x96x96 "
        "--mnk 128x128x128 --no-peak --workers 2 --worker '" +
        worker + "'";
    auto result = test::run_with_fault(kTclens, "launch-failure", sweep + " --json");
    EXPECT_EQ(result.exit_code, 1) << result.err;  // every row failed its (injected) launch
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out << result.err;
    ASSERT_EQ(report["results"].size(), 6u) << result.out;
    const int survivor = report["results"][0]["worker"];
    for (const nlohmann::json& row : report["results"]) EXPECT_EQ(row["worker"], survivor);
    ASSERT_EQ(report["workers"].size(), 2u);
    ASSERT_EQ(report["notes"].size(), 1u);
    const std::string note = report["notes"][0];
    EXPECT_EQ(note.rfind("worker " + std::to_string(3 - survivor) + " (", 0), 0u) << note;
    EXPECT_TRUE(test::contains(note, "died during the bench request")) << note;
    EXPECT_TRUE(test::contains(note, "; that size went to the others")) << note;
    EXPECT_TRUE(test::contains(result.err, "tclens: " + note)) << result.err;

    std::filesystem::remove_all(claim);
    result = test::run_with_fault(kTclens, "launch-failure", sweep);
    EXPECT_TRUE(test::contains(result.out, "note: worker ")) << result.out;
    EXPECT_TRUE(test::contains(result.out, "worker w1: ")) << result.out;
    std::filesystem::remove_all(claim);
}

// Two --worker commands (real pipe workers, an injected launch failure giving every row an
// answer without a GPU): the sizes are spread over both, each row names its worker, each worker
// its command's host. `--workers 2` with them starts two of each.
TEST(BenchCommand, RepeatedWorkerCommandsSpreadTheSizesOverEach) {
    // Each command marks which of the two it is in its own folder, so the test sees both ran.
    const std::string marks = test::temp_path("bench_worker_marks");
    std::filesystem::create_directories(marks);
    const auto worker = [&](const std::string& name) {
        return " --worker 'touch " + marks + "/" + name + "; exec " + kTclens + " worker'";
    };
    const std::string sweep =
        "bench --kernels naive_fma.f32 --no-reference --no-peak --mnk 64x64x64 --mnk 96x96x96 "
        "--mnk 128x128x128 --mnk 160x160x160 --json" +
        worker("a") + worker("b");
    const auto result = test::run_with_fault(kTclens, "launch-failure", sweep);
    EXPECT_EQ(result.exit_code, 1) << result.err;  // every row failed its (injected) launch
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out << result.err;
    ASSERT_EQ(report["workers"].size(), 2u) << result.out;
    ASSERT_EQ(report["results"].size(), 4u) << result.out;
    for (const nlohmann::json& row : report["results"]) {
        EXPECT_TRUE(row["worker"] == 1 || row["worker"] == 2) << row;
    }
    for (const nlohmann::json& w : report["workers"]) EXPECT_NE(w["host"], "") << w;
    EXPECT_TRUE(std::filesystem::exists(marks + "/a"));
    EXPECT_TRUE(std::filesystem::exists(marks + "/b"));
    EXPECT_EQ(report["notes"].size(), 0u) << report["notes"];

    const auto each_twice = test::run_with_fault(kTclens, "launch-failure", sweep + " --workers 2");
    const nlohmann::json four = nlohmann::json::parse(each_twice.out, nullptr, false);
    ASSERT_FALSE(four.is_discarded()) << each_twice.out << each_twice.err;
    EXPECT_EQ(four["workers"].size(), 4u) << each_twice.out;
    EXPECT_EQ(four["results"].size(), 4u) << each_twice.out;
    std::filesystem::remove_all(marks);
}

// Only bench takes several workers: another command refuses a second --worker or --remote in one
// line naming it; bench refuses --worker with --remote, as every command does.
TEST(BenchCommand, OnlyBenchTakesSeveralWorkers) {
    test::expect_usage_errors(
        kTclens, {{"profile --kernels naive_fma.f32 --worker a --worker b", {"--worker"}},
                  {"source --kernel naive_fma.f32 --remote gpu1 --remote gpu2", {"--remote"}},
                  {"bench --worker a --remote gpu1", {"--worker", "--remote"}},
                  {"bench --remote gpu1 --remote 'gpu2;id'", {"--remote", "'gpu2;id'"}}});
}

// --preset takes several presets; a size two of them share runs once (3072^3: square and lab6).
TEST(BenchCommand, SeveralPresetsRunEachSizeOnce) {
    const auto result = test::run_with_fault(
        kTclens, "launch-failure",
        "bench --kernels naive_fma.f32 --no-reference --no-peak --preset square,lab6 --json");
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out << result.err;
    EXPECT_EQ(report["results"].size(), 6u + 9u - 1u) << result.out;
}

// --sweep N draws N shapes from --seed (none given by hand) and reports the best kernel's
// ratio to cuBLAS per shape; with every launch failing (injected) no shape ran, so the minimum is
// 0 and each of the worst names the failed run.
TEST(BenchCommand, ASweepDrawsItsShapesAndReportsTheWorst) {
    expect_bench_usage_error("--sweep 0", "--sweep");
    expect_bench_usage_error("--sweep 10001", "--sweep");
    expect_bench_usage_error("--sweep 5 --mnk 64x64x64", "--sweep draws its own shapes");
    const std::string sweep = "bench --kernels naive_fma.f32 --no-peak --sweep 4 --seed 9";
    const auto json = test::run_with_fault(kTclens, "launch-failure", sweep + " --json");
    const nlohmann::json report = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << json.out << json.err;
    EXPECT_EQ(report["sweep"]["shapes"], 4) << report["sweep"];
    EXPECT_EQ(report["sweep"]["shapes_run"], 0);
    EXPECT_EQ(report["sweep"]["minimum"], 0.0);
    ASSERT_EQ(report["sweep"]["worst"].size(), 4u);
    for (const nlohmann::json& shape : report["sweep"]["worst"]) {
        EXPECT_TRUE(shape["ratio"].is_null()) << shape;
        EXPECT_EQ(shape["reason"].get<std::string>().rfind("naive_fma.f32: error:", 0), 0u)
            << shape;
        EXPECT_EQ(shape["plan"], "") << shape;  // no kernel ran it, so none chose how
    }
    const auto text = test::run_with_fault(kTclens, "launch-failure", sweep);
    EXPECT_NE(text.out.find("sweep of 4 shapes (seed 9): 0 ran"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("worst 4:"), std::string::npos) << text.out;
}

TEST(BenchCommand, WorkersAndGpuAreCheckedBeforeAnyWorkerStarts) {
    expect_bench_usage_error("--workers 0", "--workers");
    expect_bench_usage_error("--workers 65", "--workers");
    expect_bench_usage_error("--gpu -1", "--gpu");
    expect_bench_usage_error("--gpu 1 --workers 2", "--gpu picks the GPU of one worker");
    expect_bench_usage_error("--gpu 1 --worker 'tclens worker'", "with --worker give the command");
}

TEST(BenchCommand, AWorkerThatCannotStartExits3) {
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const auto result =
        run_command(kTclens + " bench --kernel " + good + " --worker /nonexistent/tclens-worker");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    // Before it, /bin/sh's own line about the missing program.
    EXPECT_EQ(test::last_line(result.err),
              "tclens: cannot start the worker `/nonexistent/tclens-worker`: it exited with code "
              "127 before answering hello")
        << result.err;
}

}  // namespace
}  // namespace tclens
