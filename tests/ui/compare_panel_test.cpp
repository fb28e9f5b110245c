// The Compare panel under Xvfb, on any machine: without data it says how to get some; with a
// recording (tests/support/sample_recording.h, written with save_recording and opened with
// --open) the ticked runs' table shows their changes from the baseline as blue (better) or orange
// (worse) bars, the roofline plots each run in its colour, runs the recording lacks are named,
// and a bad --set value is a usage error. (The models behind the pictures are tested as data in
// tests/unit/viz/compare_table_test.cpp, roofline_test.cpp and
// tests/unit/app/gui/views/compare_runs_test.cpp.)

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/gui/views/theme.h"
#include "profiling/recording.h"
#include "tests/support/png_inspect.h"
#include "tests/support/recording_file.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kCompareWidth = 1400;
constexpr int kCompareHeight = 900;
const std::string kWmma = "wmma.f16@4096x4096x4096";      // 292 TFLOP/s, profiled
const std::string kCublas = "cublas.f16@4096x4096x4096";  // 740 TFLOP/s

// The table's bar colours under the dark palette: better is category 2, worse category 3.
const viz::Rgba kBetter = viz::dark_palette().better;
const viz::Rgba kWorse = viz::dark_palette().worse;
// The runs' colours: categories 0 and 1 in ticked order.
const viz::Rgba kFirstRun = viz::category_colour(viz::dark_palette(), 0);
const viz::Rgba kSecondRun = viz::category_colour(viz::dark_palette(), 1);

using test::RecordingFile;

test::PngFacts compare_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "compare", kCompareWidth, kCompareHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    return facts;
}

TEST(ComparePanel, WithoutDataSaysHowToGetSome) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto live = compare_screenshot("");
    const auto recording = compare_screenshot("--set source=recording");
    ASSERT_TRUE(live.loaded && recording.loaded);
    EXPECT_EQ(live.width, kCompareWidth);
    EXPECT_EQ(live.height, kCompareHeight);
    // The source choice and the lines of "Nothing to compare yet. Open a recording ...".
    EXPECT_GT(live.text_rows, 30);
    EXPECT_EQ(test::count_pixels(live, kFirstRun), 0);  // no table, no roofline
    // "No recording is open: ..." instead.
    EXPECT_GT(test::differing_pixels(live, recording), 300);
}

TEST(ComparePanel, TableColoursChangesFromTheBaselineByMeaning) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    const std::string open = "--open " + file.path() + " --set view=table ";
    const auto none = compare_screenshot(open + "--set runs=none");  // not the default pick
    const auto wmma_first = compare_screenshot(open + "--set runs=" + kWmma + "," + kCublas);
    const auto cublas_first = compare_screenshot(open + "--set runs=" + kCublas + "," + kWmma);
    ASSERT_TRUE(none.loaded && wmma_first.loaded && cublas_first.loaded);
    // Nothing ticked: the run list only.
    EXPECT_EQ(test::count_pixels(none, kBetter), 0);
    EXPECT_EQ(test::count_pixels(none, kWorse), 0);
    // cuBLAS after wmma: less time, more TFLOP/s, more % of peak, all improvements (blue;
    // bars of at most 20 x 9 px, 468 pixels measured).
    EXPECT_GT(test::count_pixels(wmma_first, kBetter), 3 * 100);
    EXPECT_EQ(test::count_pixels(wmma_first, kWorse), 0);
    // The other way round, the same three are regressions (red; 396 measured).
    EXPECT_GT(test::count_pixels(cublas_first, kWorse), 3 * 100);
    EXPECT_EQ(test::count_pixels(cublas_first, kBetter), 0);
    // The table's rows: bench numbers and the 16 metrics of wmma.f16's profile.
    EXPECT_GT(wmma_first.text_rows, none.text_rows + 150);
}

TEST(ComparePanel, RooflinePlotsEachTickedRun) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    const std::string open = "--open " + file.path() + " --set runs=" + kWmma + "," + kCublas;
    const auto roofline = compare_screenshot(open + " --set view=roofline");
    const auto table = compare_screenshot(open + " --set view=table");
    ASSERT_TRUE(roofline.loaded && table.loaded);
    // Each run's square (7 x 7 inside its outline) and its legend swatch (11 x 11).
    EXPECT_GT(test::count_pixels(roofline, kFirstRun), 150);
    EXPECT_GT(test::count_pixels(roofline, kSecondRun), 150);
    EXPECT_EQ(test::count_pixels(roofline, kBetter), 0);  // no delta bars on the roofline
    EXPECT_GT(test::differing_pixels(roofline, table), 20000);
}

