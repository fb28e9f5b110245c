// The Timeline panel under Xvfb, on any machine, from the synthetic traces of tests/data
// (make_synthetic_traces.py: made-up times in the shape of rung 9 and rung 10): each phase's
// colour in the rows where that phase is, rung 9 above rung 10 when both are open, the legend,
// the window (zoom) changing the picture; a recording's trace shown, and a recording from before
// traces saying it has none. Bad settings are usage errors. (The draw records are tested as data
// in tests/unit/viz/warp_timeline_view_test.cpp.)

#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <utility>

#include "profiling/recording.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"
#include "viz/palette.h"
#include "viz/trace_phase.h"

namespace tclens {
namespace {

using test::kTclens;
const std::string kData = TCLENS_TEST_DATA_DIR;
const std::string kRung9 = kData + "/synthetic_trace_rung9.json";
const std::string kRung10 = kData + "/synthetic_trace_rung10.json";
constexpr int kTimelineWidth = 1400;
constexpr int kTimelineHeight = 1000;

viz::Rgba colour_of(viz::TracePhase phase) {
    return viz::category_colour(viz::dark_palette(), static_cast<int>(phase));
}

// First and last image row holding at least `min` pixels of `colour`; {-1, -1} for none.
std::pair<int, int> rows_of(const test::PngFacts& png, viz::Rgba colour, int min = 4) {
    std::pair<int, int> rows{-1, -1};
    for (int y = 0; y < png.height; ++y) {
        if (test::count_pixels_in_row(png, colour, y) < min) continue;
        if (rows.first < 0) rows.first = y;
        rows.second = y;
    }
    return rows;
}

test::PngFacts timeline_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts = test::view_screenshot(kTclens, "timeline", kTimelineWidth,
                                                 kTimelineHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    return facts;
}

TEST(TimelinePanel, RungNinesPhasesAreInItsRowsAndTheLegendNamesThem) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto rung9 = timeline_screenshot("--set open=" + kRung9);
    ASSERT_TRUE(rung9.loaded);
    // 2 blocks x 4 warps, 8 K tiles: wide wgmma and full_wait bars in all 8 rows.
    EXPECT_GT(test::count_pixels(rung9, colour_of(viz::TracePhase::kWgmma)), 8 * 8 * 100);
    EXPECT_GT(test::count_pixels(rung9, colour_of(viz::TracePhase::kFullWait)), 8 * 8 * 100);
    EXPECT_GT(test::count_pixels(rung9, colour_of(viz::TracePhase::kBlockSync)), 500);
    // Rung 9 has no producer: nothing waits on an empty barrier, not even in the legend.
    EXPECT_EQ(test::count_pixels(rung9, colour_of(viz::TracePhase::kEmptyWait)), 0);
    // Of the rows with wgmma bars (8 warps), load_issue is in warp 0's only (2 of 8).
    const auto wgmma_rows = rows_of(rung9, colour_of(viz::TracePhase::kWgmma), 40);
    ASSERT_GE(wgmma_rows.first, 0);
    int load_rows = 0, wgmma_row_count = 0;
    for (int y = wgmma_rows.first; y <= wgmma_rows.second; ++y) {
        if (test::count_pixels_in_row(rung9, colour_of(viz::TracePhase::kWgmma), y) < 40) continue;
        ++wgmma_row_count;
        load_rows +=
            test::count_pixels_in_row(rung9, colour_of(viz::TracePhase::kLoadIssue), y) >= 4;
    }
    EXPECT_GE(wgmma_row_count, 8 * 10);
    EXPECT_GE(load_rows, 2 * 10);
    EXPECT_LE(load_rows * 3, wgmma_row_count);
    // A window before any store still shows the store's swatch in the legend.
    const auto early = timeline_screenshot("--set open=" + kRung9 + " --set window=0..0.3");
    ASSERT_TRUE(early.loaded);
    const auto store = test::count_pixels(early, colour_of(viz::TracePhase::kStore));
    EXPECT_GT(store, 60);                                    // the swatch, about 13 x 13
    EXPECT_LT(store, 400);                                   // and no bars
    EXPECT_GT(test::differing_pixels(rung9, early), 20000);  // zoomed in
}

TEST(TimelinePanel, RungTenIsDrawnBelowRungNineOnOneScale) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto both =
        timeline_screenshot("--set open=" + kRung9 + " --set compare_open=" + kRung10);
    ASSERT_TRUE(both.loaded);
    // block_sync is rung 9's only, empty_wait rung 10's only (its producer): rung 9 is above.
    const auto sync_rows = rows_of(both, colour_of(viz::TracePhase::kBlockSync));
    const auto empty_rows = rows_of(both, colour_of(viz::TracePhase::kEmptyWait));
    ASSERT_GE(sync_rows.first, 0);
    ASSERT_GE(empty_rows.first, 0);
    EXPECT_LT(sync_rows.second, empty_rows.first);
    // Both traces multiply: wgmma above and below the boundary.
    const auto wgmma_rows = rows_of(both, colour_of(viz::TracePhase::kWgmma), 40);
    EXPECT_LT(wgmma_rows.first, sync_rows.second);
    EXPECT_GT(wgmma_rows.second, empty_rows.first);
}

