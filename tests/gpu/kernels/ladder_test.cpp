// Every kernel of the registry on the sizes: the lab's table (M = 16 ... 3072 with
// N = K = 3072), odd sizes and tiny ones. Each either verifies against the higher-precision
// reference (runner.h: poisoned output, fresh random inputs) or is refused with a reason. A
// refusal the descriptor documents (kernels::outside_documented_sizes: its size multiples, the
// architecture) is reported as skipped with that reason; a refusal of a size the descriptor
// documents as supported fails (tests/support/gpu_verdict.h).
//
// With TCLENS_RESULTS_DIR set, every case is also appended to
// $TCLENS_RESULTS_DIR/ladder_verification.md (kernel, size, reference, error, outcome).

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "kernels/gpu_registry.h"
#include "kernels/registry.h"
#include "kernels/runner.h"
#include "profiling/device_info.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/gpu/kernels/gemm_case.h"
#include "tests/support/gpu_verdict.h"

namespace tclens::kernels {
namespace {

std::vector<GemmProblem> sizes() {
    std::vector<GemmProblem> problems;
    for (std::int64_t m : {16, 32, 64, 128, 256, 512, 1024, 2048, 3072})
        problems.push_back({m, 3072, 3072});
    for (GemmProblem p :
         {GemmProblem{1000, 1000, 1000}, GemmProblem{4097, 129, 77}, GemmProblem{1, 1, 1},
          GemmProblem{33, 17, 40}, GemmProblem{257, 263, 1032}, GemmProblem{129, 4104, 96}}) {
        problems.push_back(p);
    }
    // Rung 11's two tiles (kernels/wave_choice.h, on 132 SMs): 128 x 192 over several rounds with
    // a partial last tile column (1000x3000x1040: one round; 3000x3000x200: three), 128 x 256
    // over several rounds (4096x4096x512: four; 4104x4104x264: five, a tie, partial edge tiles
    // and a cluster whose second CTA lies past M). The lab sizes above pick 128 x 192.
    for (GemmProblem p : {GemmProblem{1000, 3000, 1040}, GemmProblem{3000, 3000, 200},
                          GemmProblem{4096, 4096, 512}, GemmProblem{4104, 4104, 264}}) {
        problems.push_back(p);
    }
    return problems;
}

std::vector<GemmCase> cases() {
    std::vector<GemmCase> all;
    for (const KernelDescriptor& k : all_gpu_kernels()) {
        for (const GemmProblem& p : sizes()) all.push_back({k.id, p});
    }
    return all;
}

std::string size_text(const GemmProblem& p) {
    return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

void record(const RunResult& r) {
    const char* dir = std::getenv("TCLENS_RESULTS_DIR");
    if (dir == nullptr) return;
    const std::string path = std::string(dir) + "/ladder_verification.md";
    const bool fresh = !std::ifstream(path).good();
    std::ofstream out(path, std::ios::app);
    if (fresh)
        out << "| kernel | M x N x K | reference | rel. RMS error | bound | outcome "
               "|\n|---|---|---|---|---|---|\n";
    char error[32];
    std::snprintf(error, sizeof error, "%.2e", r.check.rel_rms_error);
    const std::string outcome = !r.skipped.empty() ? "refused: " + r.skipped
                                : !r.error.empty() ? "ERROR: " + r.error
                                : r.check.passed   ? "verified"
                                                   : "FAILED";
    out << "| " << r.kernel_id << " | " << size_text(r.problem) << " | " << r.check.reference
        << " | " << (r.skipped.empty() ? error : "-") << " | " << r.check.bound << " | " << outcome
        << " |\n";
}

class LadderVerification : public testing::TestWithParam<GemmCase> {};

TEST_P(LadderVerification, VerifiesOrSaysWhyNot) {
    TCLENS_REQUIRE_GPU();
    const GemmCase& c = GetParam();
    const KernelDescriptor& kernel = *find_gpu_kernel(c.kernel_id);
    static GemmRunner runner;
    ASSERT_EQ(runner.init_error(), "");
    RunOptions options;
    options.time = false;
    options.seed = static_cast<std::uint64_t>(c.problem.m * 131 + c.problem.n * 7 + c.problem.k);
    const RunResult r = runner.run(kernel, c.problem, options);
    record(r);
    if (!r.skipped.empty()) {
        // Saying why not is this test's other verdict, not a skip: a refusal its descriptor
        // documents passes (one line, in ladder_verification.md); any other refusal fails.
        // (As a skip, the refusals of a few sizes turned the ctest entry of every kernel and
        // size, ~30 s of verification, into "Skipped".)
        EXPECT_EQ(r.skipped.find('\n'), std::string::npos);
        const test::Outcome refusal =
            test::judge_refusal(r, test::documented_refusal_here(kernel, c.problem));
        ASSERT_NE(refusal.verdict, test::Verdict::kFail) << refusal.reason;
        return;
    }
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.check.nan_count, 0) << "elements left unwritten";
    EXPECT_TRUE(r.check.passed) << c.kernel_id << " " << size_text(c.problem) << ": rel. RMS error "
                                << r.check.rel_rms_error << " > " << r.check.bound << " vs "
                                << r.check.reference
                                << " (reference vs fp64: " << r.check.reference_rel_rms << ")";
}

INSTANTIATE_TEST_SUITE_P(Kernels, LadderVerification, testing::ValuesIn(cases()), gemm_case_name);

// The runner's own promises, on one kernel: timing happens only after verification, a poisoned
// output that a kernel does not write fails verification, and the median lies between min and max.
TEST(GemmRunnerOnGpu, TimesOnlyVerifiedRuns) {
    TCLENS_REQUIRE_GPU();
    GemmRunner runner;
    RunOptions options;
    options.timed_runs = 20;
    const RunResult r = runner.run(*find_gpu_kernel("cublas.f16"), {1024, 1024, 1024}, options);
    ASSERT_TRUE(r.counts()) << r.error << r.skipped;
    EXPECT_EQ(r.timed_runs, 20);
    EXPECT_LE(r.min_ms, r.median_ms);
    EXPECT_LE(r.median_ms, r.max_ms);
    EXPECT_GT(r.input_sets, 1) << "inputs must rotate through more than the L2";
    EXPECT_NEAR(r.tflops, 2.0 * 1024 * 1024 * 1024 / (r.median_ms * 1e-3) / 1e12, 1e-9);
}

// cublas.f16 as `id`, with `before` run on the host before each of its launches, timed at 512^3
// (20 runs, one warm-up).
RunResult time_cublas_after(const std::string& id,
                            const std::function<cudaError_t(GpuStream)>& before) {
    const KernelDescriptor& cublas = *find_gpu_kernel("cublas.f16");
    KernelDescriptor kernel = cublas;
    kernel.id = id;
    kernel.launch = [&cublas, before](const GemmOperands& operands, GpuStream stream) -> GpuStatus {
        const cudaError_t e = before(stream);
        return e != cudaSuccess ? e : cublas.launch(operands, stream);
    };
    GemmRunner runner;
    RunOptions options;
    options.warmup_runs = 1;
    options.timed_runs = 20;
    return runner.run(kernel, {512, 512, 512}, options);
}

// The timed launches run behind a closed stream gate (kernels/stream_gate.h): a host that takes
// 2 ms to enqueue each launch of a kernel that runs for microseconds is not timed with it.
TEST(GemmRunnerOnGpu, TheHostsEnqueueIsNotTimed) {
    TCLENS_REQUIRE_GPU();
    const RunResult r = time_cublas_after("slow_host.f16", [](GpuStream) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return cudaSuccess;
    });
    ASSERT_TRUE(r.counts()) << run_status(r);
    EXPECT_LT(r.max_ms, 0.5) << "the events timed the host's 2 ms sleep";
}

// A launcher that waits for its stream (a user's host launcher may synchronize) cannot wait on
// the gate for long: the gate gives up after 200 ms a batch, and the run is timed, host-paced.
TEST(GemmRunnerOnGpu, ALauncherThatWaitsForItsStreamIsStillTimed) {
    TCLENS_REQUIRE_GPU();
    const RunResult r = time_cublas_after(
        "waiting.f16", [](GpuStream stream) { return cudaStreamSynchronize(stream); });
    ASSERT_TRUE(r.counts()) << run_status(r);
    EXPECT_LT(r.time_ms, 2000.0) << "the gate held the stream past its 200 ms";
    EXPECT_LT(r.median_ms, 0.5);
}

TEST(GemmRunnerOnGpu, AKernelThatWritesNothingFailsAndIsNotTimed) {
    TCLENS_REQUIRE_GPU();
    KernelDescriptor lazy = *find_gpu_kernel("naive_fma.f32");
    lazy.launch = [](const GemmOperands&, cudaStream_t) { return cudaSuccess; };
    GemmRunner runner;
    const RunResult r = runner.run(lazy, {64, 64, 64}, RunOptions{});
    EXPECT_FALSE(r.check.passed);
    EXPECT_EQ(r.check.nan_count, 64 * 64);
    EXPECT_EQ(r.timed_runs, 0);
    EXPECT_FALSE(r.counts());
}

TEST(GemmRunnerOnGpu, AWrongKernelFailsVerification) {
    TCLENS_REQUIRE_GPU();
    // TF32 data through the f32 bound: cuBLAS TF32 is ~1e-4 off, far above the f32 bound, so a
    // kernel of the wrong precision is caught.
    KernelDescriptor wrong = *find_gpu_kernel("cublas.tf32");
    wrong.precision = Precision::kF32;
    GemmRunner runner;
    const RunResult r = runner.run(wrong, {512, 512, 512}, RunOptions{});
    EXPECT_FALSE(r.check.passed) << r.check.rel_rms_error;
    EXPECT_GT(r.check.rel_rms_error, verification_bound(Precision::kF32, 512));
}

// The runner keeps the last reference for the next run of the same problem, precision and seed
// (a bench runs each kernel of a size in turn on the same inputs): a wrong kernel after a right
// one still fails, and a new seed gets a reference of its own; both kinds of reference (fp64 on
// the CPU at 512^3, cuBLAS FP32 at 1024^3).
TEST(GemmRunnerOnGpu, AKeptReferenceStillCatchesAWrongKernel) {
    TCLENS_REQUIRE_GPU();
    KernelDescriptor wrong = *find_gpu_kernel("cublas.tf32");  // TF32 through the f32 bound
    wrong.precision = Precision::kF32;
    const KernelDescriptor& right = *find_gpu_kernel("cublas.sgemm");
    GemmRunner runner;
    ASSERT_EQ(runner.init_error(), "");
    RunOptions options;
    options.time = false;
    for (const GemmProblem& p : {GemmProblem{512, 512, 512}, GemmProblem{1024, 1024, 1024}}) {
        for (const std::uint64_t seed : {1, 2}) {
            options.seed = seed;
            const RunResult first = runner.run(right, p, options);
            EXPECT_TRUE(first.check.passed) << run_status(first);
            EXPECT_EQ(first.check.reference, p.m == 512 ? "cpu.fp64" : "cublas.sgemm");
            const RunResult caught = runner.run(wrong, p, options);
            EXPECT_FALSE(caught.check.passed) << caught.check.rel_rms_error;
            EXPECT_GT(caught.check.rel_rms_error, verification_bound(Precision::kF32, p.k));
            EXPECT_TRUE(runner.run(right, p, options).check.passed);
        }
    }
}

// A kernel that writes into its inputs after using them (here: cuBLAS, then A zeroed) cannot
// spoil the reference kept for the next kernel: the reference is made before the kernel runs,
// and the next run gets fresh inputs of the same seed.
TEST(GemmRunnerOnGpu, AKernelThatWritesIntoItsInputsLeavesTheKeptReferenceRight) {
    TCLENS_REQUIRE_GPU();
    const KernelDescriptor& sgemm = *find_gpu_kernel("cublas.sgemm");
    KernelDescriptor spoiler = sgemm;
    spoiler.id = "spoiler.f32";
    spoiler.launch = [&sgemm](const GemmOperands& operands, GpuStream stream) -> GpuStatus {
        const GpuStatus status = sgemm.launch(operands, stream);
        if (status != 0) return status;
        const std::size_t bytes =
            static_cast<std::size_t>(operands.problem.m * operands.problem.k) * 4;
        return cudaMemsetAsync(const_cast<void*>(operands.a), 0, bytes, stream);
    };
    GemmRunner runner;
    ASSERT_EQ(runner.init_error(), "");
    RunOptions options;
    options.time = false;
    for (const GemmProblem& p : {GemmProblem{512, 512, 512}, GemmProblem{1024, 1024, 1024}}) {
        const RunResult spoiled = runner.run(spoiler, p, options);
        EXPECT_TRUE(spoiled.check.passed) << run_status(spoiled);  // its C was right
        const RunResult next = runner.run(sgemm, p, options);
        EXPECT_TRUE(next.check.passed) << run_status(next);
    }
}

// Rungs 11 and 13 at 9136 x 3680 x 80 (an N-edge tile of three 32-column subtiles, a short K
// loop): counting the epilogue's store buffers per tile reused a buffer whose TMA store was still
// reading it, and 5 of 12 runs gave a few wrong tiles (session 19: 1904 of 33.6 M elements, rel.
// RMS 3e-3 inside the 16-bit bound). Every one of eight runs, each with new inputs, must be
// right to the element.
TEST(GemmRunnerOnGpu, PersistentRungsGetTheNEdgeRightAtShortK) {
    TCLENS_REQUIRE_GPU();
    GemmRunner runner;
    ASSERT_EQ(runner.init_error(), "");
    RunOptions options;
    options.time = false;
    for (const char* id : {"wgmma_persistent.bf16", "wgmma_persistent.f16", "wgmma_fp8.e4m3"}) {
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            options.seed = seed;
            const RunResult r = runner.run(*find_gpu_kernel(id), {9136, 3680, 80}, options);
            if (!r.skipped.empty()) GTEST_SKIP() << r.skipped;
            EXPECT_TRUE(r.check.passed) << id << " seed " << seed << ": " << run_status(r);
            EXPECT_EQ(r.check.wrong_elements, 0) << id << " seed " << seed;
        }
    }
}

}  // namespace
}  // namespace tclens::kernels
