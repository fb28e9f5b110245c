// The Kernels panel under Xvfb: the ladder and the descriptor of the selected kernel are drawn,
// choosing another kernel changes the picture, a machine without a GPU shows why Run is off,
// and a bad --set value is a usage error. Run over two scripted workers (two GPUs no machine has)
// and a recording whose bench ran on two GPUs show the GPU of each row. (Bench results need a GPU;
// their table and chart are tested as data in tests/unit/app/gui/views/bench_view_test.cpp.)

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "app/gui/views/theme.h"
#include "app/worker/results.h"
#include "profiling/device_json.h"
#include "tests/support/png_inspect.h"
#include "tests/support/recording_file.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kKernelsWidth = 1400;
constexpr int kKernelsHeight = 900;

test::PngFacts kernels_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "kernels", kKernelsWidth, kKernelsHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return facts;
}

TEST(KernelsPanel, DefaultShowsTheLadderAndTheFirstRungsDescriptor) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = kernels_screenshot("");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, kKernelsWidth);
    EXPECT_EQ(png.height, kKernelsHeight);
    EXPECT_GT(png.distinct_colours, 20);
    // 15 kernel titles (their "adds" lines are dimmer than glyph cores), the descriptor table,
    // the size and run controls: 290 rows at this size.
    EXPECT_GT(png.text_rows, 200);
}

TEST(KernelsPanel, WithoutAGpuRunIsOffAndSaysWhy) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    if (test::tclens_sees_gpu(kTclens)) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto png = kernels_screenshot("");
    ASSERT_TRUE(png.loaded);
    // "no GPU: bench needs one", 23 characters of glyph cores in the note colour.
    EXPECT_GT(test::count_pixels(png, gui::dark_theme().note), 100);
}

TEST(KernelsPanel, SelectingAnotherKernelChangesTheView) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto first = kernels_screenshot("");
    const auto rung8 = kernels_screenshot("--set selected=mma_cp_async.f16");
    ASSERT_TRUE(first.loaded && rung8.loaded);
    // Another selected row in the ladder, another descriptor, and rung 8's link buttons.
    EXPECT_GT(test::differing_pixels(first, rung8), 2000);
    const auto again = kernels_screenshot("--set selected=naive_fma.f32");
    ASSERT_TRUE(again.loaded);
    EXPECT_EQ(test::differing_pixels(first, again), 0);  // the default is the first rung
}

TEST(KernelsPanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting :
         {"selected=fastest", "mnk=4096x4096", "preset=huge", "run=cublas.f16", "zoom=2"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view kernels --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        const std::string text = setting;
        const std::string key = text.substr(0, text.find('='));
        const std::string value = text.substr(text.find('=') + 1);
        EXPECT_NE(result.err.find(key == "zoom" ? key : value), std::string::npos) << result.err;
    }
}

// The scripted GPU at PCI bus `bus` as hello's device JSON, written to a temporary file.
std::string scripted_gpu_at(const std::string& bus) {
    profiling::SystemReport system = test::scripted_gpu_system();
    system.devices.front().pci_bus_id = bus;
    return test::write_canned("kernels_gpu_" + bus.substr(5, 2) + ".json",
                              profiling::to_json(system).dump());
}

// workers=2: the sizes go to the GUI's worker and one more started for the run (the scripted
// worker's command: the first to start claims GPU 0000:01:00.0, the other 0000:02:00.0); each
// answers its size with the same canned row, and the table names each row's GPU.
TEST(KernelsPanel, RunOverTwoWorkersNamesEachRowsGpu) {
    worker::BenchResult canned;
    kernels::BenchRow row;
    row.result.kernel_id = "smem_tiled.f32";
    row.result.problem = {64, 64, 64};
    row.result.check.passed = true;
    row.result.timed_runs = 30;
    row.result.median_ms = row.result.min_ms = row.result.max_ms = 0.125;
    row.result.tflops = 4.2;
    canned.report.rows.push_back(row);
    canned.times.push_back({row.result.kernel_id, row.result.problem, 1, 2});
    const std::string bench =
        test::write_canned("kernels_two_bench.json", worker::to_json(canned).dump());
    const std::string claim = test::temp_path("kernels_two_claim");
    std::filesystem::remove_all(claim);
    const std::string worker = "if mkdir " + claim +
                               " 2>/dev/null; then S=" + scripted_gpu_at("0000:01:00.0") +
                               "; else S=" + scripted_gpu_at("0000:02:00.0") +
                               "; fi; SCRIPTED_SYSTEM=$S SCRIPTED_BENCH=" + bench + " exec sh " +
                               test::kSource + "/tests/data/scripted_worker.sh";
    const std::string run =
        "--set kernels.run=smem_tiled.f32 --set kernels.mnk=64x64x64,96x96x96 "
        "--set kernels.bench=on";
    test::CommandResult result;
    const std::string text =
        test::panel_text_with_worker(worker, "kernels", run + " --set kernels.workers=2", result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("| status |"), std::string::npos) << text;
    EXPECT_NE(text.find("| GPU | status |"), std::string::npos) << text;
    // The rows name their workers, a line each worker's GPU.
    EXPECT_NE(text.find("w1: scripted: Scripted H999 (0000:0"), std::string::npos) << text;
    EXPECT_NE(text.find("w2: scripted: Scripted H999 (0000:0"), std::string::npos) << text;
    EXPECT_NE(text.find("(0000:01:00.0)"), std::string::npos) << text;
    EXPECT_NE(text.find("(0000:02:00.0)"), std::string::npos) << text;
    EXPECT_NE(text.find("| w1 | ok |"), std::string::npos) << text;
    EXPECT_NE(text.find("| w2 | ok |"), std::string::npos) << text;

    // One worker: no GPU column.
    std::filesystem::remove_all(claim);
    const std::string one = test::panel_text_with_worker(worker, "kernels", run, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(one.find("| status |"), std::string::npos) << one;
    EXPECT_EQ(one.find("| GPU |"), std::string::npos) << one;
    std::filesystem::remove_all(claim);
}

// A recording whose bench ran on two GPUs (tclens record --workers 2) shows each row's GPU.
TEST(KernelsPanel, ARecordingOverTwoGpusNamesEachRowsGpu) {
    profiling::Recording recording = test::sample_recording();
    profiling::SystemReport other = recording.system;
    other.devices.front().pci_bus_id = "00000000:3b:00.0";
    recording.workers = {{"gpu-host", recording.system}, {"gpu-host", other}};
    recording.bench_worker.assign(recording.bench.size(), 0);
    recording.bench_worker.back() = 1;
    const test::RecordingFile file(recording);
    const std::string out = test::temp_path("kernels_two_gpus.txt");
    const auto result = test::run_command("env -u DISPLAY " + test::kTclens +
                                          " headless --view kernels --size 1600x1000 --open " +
                                          file.path() + " --frames 5 --text " + out);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::string text = test::read_file(out);
    std::remove(out.c_str());
    EXPECT_NE(text.find("| GPU | status |"), std::string::npos) << text;
    EXPECT_NE(text.find("w1: gpu-host: tclens test GPU (00000000:19:00.0)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("w2: gpu-host: tclens test GPU (00000000:3b:00.0)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("| 2.5e-06 | w1 | ok |"), std::string::npos) << text;  // wmma.f16
    EXPECT_NE(text.find("| 2.5e-06 | w2 | ok |"), std::string::npos) << text;  // cublas.f16
}

}  // namespace
}  // namespace tclens
