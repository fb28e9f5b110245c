// Kernels of yours in the GUI under Xvfb: opened through the `open=` / `exercise=`
// settings (the path File > Open kernel... and a dropped .cu take), run only through the worker
// client. The CPU tests give the GUI tests/data/scripted_worker.sh as its worker, answering with
// the fixtures of tests/data/make_user_fixtures.py, so the whole path (load, bench, error map;
// exercise, overlay; a crashing worker) runs without a GPU. The same paths on the real worker are
// GPU tests: tests/gpu/app/gui/user_kernels_gui_test.cpp.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/gui/views/theme.h"
#include "profiling/device_query.h"
#include "profiling/recording.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"
#include "viz/palette.h"

namespace tclens {
namespace {

using test::kSource;
using test::kTclens;

// TCLENS_WORKER for the scripted worker answering with `variables` (e.g. SCRIPTED_BENCH=F).
std::string scripted(const std::string& variables) {
    return "env TCLENS_WORKER='" + variables + " sh " + kSource +
           "/tests/data/scripted_worker.sh' ";
}

// The view alone, 1400 pixels wide, with `environment` (e.g. scripted(...)) before the binary.
test::PngFacts screenshot(const std::string& environment, const std::string& view,
                          const std::string& settings, test::CommandResult& result,
                          int height = 900) {
    return test::view_screenshot(environment + kTclens, view, 1400, height, settings, result);
}

// The panels' text of `tclens headless` (no display needed) once the jobs it started have ended
// and the layout has settled, with `settings` ("PANEL.KEY=VALUE" each; workspace.view /
// workspace.split pick the panes) and `options` (e.g. "--open F").
std::string headless_text(const std::string& environment, const std::vector<std::string>& settings,
                          test::CommandResult& result, const std::string& options = "") {
    const std::string out = test::temp_path("yours_headless.txt");
    std::string command = environment + "env -u DISPLAY " + kTclens + " headless " + options;
    for (const std::string& setting : settings) command += " --set '" + setting + "'";
    command += " --frames 3 --text " + out;
    result = test::run_command("sh -c \"" + command + "\"");
    std::ifstream file(out);
    std::stringstream text;
    text << file.rdbuf();
    std::remove(out.c_str());
    return text.str();
}

// The scripted worker answering a good bench (yours.scripted verified at 64x64x64, 0.04 TFLOP/s,
// next to cublas.sgemm) and its profile.
std::string scripted_good(const std::string& more_variables = "") {
    return scripted("SCRIPTED_BENCH=" + kSource +
                    "/tests/data/worker_bench_good.json SCRIPTED_PROFILE=" + kSource +
                    "/tests/data/worker_profile_good.json " + more_variables);
}

// The error map's heat colour of a cell whose elements are all wrong (viz/error_map_view.h:
// bucket 5 of the theme's heat ramp).
viz::Rgba all_wrong_colour() { return gui::dark_theme().banks.heat.back(); }

TEST(UserKernels, AFailedVerificationShowsItsErrorMapFromTheWorkersResult) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    test::CommandResult result;
    const auto png = screenshot(
        scripted("SCRIPTED_BENCH=" + kSource + "/tests/data/worker_bench_wrong_block.json"),
        "kernels", "--set open=" + kSource + "/examples/wrong_block_offset.cu --set mnk=64x64x64",
        result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(png.loaded);
    // 12 of the 16 tiles of 16 x 16 elements are wrong: at the map's ~8 pixels per element,
    // about 12 * 256 * 64 pixels of the all-wrong colour; the 4 diagonal tiles are not.
    const int wrong_pixels = test::count_pixels(png, all_wrong_colour());
    EXPECT_GT(wrong_pixels, 12 * 256 * 30) << "the wrong tiles are not drawn";
    EXPECT_LT(wrong_pixels, 16 * 256 * 80) << "more than the wrong tiles are drawn";
}

TEST(UserKernels, AnExerciseOutlinesTheWrongElementsOnTheLayout) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const viz::Rgba error = gui::dark_theme().error;
    test::CommandResult result;
    const auto plain = screenshot("", "fragments", "--set layout=mma.m16n8k8.tf32", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto overlaid = screenshot(
        scripted("SCRIPTED_EXERCISE=" + kSource + "/tests/data/worker_exercise_planted.json"),
        "fragments", "--set exercise=" + kSource + "/examples/exercise_mma_planted_bug.cu", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(plain.loaded && overlaid.loaded);
    // 64 of A's cells (28 x 28 pixels) outlined in the error colour: at least their outlines.
    EXPECT_LT(test::count_pixels(plain, error), 200);
    EXPECT_GT(test::count_pixels(overlaid, error), 64 * 60);
    // Only A's cells: nothing right of A's drawing (B and C, x from 270 of the 1400 pixels) is
    // outlined, in the rows of the drawings (below the exercise's line of text).
    int outside_a = 0;
    for (int y = 220; y < 700; ++y) outside_a += test::count_pixels_in_row(overlaid, error, y, 270);
    EXPECT_LT(outside_a, 50) << "B or C cells outlined: the planted bug is only in A";
}

TEST(UserKernels, ACrashingWorkerIsOneLineAndTheGuiGoesOn) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    test::CommandResult result;
    const auto png = screenshot(
        scripted("SCRIPTED_WORKER=crash"), "kernels",
        "--set open=" + kSource + "/examples/wrong_block_offset.cu --set mnk=64x64x64", result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(png.loaded) << "the GUI drew its frame after the worker died";
    EXPECT_LT(test::count_pixels(png, all_wrong_colour()), 100) << "no error map without a result";
    EXPECT_GT(test::count_pixels(png, gui::dark_theme().error), 50) << "the version's one line";
}

// The real worker on a machine without a GPU: the kernel compiles, cannot load, and the Kernels
// panel says so once (no version is made of it), with Retry instead of a Rebuild that would fail
// the same way.
TEST(UserKernels, WithoutAGpuTheWorkerSaysSoOnceAndRebuildWaitsForRetry) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    test::CommandResult result;
    const std::string text =
        headless_text("env -u TCLENS_WORKER ",
                      {"kernels.open=" + kSource + "/examples/directive_gemm.cu",
                       "kernels.mnk=64x64x64", "workspace.view=kernels"},
                      result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::size_t first = text.find("no GPU on ");
    ASSERT_NE(first, std::string::npos) << text;
    EXPECT_EQ(text.find("no GPU on ", first + 1), std::string::npos) << "said twice:\n" << text;
    EXPECT_EQ(text.find("v1  "), std::string::npos) << "a version of a build that never ran:\n"
                                                    << text;
    EXPECT_NE(text.find("Retry"), std::string::npos) << text;
}

TEST(UserKernels, WatchBuildsVersionTwoWhenTheFileIsSaved) {
    // A copy of an example, watched; once the worker has been asked for v1's bench, the file is
    // saved again, and the GUI runs until v2's line is shown (120 s at most).
    const std::string file = test::temp_path("watched_yours.cu");
    std::filesystem::copy_file(kSource + "/examples/wrong_block_offset.cu", file,
                               std::filesystem::copy_options::overwrite_existing);
    const std::string requests = test::temp_path("scripted_requests.log");
    const std::string out = test::temp_path("watch_headless.txt");
    std::remove(requests.c_str());
    test::BackgroundCommand gui(
        "sh -c \"" + scripted_good("SCRIPTED_LOG=" + requests) + "env -u DISPLAY " + kTclens +
        " headless --set kernels.open=" + file +
        " --set kernels.watch=on --set kernels.mnk=64x64x64 --set workspace.view=kernels"
        " --until-text 'v2  yours.scripted' --seconds 120 --text " +
        out + "\"");
    const bool asked = test::wait_for_file(
        requests, [](const std::string& log) { return log.find("bench") != std::string::npos; },
        std::chrono::seconds(120));
    std::ofstream(file, std::ios::app) << "// edited\n";
    const test::CommandResult result = gui.finish(std::chrono::seconds(180));
    std::ifstream shown(out);
    std::stringstream text_stream;
    text_stream << shown.rdbuf();
    const std::string text = text_stream.str();
    std::remove(out.c_str());
    std::remove(requests.c_str());
    std::filesystem::remove(file);
    ASSERT_TRUE(asked) << "the worker was never asked for v1's bench:\n" << result.err;
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("v1  yours.scripted 64x64x64"), std::string::npos) << text;
    EXPECT_NE(text.find("v2  yours.scripted 64x64x64"), std::string::npos)
        << "the save built no second version within 120 s:\n"
        << text;
    EXPECT_EQ(text.find("v3  "), std::string::npos) << "one save, one new version:\n" << text;
    EXPECT_NE(text.find("(watching)"), std::string::npos) << text;
}

TEST(UserKernels, CompareListsEachVersionNextToCublas) {
    test::CommandResult result;
    const std::string text = headless_text(
        scripted_good(),
        {"kernels.open=" + kSource + "/examples/wrong_block_offset.cu", "kernels.mnk=64x64x64",
         "compare.source=live", "compare.runs=yours.scripted.v1@64x64x64,cublas.sgemm@64x64x64",
         "workspace.view=kernels", "workspace.split=compare,below"},
        result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // The run list names the version and its same-run cuBLAS, with their TFLOP/s (0.04, 0.05),
    // and both are ticked: nothing is reported missing.
    EXPECT_NE(text.find("yours.scripted.v1@64x64x64"), std::string::npos) << text;
    EXPECT_NE(text.find("cublas.sgemm@64x64x64"), std::string::npos) << text;
    EXPECT_NE(text.find("2 ticked"), std::string::npos) << text;
    EXPECT_EQ(text.find("(profiled)"), std::string::npos)
        << "the version's TFLOP/s come from its bench row, not only its profile:\n"
        << text;
    EXPECT_EQ(text.find("not in the"), std::string::npos) << text;
}

TEST(UserKernels, CompareTableDrawsTheVersionsColumn) {
    // The same comparison as a picture: the table's two columns; without the version ticked
    // (its run id unknown), only one column is drawn and the run is reported missing.
    const std::string settings =
        "--set 'kernels.open=" + kSource +
        "/examples/wrong_block_offset.cu' --set kernels.mnk=64x64x64 --set compare.source=live "
        "--set workspace.view=compare --set workspace.split=kernels,below ";
    const auto shot = [&](const std::string& runs, test::CommandResult& result) {
        const std::string out = test::temp_path("compare_yours.png");
        result = test::run_under_xvfb(scripted_good() + kTclens + " screenshot --window --size " +
                                      "1400x900 " + settings + "--set compare.runs=" + runs +
                                      " --out " + out);
        test::PngFacts facts = test::inspect_png(out);
        std::remove(out.c_str());
        return facts;
    };
    test::CommandResult result;
    const auto both = shot("yours.scripted.v1@64x64x64,cublas.sgemm@64x64x64", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto one = shot("cublas.sgemm@64x64x64", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(both.loaded && one.loaded);
    // The second column's legend square (category 1) is drawn only with two runs, and its
    // TFLOP/s change (0.04 -> 0.05, +25 %) gets an improvement bar (palette.better).
    const viz::Rgba second = viz::category_colour(gui::dark_theme().palette, 1);
    const viz::Rgba better = gui::dark_theme().palette.better;
    EXPECT_GT(test::count_pixels(both, second), 50);
    EXPECT_LT(test::count_pixels(one, second), 10);
    EXPECT_GT(test::count_pixels(both, better), 30);
    EXPECT_LT(test::count_pixels(one, better), 10);
}

TEST(UserKernels, AProfiledVersionShowsItsCardsInTheProfilePanel) {
    test::CommandResult result;
    const std::string text =
        headless_text(scripted_good(),
                      {"kernels.open=" + kSource + "/examples/wrong_block_offset.cu",
                       "kernels.mnk=64x64x64", "profile.yours=yours.scripted.v1",
                       "workspace.view=kernels", "workspace.split=profile,below"},
                      result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("profiled in the worker when this version was built"), std::string::npos)
        << text;
    EXPECT_NE(text.find("yours.scripted.v1 64x64x64"), std::string::npos) << text;
    EXPECT_EQ(text.find("has no profile"), std::string::npos) << text;
}

// A recording as File > Save recording as writes one for a version of yours: the sample
// recording (tests/support/sample_recording.h: made-up numbers, a synthetic fixture, not a
// measurement) with its wmma.f16 row and profile also under the id yours.matmul_3.v1, and its PM
// timeline and instruction mix too when asked for.
std::string yours_recording(const std::string& name, bool timeline, bool mix) {
    profiling::Recording recording = test::sample_recording();
    kernels::BenchRow row = recording.bench.front();
    row.result.kernel_id = "yours.matmul_3.v1";
    recording.bench.push_back(row);
    profiling::KernelProfile profile = recording.profiles.front();
    profile.kernel_id = "yours.matmul_3.v1";
    recording.profiles.push_back(profile);
    if (timeline) {
        profiling::KernelTimeline sampled = recording.timelines.front();
        sampled.kernel_id = "yours.matmul_3.v1";
        recording.timelines.push_back(sampled);
    }
    if (mix) {
        profiling::RecordedInstructionMix counted = recording.instruction_mixes.front();
        counted.kernel_id = "yours.matmul_3.v1";
        recording.instruction_mixes.push_back(counted);
    }
    const std::string path = test::temp_path(name);
    EXPECT_EQ(profiling::save_recording(path, recording), "");
    return path;
}

// Opened without a GPU, the version's PM timeline (three strip charts) and its instruction mix
// are drawn in the Profile panel as a rung's are; taking either out of the recording takes it off
// the screen.
TEST(UserKernels, ARecordedVersionShowsItsTimelineAndInstructionMix) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Each recording under the same name, so that only what it holds differs on screen.
    const auto shot = [](bool timeline, bool mix) {
        const std::string path = yours_recording("yours_recording.json", timeline, mix);
        test::CommandResult result;
        const auto png =
            screenshot("", "profile", "--open " + path + " --set yours=yours.matmul_3.v1", result);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return png;
    };
    const auto without_timeline = shot(false, true);
    const auto without_mix = shot(true, false);
    const auto full = shot(true, true);
    const std::string both = test::temp_path("yours_recording.json");
    ASSERT_TRUE(full.loaded && without_timeline.loaded && without_mix.loaded);
    // Three 56-pixel strip charts of 300 samples with their titles and values.
    EXPECT_GT(full.text_rows, without_timeline.text_rows + 20);
    EXPECT_GT(test::differing_pixels(full, without_timeline), 50000);
    // The mix's line in place of the line saying why there is none.
    EXPECT_GT(test::differing_pixels(full, without_mix), 800);

    // What the pixels show, in words: the panel's text of the same recording.
    test::CommandResult result;
    const std::string text =
        headless_text("", {"profile.yours=yours.matmul_3.v1", "workspace.view=profile"}, result,
                      "--open " + both);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("PM sampling: 300 samples"), std::string::npos) << text;
    EXPECT_NE(text.find("SASS of yours.matmul_3.v1 (sm_90a, recorded): HMMA 16,"),
              std::string::npos)
        << text;
    std::remove(both.c_str());
}

}  // namespace
}  // namespace tclens