TEST(ComparePanel, RunsTheRecordingLacksAreNamed) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    const auto shown = compare_screenshot("--open " + file.path() + " --set runs=" + kWmma);
    const auto lacking = compare_screenshot("--open " + file.path() + " --set runs=" + kWmma +
                                            ",wmma.f16@1024x1024x1024");
    ASSERT_TRUE(shown.loaded && lacking.loaded);
    // "wmma.f16@1024x1024x1024: not in the recording runs" in the note colour.
    EXPECT_GT(test::count_pixels(lacking, gui::dark_theme().note),
              test::count_pixels(shown, gui::dark_theme().note) + 100);
}

// Two recordings: the shipped H200 one and tests/data/synthetic_h200_later.json, a SYNTHETIC
// fixture derived from it (every rung 10 % faster, not measured), the same rung from each.
const std::string kShipped = std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz";
const std::string kLater = std::string(TCLENS_TEST_DATA_DIR) + "/synthetic_h200_later.json";
const std::string kTwoRecordings = "--open " + kShipped + " --open " + kLater;
const std::string kRung = "wgmma_persistent.bf16@4096x4096x4096";

TEST(ComparePanel, RunsOfTwoRecordingsSitSideBySide) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string both = kTwoRecordings + " --set runs=h200.json.gz:" + kRung +
                             ",synthetic_h200_later.json:" + kRung;
    const auto table = compare_screenshot(both + " --set view=table");
    // The same rung twice from one recording: no change, no source line, one set of roofs.
    const std::string once =
        "--open " + kShipped + " --set runs=" + kRung + ",cublas.bf16@4096x4096x4096";
    const auto one_table = compare_screenshot(once + " --set view=table");
    ASSERT_TRUE(table.loaded && one_table.loaded);
    // The later run is faster: time and TFLOP/s bars (and % of cuBLAS, % of peak) are blue.
    EXPECT_GT(test::count_pixels(table, kBetter), 50);  // 72 measured: four short bars
    EXPECT_EQ(test::count_pixels(table, kWorse), 0);
    EXPECT_GT(test::count_pixels(table, kSecondRun), 50);  // the second column's swatch

    const auto roofline = compare_screenshot(both + " --set view=roofline");
    const auto one_roofline = compare_screenshot("--open " + kShipped + " --set runs=" + kRung +
                                                 ",cublas.bf16@4096x4096x4096 --set view=roofline");
    ASSERT_TRUE(roofline.loaded && one_roofline.loaded);
    EXPECT_GT(test::count_pixels(roofline, kFirstRun), 100);  // each run's marker: 149 measured
    EXPECT_GT(test::count_pixels(roofline, kSecondRun), 100);
    // Each recording's roofs, the second's dashed and labelled: more text-coloured rows (587
    // against 576 with one recording, measured).
    EXPECT_GT(roofline.text_rows, one_roofline.text_rows);
}

TEST(ComparePanel, OpensOnTheBestRungOfEachPrecisionAndItsCublas) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto shown = compare_screenshot("--open " + kShipped);
    const auto none = compare_screenshot("--open " + kShipped + " --set runs=none");
    ASSERT_TRUE(shown.loaded && none.loaded);
    // Eight columns (four precisions, each rung and its cuBLAS): the eighth's swatch is drawn.
    EXPECT_GT(test::count_pixels(shown, viz::category_colour(viz::dark_palette(), 7)), 50);
    EXPECT_GT(test::differing_pixels(shown, none), 50000);
}