TEST(TimelinePanel, ARecordingsTraceIsShownAndAnOlderRecordingSaysItHasNone) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string path = test::temp_path("timeline_recording.json");
    ASSERT_EQ(profiling::save_recording(path, test::sample_recording()), "");
    const auto recorded = timeline_screenshot("--open " + path + " --set kernel=wgmma_ws.bf16");
    nlohmann::json old = profiling::to_json(test::sample_recording());
    old["schema_version"] = 3;
    old.erase("traces");
    old.erase("traces_missing");
    {
        FILE* file = std::fopen(path.c_str(), "w");
        ASSERT_NE(file, nullptr);
        std::fputs(old.dump().c_str(), file);
        std::fclose(file);
    }
    const auto older = timeline_screenshot("--open " + path + " --set kernel=wgmma_ws.bf16");
    std::remove(path.c_str());
    ASSERT_TRUE(recorded.loaded && older.loaded);
    EXPECT_GT(test::count_pixels(recorded, colour_of(viz::TracePhase::kWgmma)), 1000);
    EXPECT_EQ(test::count_pixels(older, colour_of(viz::TracePhase::kWgmma)), 0);
    // "No trace of wgmma_ws.bf16: the open recording has none: the recording is schema_version
    // 3, ..." in the note colour, where the trace was.
    EXPECT_GT(test::differing_pixels(recorded, older), 5000);
    EXPECT_GT(older.text_rows, 20);
}

