// Users' kernels on the GPU, through the same runner as the ladder: the examples
// verify and time; the deliberately wrong kernel fails with an error map of whole tiles; the
// kernel writing past C is caught by the guard zones; one wrong element of a large C fails
// although the relative RMS error stays within the bound; the fragment exercise with a planted
// index bug is reported on exactly the elements the bug moves; a loaded copy of rung 8 times like
// the built-in rung (within 2 %); three launchers that game the timing are each refused with the
// line that says what they did, and the checks leave an honest kernel's time as it was.
#include "kernels/user/user_kernel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "kernels/gpu_registry.h"
#include "kernels/runner.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"

namespace tclens::kernels::user {
namespace {

const std::string kExamples = TCLENS_EXAMPLES_DIR;
const std::string kGamed = std::string(TCLENS_SOURCE_DIR) + "/tests/data/gaming";

std::shared_ptr<LoadedKernel> load(const std::string& name, const std::string& folder = kExamples) {
    auto ref = parse_kernel_ref(folder + "/" + name);
    EXPECT_TRUE(ref) << ref.error();
    auto compiled = compile_user_kernel(*ref, {});
    EXPECT_TRUE(compiled) << compiled.error();
    if (!compiled) return nullptr;
    auto loaded = load_user_kernel(*compiled);
    EXPECT_TRUE(loaded) << loaded.error();
    if (!loaded) return nullptr;
    std::printf("%s: compile %.2f s, load %.3f s\n", name.c_str(), compiled->compile_seconds,
                (*loaded)->load_seconds);
    return *loaded;
}

RunResult run(const KernelDescriptor& kernel, GemmProblem problem, bool time = true) {
    GemmRunner runner;
    RunOptions options;
    options.time = time;
    return runner.run(kernel, problem, options);
}

TEST(UserKernelGpu, ExamplesVerifyAndTime) {
    TCLENS_REQUIRE_GPU();
    for (const char* name : {"matmul_tensor.cu", "directive_gemm.cu"}) {
        std::shared_ptr<LoadedKernel> k = load(name);
        ASSERT_NE(k, nullptr) << name;
        for (GemmProblem p : {GemmProblem{1024, 1024, 1024}, GemmProblem{257, 263, 1032},
                              GemmProblem{33, 17, 40}, GemmProblem{3072, 3072, 3072}}) {
            const RunResult r = run(k->descriptor, p);
            EXPECT_TRUE(r.counts())
                << name << " " << p.m << "x" << p.n << "x" << p.k << ": " << run_status(r);
            EXPECT_FALSE(r.check.error_map) << name;
            std::printf("%s %lldx%lldx%lld: %.3f ms, %.1f TFLOP/s, rel. RMS %.2e (%s)\n", name,
                        static_cast<long long>(p.m), static_cast<long long>(p.n),
                        static_cast<long long>(p.k), r.median_ms, r.tflops, r.check.rel_rms_error,
                        r.check.reference.c_str());
        }
    }
}

TEST(UserKernelGpu, DirectiveRefusesSizesItCannotLaunch) {
    TCLENS_REQUIRE_GPU();
    std::shared_ptr<LoadedKernel> k = load("directive_gemm.cu");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->descriptor.threads, 256);
    EXPECT_EQ(k->descriptor.dynamic_smem_bytes, 2176);
    const std::string why = k->descriptor.can_run({65536 * 17, 16, 16});
    EXPECT_NE(why.find("grid.y = cdiv(M,16) = 69632"), std::string::npos) << why;
    EXPECT_EQ(k->descriptor.can_run({4096, 4096, 4096}), "");
}

TEST(UserKernelGpu, WrongKernelGetsAnErrorMapOfWholeTiles) {
    TCLENS_REQUIRE_GPU();
    std::shared_ptr<LoadedKernel> k = load("wrong_block_offset.cu");
    ASSERT_NE(k, nullptr);
    const RunResult r = run(k->descriptor, {128, 128, 128}, false);
    EXPECT_FALSE(r.check.passed);
    ASSERT_TRUE(r.check.error_map) << run_status(r);
    const viz::ErrorMap& map = *r.check.error_map;
    EXPECT_EQ(map.granularity, "element");
    std::int64_t diagonal_wrong = 0;
    std::int64_t off_diagonal_wrong = 0;
    for (int i = 0; i < 128; ++i) {
        for (int j = 0; j < 128; ++j) {
            (i / 16 == j / 16 ? diagonal_wrong : off_diagonal_wrong) += map.cell(i, j).wrong;
        }
    }
    EXPECT_EQ(diagonal_wrong, 0);
    EXPECT_GT(off_diagonal_wrong, 56 * 256 * 9 / 10);  // most of the 56 off-diagonal blocks
    ASSERT_TRUE(map.first_wrong);
    EXPECT_EQ(map.first_wrong->row, 0);
    EXPECT_GE(map.first_wrong->col, 16);
    std::printf("%s\n%s\n", viz::error_map_summary(map).c_str(),
                viz::error_pattern_hint(map).c_str());
    EXPECT_NE(viz::error_pattern_hint(map).find("tiles (16x8 tile) wrong, the others all right"),
              std::string::npos);
    // The values name the bug: each wrong tile holds the mirrored block's.
    EXPECT_NE(map.bug.find("blockIdx.x and blockIdx.y are swapped"), std::string::npos) << map.bug;
}

// examples/matmul_tensor.cu with one line changed, written to a temporary folder: the planted
// fragment bugs a student makes, each named from C's values by the runner's error map.
std::shared_ptr<LoadedKernel> load_variant(const std::string& name, const std::string& line,
                                           const std::string& replacement) {
    std::ifstream in(kExamples + "/matmul_tensor.cu");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t at = text.find(line);
    EXPECT_NE(at, std::string::npos) << "matmul_tensor.cu no longer has: " << line;
    if (at == std::string::npos) return nullptr;
    text.replace(at, line.size(), replacement);
    const std::string folder = test::temp_path("fragment_bugs");
    std::filesystem::create_directories(folder);
    std::ofstream(folder + "/" + name) << text;
    return load(name, folder);
}

TEST(UserKernelGpu, PlantedFragmentBugsAreNamed) {
    TCLENS_REQUIRE_GPU();
    struct Case {
        const char* file;
        const char* line;
        const char* replacement;
        const char* named;
    };
    const Case cases[] = {
        {"c_swap.cu", "c[int64_t(row) * size_j + col] = acc[j][r];",
         "c[int64_t(row) * size_j + col] = acc[j][r == 1 ? 2 : r == 2 ? 1 : r];",
         "C: every lane's c1 and c2 are exchanged"},
        {"a_swap.cu",
         "const uint32_t a1 = to_tf32(a_tile[wr + group + 8][quad]);\n"
         "        const uint32_t a2 = to_tf32(a_tile[wr + group][quad + 4]);",
         "const uint32_t a1 = to_tf32(a_tile[wr + group][quad + 4]);\n"
         "        const uint32_t a2 = to_tf32(a_tile[wr + group + 8][quad]);",
         "A: every lane's a1 and a2 are exchanged"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        std::shared_ptr<LoadedKernel> k = load_variant(c.file, c.line, c.replacement);
        ASSERT_NE(k, nullptr);
        const RunResult r = run(k->descriptor, {256, 256, 256}, false);
        EXPECT_FALSE(r.check.passed);
        ASSERT_TRUE(r.check.error_map) << run_status(r);
        const viz::ErrorMap& map = *r.check.error_map;
        std::printf("%s: %s\n  %s\n", c.file, viz::error_map_summary(map).c_str(), map.bug.c_str());
        EXPECT_EQ(map.bug.rfind(c.named, 0), 0u) << map.bug;
        EXPECT_EQ(map.folded.layout_id, "mma.m16n8k8.tf32");
        EXPECT_GT(map.folded.wrong_tiles, 0);
    }
}

// One element of a 4096 x 4096 C negated: 2 |c| / |C| ~ 4e-4 of relative RMS error, inside
// TF32's bound of 1e-3, so only the per-element check (runner.h, Verification::wrong_elements)
// catches it, as it caught rung 11's few wrong edge tiles (rel. RMS 3e-3 < 1e-2).
TEST(UserKernelGpu, OneWrongElementFailsWhereTheRmsAlonePasses) {
    TCLENS_REQUIRE_GPU();
    std::shared_ptr<LoadedKernel> k =
        load_variant("one_wrong_element.cu", "c[int64_t(row) * size_j + col] = acc[j][r];",
                     "c[int64_t(row) * size_j + col] = row == 77 && col == 91 ? -acc[j][r] "
                     ": acc[j][r];");
    ASSERT_NE(k, nullptr);
    const RunResult r = run(k->descriptor, {4096, 4096, 256}, false);
    EXPECT_FALSE(r.check.passed);
    EXPECT_EQ(r.check.wrong_elements, 1);
    EXPECT_LE(r.check.rel_rms_error, r.check.bound) << "the RMS alone would have failed it";
    EXPECT_NE(run_status(r).find("NOT VERIFIED: 1 of 16777216 elements wrong"), std::string::npos)
        << run_status(r);
    ASSERT_TRUE(r.check.error_map);
    ASSERT_TRUE(r.check.error_map->first_wrong);
    EXPECT_EQ(r.check.error_map->first_wrong->row, 77);
    EXPECT_EQ(r.check.error_map->first_wrong->col, 91);
}

TEST(UserKernelGpu, GuardZonesCatchWritesPastC) {
    TCLENS_REQUIRE_GPU();
    std::shared_ptr<LoadedKernel> k = load("out_of_bounds.cu");
    ASSERT_NE(k, nullptr);
    const RunResult r = run(k->descriptor, {100, 64, 64}, false);
    EXPECT_FALSE(r.check.passed);
    EXPECT_EQ(r.check.out_of_bounds,
              "wrote outside C: 3072 bytes in the 65536-byte guard zone after its end "
              "(nearest: 0 bytes past the end)");
    EXPECT_EQ(run_status(r), "NOT VERIFIED: " + r.check.out_of_bounds);
    // A size it handles (M a multiple of 16) writes nothing outside.
    const RunResult fine = run(k->descriptor, {96, 64, 64}, false);
    EXPECT_TRUE(fine.check.passed) << run_status(fine);
    // Every rung keeps its guard zones intact.
    const RunResult rung = run(*find_gpu_kernel("mma_cp_async.bf16"), {4097, 136, 72}, false);
    EXPECT_EQ(rung.check.out_of_bounds, "");
}

TEST(UserKernelGpu, ExerciseReportsThePlantedBugsElements) {
    TCLENS_REQUIRE_GPU();
    for (const bool planted : {false, true}) {
        const std::string name = planted ? "exercise_mma_planted_bug.cu" : "exercise_mma.cu";
        auto compiled = compile_user_kernel(*parse_kernel_ref(kExamples + "/" + name), {});
        ASSERT_TRUE(compiled) << compiled.error();
        auto report = run_fragment_exercise(*compiled);
        ASSERT_TRUE(report) << report.error();
        std::printf("%s: %s\n", name.c_str(), report->summary().c_str());
        if (!planted) {
            EXPECT_EQ(report->wrong, 0) << report->summary();
            EXPECT_TRUE(report->product_correct);
            continue;
        }
        const ExerciseOperand& a = report->operands[0];
        EXPECT_EQ(a.wrong, 64);
        EXPECT_EQ(report->operands[1].wrong, 0);
        EXPECT_EQ(report->operands[2].wrong, 0);
        for (const ExerciseElement& e : a.elements) {
            const bool upper_right = e.row < 8 && e.col >= 4;
            const bool lower_left = e.row >= 8 && e.col < 4;
            EXPECT_EQ(e.correct, !(upper_right || lower_left)) << e.row << "," << e.col;
            if (upper_right) {
                EXPECT_EQ(e.went_row, e.row + 8);
                EXPECT_EQ(e.went_col, e.col - 4);
            }
            if (lower_left) {
                EXPECT_EQ(e.went_row, e.row - 8);
                EXPECT_EQ(e.went_col, e.col + 4);
            }
        }
    }
}

TEST(UserKernelGpu, LoadedCopyOfRung8TimesLikeTheRung) {
    TCLENS_REQUIRE_GPU();
    const KernelDescriptor* rung = find_gpu_kernel("mma_cp_async.bf16");
    ASSERT_NE(rung, nullptr);
    std::shared_ptr<LoadedKernel> copy = load("rung8_copy.cu");
    ASSERT_NE(copy, nullptr);
    GemmRunner runner;
    RunOptions options;
    options.timed_runs = 50;
    // Alternate the two, three rounds each, and compare the medians of the rounds' medians.
    std::vector<double> rung_ms, copy_ms;
    for (int round = 0; round < 3; ++round) {
        const RunResult a = runner.run(*rung, {4096, 4096, 4096}, options);
        const RunResult b = runner.run(copy->descriptor, {4096, 4096, 4096}, options);
        ASSERT_TRUE(a.counts()) << run_status(a);
        ASSERT_TRUE(b.counts()) << run_status(b);
        rung_ms.push_back(a.median_ms);
        copy_ms.push_back(b.median_ms);
        std::printf("round %d: rung %.4f ms (%.1f TFLOP/s), loaded copy %.4f ms (%.1f TFLOP/s)\n",
                    round, a.median_ms, a.tflops, b.median_ms, b.tflops);
    }
    std::sort(rung_ms.begin(), rung_ms.end());
    std::sort(copy_ms.begin(), copy_ms.end());
    const double ratio = copy_ms[1] / rung_ms[1];
    std::printf("loaded copy / rung = %.4f\n", ratio);
    EXPECT_LT(ratio, 1.02);
}

TEST(UserKernelGpu, CubinForAnotherArchitectureIsRefused) {
    TCLENS_REQUIRE_GPU();
    CompileOptions other;
    other.sm = 75;  // Turing: no GPU of the test machines
    auto compiled = compile_user_kernel(*parse_kernel_ref(kExamples + "/directive_gemm.cu"), other);
    ASSERT_TRUE(compiled) << compiled.error();
    auto loaded = load_user_kernel(*compiled);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().find("was built for sm_75; this GPU is sm_"), std::string::npos)
        << loaded.error();
}

// Launchers a student could write to get a number without doing the timed work
// (tests/data/gaming/): each verifies (its first call is honest), and its times are refused with
// the line that names what it did; no TFLOP/s is left.
TEST(UserKernelGpu, GamedTimingsAreRefusedEachWithItsLine) {
    TCLENS_REQUIRE_GPU();
    for (const auto& [file, line] : std::vector<std::pair<std::string, std::string>>{
             {"returns_before_its_work_ran.cu", "work left on another stream"},
             {"works_on_its_first_call_only.cu", "the launcher skipped work"},
             {"skips_a_c_it_filled_before.cu", "the launcher skipped work"}}) {
        std::shared_ptr<LoadedKernel> k = load(file, kGamed);
        ASSERT_NE(k, nullptr) << file;
        const RunResult r = run(k->descriptor, {1024, 1024, 1024});
        std::printf("%s: %s\n", file.c_str(), run_status(r).c_str());
        EXPECT_TRUE(r.check.passed) << file << ": " << run_status(r);
        EXPECT_FALSE(r.counts()) << file;
        EXPECT_NE(r.refused.find(line), std::string::npos) << file << ": " << run_status(r);
        EXPECT_EQ(r.tflops, 0) << file;
    }
}

// The checks of a kernel of yours' timed launches (a poison before and a count after each, outside
// the events) leave its time as it was: the same loaded kernel timed with and without them, five
// times each, interleaved, medians within 3 %.
TEST(UserKernelGpu, TheChecksLeaveAnHonestKernelsTimeAsItWas) {
    TCLENS_REQUIRE_GPU();
    std::shared_ptr<LoadedKernel> k = load("matmul_tensor.cu");
    ASSERT_NE(k, nullptr);
    KernelDescriptor unchecked = k->descriptor;
    ASSERT_TRUE(unchecked.checked_timing);
    unchecked.checked_timing = false;
    std::vector<double> with_checks;
    std::vector<double> without;
    for (int i = 0; i < 5; ++i) {
        const RunResult a = run(k->descriptor, {2048, 2048, 2048});
        const RunResult b = run(unchecked, {2048, 2048, 2048});
        ASSERT_TRUE(a.counts()) << run_status(a);
        ASSERT_TRUE(b.counts()) << run_status(b);
        with_checks.push_back(a.median_ms);
        without.push_back(b.median_ms);
    }
    std::sort(with_checks.begin(), with_checks.end());
    std::sort(without.begin(), without.end());
    const double ratio = with_checks[2] / without[2];
    std::printf("matmul_tensor 2048^3: median %.4f ms checked, %.4f ms unchecked (%+.2f %%)\n",
                with_checks[2], without[2], 100.0 * (ratio - 1.0));
    EXPECT_NEAR(ratio, 1.0, 0.03);
}

}  // namespace
}  // namespace tclens::kernels::user