// The layout report (layout_report.h) of Compare at 1280x720 on the shipped recording, with
// `settings`: its one drawing, and the panel's windows.
nlohmann::json compare_layout_1280(const std::string& settings) {
    const std::string json = test::temp_path("compare_1280.json");
    test::CommandResult result;
    const auto png = test::view_screenshot(
        kTclens, "compare", 1280, 720,
        "--open " + kShipped + " " + settings + " --layout-json " + json, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(png.loaded);
    std::ifstream in(json);
    const nlohmann::json layout = nlohmann::json::parse(in, nullptr, false);
    std::filesystem::remove(json);
    return layout;
}

// Nothing of the drawing or the panel's windows reaches past the right edge.
void expect_nothing_cut_at_the_side(const nlohmann::json& layout) {
    ASSERT_TRUE(layout.is_object());
    ASSERT_EQ(layout["views"].size(), 1u) << layout.dump();
    const nlohmann::json& view = layout["views"][0];
    const float right = float(view["drawn"][0]) + float(view["drawn"][2]);
    const float visible_right = float(view["visible"][0]) + float(view["visible"][2]);
    EXPECT_LE(right, visible_right + 1.0f) << view.dump();
    for (const nlohmann::json& child : layout["windows"][0]["children"]) {
        EXPECT_LE(float(child["cut"][0]), 1.0f) << child.dump();  // nothing scrolls sideways
    }
}

// On a 1280x720 projector the default pick of the shipped recording (ten runs) shows every
// column: the table wraps its columns into bands as wide as what the panel shows of it, and
// nothing of it scrolls sideways. Before, it was one 3,601 px row of columns, of which 836 px
// were shown.
TEST(ComparePanel, EveryColumnIsVisibleAt1280x720) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const nlohmann::json layout = compare_layout_1280("--set view=table");
    expect_nothing_cut_at_the_side(layout);
    // The columns wrap downwards instead: the drawing is taller than the panel (3,117 px
    // measured: three bands of four, four and two runs, and the key).
    const nlohmann::json& view = layout["views"][0];
    EXPECT_GT(float(view["drawn"][3]), float(view["visible"][3])) << view.dump();
}

// The roofline of the same ten runs: its legend lines wrap to the panel (1,451 px wide before,
// 630 now).
TEST(ComparePanel, TheRooflineFitsAt1280x720) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    expect_nothing_cut_at_the_side(compare_layout_1280("--set view=roofline"));
}

TEST(ComparePanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting :
         {"source=disk", "runs=wmma.f16", "runs=wmma.f16@4096x4096", "view=chart", "zoom=2"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view compare --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        const std::string text = setting;
        const std::string key = text.substr(0, text.find('='));
        const std::string value = text.substr(text.find('=') + 1);
        EXPECT_NE(result.err.find(key == "zoom" ? key : value), std::string::npos) << result.err;
    }
}

// Two recordings of different GPUs, their runs ticked alternately (A, B, A): the columns come
// GPU by GPU (A's two, then B's), a line says so, and the run list names each GPU above its runs.
TEST(ComparePanel, RunsOfDifferentGpusAreGroupedByGpu) {
    const profiling::Recording first = test::sample_recording();
    profiling::Recording second = test::sample_recording();
    second.system.devices.front().name = "tclens other GPU";
    const test::RecordingFile a(first);
    const test::RecordingFile b(second);
    const std::string a_name = std::filesystem::path(a.path()).filename().string();
    const std::string b_name = std::filesystem::path(b.path()).filename().string();
    const std::string out = test::temp_path("compare_by_gpu.txt");
    const auto result = test::run_command(
        "env -u DISPLAY " + kTclens + " headless --view compare --size 1600x1000 --open " +
        a.path() + " --open " + b.path() + " --set compare.runs=" + a_name +
        ":wmma.f16@4096x4096x4096," + b_name + ":wmma.f16@4096x4096x4096," + a_name +
        ":cublas.f16@4096x4096x4096 --frames 5 --text " + out);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::string text = test::read_file(out);
    std::remove(out.c_str());
    EXPECT_NE(text.find("grouped by GPU: tclens test GPU (00000000:19:00.0) (2 runs); tclens "
                        "other GPU (00000000:19:00.0) (1 run)"),
              std::string::npos)
        << text;
    const auto header_a = text.find("| GPU tclens test GPU (00000000:19:00.0) |");
    const auto header_b = text.find("| GPU tclens other GPU (00000000:19:00.0) |");
    EXPECT_NE(header_a, std::string::npos) << text;
    EXPECT_NE(header_b, std::string::npos) << text;
    EXPECT_LT(header_a, header_b);

    // Runs of one GPU: no grouping line, no GPU lines.
    const auto same = test::run_command("env -u DISPLAY " + kTclens +
                                        " headless --view compare --size 1600x1000 --open " +
                                        a.path() + " --frames 5 --text " + out);
    EXPECT_EQ(same.exit_code, 0) << same.err;
    const std::string one = test::read_file(out);
    std::remove(out.c_str());
    EXPECT_EQ(one.find("grouped by GPU"), std::string::npos) << one;
    EXPECT_EQ(one.find("| GPU "), std::string::npos) << one;
}

}  // namespace
}  // namespace tclens