// The shipped recording's traces (with its source profiles, most of its bytes) are parsed on
// the job runner the first time the Timeline shows one (app/gui/jobs/bulk_read.h): frames go on
// meanwhile, saying what is read, and then the trace is shown. `tclens headless` runs the same
// frames as the window; with --until-text it stops at the first frame that says it is reading
// (a frame that waited for the parse would never say so), with --frames and --text once the
// jobs are done.
TEST(TimelinePanel, TheRecordingsTracesAreReadWhileFramesGoOn) {
    const std::string text_path = test::temp_path("timeline_bulk.txt");
    const std::string start = kTclens + " headless --view timeline --set timeline.kernel=" +
                              "wgmma_tma.bf16 --fps 0 --open " + TCLENS_ASSETS_DIR +
                              "/recordings/h200.json.gz --text " + text_path;
    const auto reading =
        test::run_command(start + " --seconds 60 --until-text \"Reading the recording's traces\"");
    ASSERT_EQ(reading.exit_code, 0) << reading.err;
    EXPECT_NE(test::read_file(text_path).find(
                  "Reading the recording's traces and source profiles (once): "),
              std::string::npos)
        << test::read_file(text_path);
    const auto shown = test::run_command(start + " --frames 3");
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    const std::string text = test::read_file(text_path);
    std::remove(text_path.c_str());
    EXPECT_NE(text.find("from " + std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("Reading the recording's traces"), std::string::npos) << text;
}

// The layout report (app/gui/shell/layout_report.h) of the Timeline in lecture mode at 1280x800,
// showing a recording's trace of wgmma_ws.bf16; null (with a test failure) if it was not written.
nlohmann::json lecture_layout() {
    const std::string recording = test::temp_path("timeline_lecture.json");
    const std::string layout = test::temp_path("timeline_lecture_layout.json");
    EXPECT_EQ(profiling::save_recording(recording, test::sample_recording()), "");
    test::CommandResult result;
    test::view_screenshot(
        kTclens, "timeline", 1280, 800,
        "--lecture --open " + recording + " --set kernel=wgmma_ws.bf16 --layout-json " + layout,
        result);
    std::remove(recording.c_str());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::FILE* file = std::fopen(layout.c_str(), "r");
    if (file == nullptr) {
        ADD_FAILURE() << "no layout report at " << layout;
        return nullptr;
    }
    const nlohmann::json report = nlohmann::json::parse(file, nullptr, false);
    std::fclose(file);
    std::remove(layout.c_str());
    return report.is_discarded() ? nullptr : report;
}

// In lecture mode at 1280x800 the controls fill the row: the job's line ("no GPU: a trace needs
// one") goes under the buttons (app/gui/panels/job_controls.cpp). Wrapped beside them with no room
// left it stood one letter a row and pushed the timeline down to its last 180 pixels.
TEST(TimelinePanel, InLectureModeTheJobLineLeavesTheTimelineMostOfTheWindow) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const nlohmann::json report = lecture_layout();
    ASSERT_TRUE(report.is_object());
    ASSERT_EQ(report["views"].size(), 1u) << report.dump();
    const nlohmann::json& visible = report["views"][0]["visible"];  // [x, y, width, height]
    EXPECT_LT(visible[1].get<double>(), 400) << report.dump();
    EXPECT_GT(visible[3].get<double>(), 400) << report.dump();
}

// There the row of kernel, below, size and blocks leaves no room for Trace on GPU and Cancel: they
// start a row of their own (app/gui/panels/job_controls.cpp) instead of running 95 px past the
// pane's edge, Cancel cut off.
TEST(TimelinePanel, InLectureModeTheRunButtonsWrapInsteadOfPastThePane) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const nlohmann::json report = lecture_layout();
    ASSERT_TRUE(report.is_object());
    ASSERT_EQ(report["windows"].size(), 1u) << report.dump();
    const nlohmann::json& window = report["windows"][0];
    EXPECT_EQ(window["name"], "Timeline");
    EXPECT_EQ(window["cut"][0].get<double>(), 0.0) << "controls past the pane's right edge";
}

TEST(TimelinePanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const std::string setting : {"kernel=mma_ldmatrix_xor.f16", "compare=warp9", "blocks=0",
                                      "window=3..1", "run=off", "open=/no/such.json", "zoom=2"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view timeline --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        EXPECT_NE(result.err.find(setting.substr(0, setting.find('='))), std::string::npos)
            << result.err;
    }
}

// Trace on GPU of a rung goes to the worker: with a scripted one whose GPU is kScriptedGpu, the
// panel draws its canned trace (two phases, load_issue 180 ns and store 120 ns of the warps' time),
// which no run here took.
TEST(TimelinePanel, ARungIsTracedInTheWorkerAndItsAnswerIsDrawn) {
    const std::string answer =
        test::write_canned("timeline_panel_rung.json", test::scripted_trace_answer());
    test::CommandResult result;
    const std::string text = test::panel_text_with_worker(
        test::scripted_gpu_worker("SCRIPTED_TRACE=" + answer), "timeline",
        "--set timeline.kernel=mma_cp_async.bf16 --set timeline.mnk=128x128x64 "
        "--set timeline.run=on",
        result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("traced in the worker"), std::string::npos) << text;
    EXPECT_NE(text.find("share of the warps' time: issues loads 58.8 % stores C 41.2 %"),
              std::string::npos)
        << text;
}

}  // namespace
}  // namespace tclens
