// The Source panel under Xvfb, on any machine: without a source profile it says how to get one
// (and, for a recording from before source profiles, why it has none); with a recording
// (tests/support/sample_recording.h: a made-up rung-8 source profile) it shows the stall reasons,
// the CUDA lines and the SASS with heat cells from the theme's ramp, recolours them by bank
// conflicts, orders the SASS rows by address or by heat (read from the panel's text, `tclens
// headless --text`), and selects an instruction by pc; a bad --set value is a usage error; a
// kernel of yours (source.yours=REF) is profiled through the worker (here the scripted stand-in,
// tests/data/scripted_worker.sh) and shown with the lines of its own file. (The model behind the
// picture is tested as data in tests/unit/app/gui/views/source_view_test.cpp.)

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "profiling/recording.h"
#include "profiling/source/source_profile_json.h"
#include "tests/support/png_inspect.h"
#include "tests/support/recording_file.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"
#include "viz/palette.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kSourceWidth = 1600;
constexpr int kSourceHeight = 1000;

// The dark theme's heat ramp (viz/palette.h): the cells' fills.
int heat_pixels(const test::PngFacts& png) {
    int pixels = 0;
    for (const viz::Rgba& colour : viz::dark_bank_palette().heat) {
        pixels += test::count_pixels(png, colour);
    }
    return pixels;
}

using test::RecordingFile;

test::PngFacts source_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "source", kSourceWidth, kSourceHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    return facts;
}

// The Source panel's text as `tclens headless --view source` draws it once settled.
std::string source_text(const std::string& options) {
    const std::string out = test::temp_path("source_panel.txt");
    const auto result = test::run_command(kTclens + " headless --view source --size 1600x1000 " +
                                          options + " --frames 3 --text " + out);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::ifstream file(out);
    std::stringstream text;
    text << file.rdbuf();
    std::remove(out.c_str());
    return text.str();
}

// One row of the SASS table, as the panel's text shows it: "| 0040 | 615 | wait | ...".
struct SassRow {
    std::string pc;
    long long samples = 0;  // 0 where the cell is empty
};

std::vector<SassRow> sass_rows(const std::string& text) {
    std::vector<SassRow> rows;
    std::istringstream lines(text);
    bool in_table = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("| pc | samples |", 0) == 0) {
            in_table = true;
            continue;
        }
        if (!in_table) continue;
        if (line.rfind("| ", 0) != 0) break;
        std::vector<std::string> cells;
        std::istringstream row(line.substr(2));
        for (std::string cell; std::getline(row, cell, '|');) {
            cell.erase(0, cell.find_first_not_of(' '));
            cell.erase(cell.find_last_not_of(' ') + 1);
            cells.push_back(cell);
        }
        SassRow sass;
        sass.pc = cells.at(0);
        std::string digits;
        for (char c : cells.at(1)) {
            if (c != ',') digits += c;
        }
        sass.samples = digits.empty() ? 0 : std::stoll(digits);
        rows.push_back(sass);
    }
    return rows;
}

TEST(SourcePanel, SassRowsGoByAddressOrByHeat) {
    const RecordingFile file(test::sample_recording());
    const std::string open = "--open " + file.path() + " --set source.kernel=mma_cp_async.f16 ";
    const std::vector<SassRow> by_address = sass_rows(source_text(open));
    const std::vector<SassRow> hottest =
        sass_rows(source_text(open + "--set source.order=hottest"));
    // The sample profile's 13 instructions, 0x00 .. 0xc0, 8 of them sampled.
    ASSERT_EQ(by_address.size(), 13u) << source_text(open);
    for (std::size_t i = 0; i < by_address.size(); ++i) {
        char pc[8];
        std::snprintf(pc, sizeof pc, "%04x", static_cast<unsigned>(16 * i));
        EXPECT_EQ(by_address[i].pc, pc) << "row " << i;
    }
    ASSERT_EQ(hottest.size(), by_address.size());
    EXPECT_EQ(hottest.front().pc, "0040") << "the most sampled instruction first (its wait)";
    for (std::size_t i = 1; i < hottest.size(); ++i) {
        EXPECT_GE(hottest[i - 1].samples, hottest[i].samples)
            << hottest[i - 1].pc << " before " << hottest[i].pc;
    }
    EXPECT_GT(hottest[7].samples, 0);
    EXPECT_EQ(hottest[8].samples, 0) << "8 sampled instructions, then the others";
}

TEST(SourcePanel, WithoutAProfileSaysHowToGetOne) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto empty = source_screenshot("");
    ASSERT_TRUE(empty.loaded);
    EXPECT_EQ(empty.width, kSourceWidth);
    EXPECT_GT(empty.text_rows, 10);    // the controls and "No source profile of ..."
    EXPECT_EQ(heat_pixels(empty), 0);  // no tables
    // A recording of schema 1 says why it has none, in the note colour.
    nlohmann::json old = profiling::to_json(test::sample_recording());
    old["schema_version"] = 1;
    old.erase("sources");
    old.erase("sources_missing");
    const std::string path = test::temp_path("old_recording.json");
    {
        FILE* file = std::fopen(path.c_str(), "w");
        ASSERT_NE(file, nullptr);
        std::fputs(old.dump().c_str(), file);
        std::fclose(file);
    }
    const auto older = source_screenshot("--open " + path);
    std::remove(path.c_str());
    ASSERT_TRUE(older.loaded);
    EXPECT_GT(test::differing_pixels(empty, older), 500);  // "The open recording has none: ..."
    EXPECT_EQ(heat_pixels(older), 0);
}

TEST(SourcePanel, ARecordingsProfileShowsHeatAndBothSides) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    const std::string open = "--open " + file.path() + " --set kernel=mma_cp_async.f16 ";
    const auto samples = source_screenshot(open);
    const auto conflicts = source_screenshot(open + "--set heat=conflicts");
    const auto selected = source_screenshot(open + "--set pc=70");
    ASSERT_TRUE(samples.loaded && conflicts.loaded && selected.loaded);
    // Stall lines, 16 CUDA lines and 13 SASS rows, headers and the summary.
    EXPECT_GT(samples.text_rows, 250);
    // Heat cells: the sampled lines and instructions, and the conflicting ldmatrix.
    EXPECT_GT(heat_pixels(samples), 2000);
    EXPECT_GT(heat_pixels(conflicts), 500);
    EXPECT_GT(test::differing_pixels(samples, conflicts), 1000);  // heat follows the choice
    // The selection: its rows highlighted and the line under the tables (with Open in Banks).
    EXPECT_GT(test::differing_pixels(samples, selected), 2000);
    EXPECT_GT(selected.text_rows, samples.text_rows);
}

TEST(SourcePanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting : {"kernel=warp9", "order=fastest", "heat=stalls", "pc=xyz", "line=0",
                                "run=off", "zoom=2", "mnk=12", "yours=kernel.py"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view source --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        const std::string text = setting;
        EXPECT_NE(result.err.find(text.substr(0, text.find('='))), std::string::npos) << result.err;
    }
}

// The worker's answer for examples/directive_gemm.cu (id yours.directive_gemm): one sampled
// instruction on line 2 of a made-up text of that file.
std::string yours_source_fixture() {
    profiling::SourceProfile profile;
    profile.kernel_id = "yours.directive_gemm";
    profile.problem = {64, 64, 64};
    profile.device = "scripted GPU";
    profile.check.passed = true;
    profile.functions = {"_Z15tiled_bf16_gemmiiiPK13__nv_bfloat16S1_Pf"};
    profiling::InstructionProfile instruction;
    instruction.function = profile.functions.front();
    instruction.pc = 0x40;
    instruction.sass = "FFMA R4, R2, R3, R4";
    instruction.opcode = "FFMA";
    const std::string path = test::kSource + "/examples/directive_gemm.cu";
    instruction.frames = {{path, 2}};
    instruction.stalls = {{"wait", 9}};
    instruction.samples = 9;
    profile.instructions = {instruction};
    profile.files = {{path, "// first\n    sum += yours_on_line_two;\n", "", {}}};
    const std::string fixture = test::temp_path("yours_source.json");
    std::ofstream(fixture) << nlohmann::json{{"source", profiling::to_json(profile)}}.dump()
                           << "\n";
    return fixture;
}

TEST(SourcePanel, AKernelOfYoursIsProfiledThroughTheWorkerOnItsOwnLines) {
    const std::string fixture = yours_source_fixture();
    const std::string out = test::temp_path("yours_source_panel.txt");
    const std::string worker =
        "SCRIPTED_SOURCE=" + fixture + " sh " + test::kSource + "/tests/data/scripted_worker.sh";
    const auto result = test::run_command(
        "env -u DISPLAY TCLENS_WORKER='" + worker + "' " + kTclens +
        " headless --view source --size 1600x1000 --set source.yours=" + test::kSource +
        "/examples/directive_gemm.cu --set source.mnk=64x64x64 --set source.run=on --frames 3 "
        "--text " +
        out);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::ifstream file(out);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_NE(text.str().find("yours.directive_gemm 64x64x64"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("profiled in the worker"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("sum += yours_on_line_two;"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("FFMA R4, R2, R3, R4"), std::string::npos) << text.str();
    std::remove(out.c_str());
    std::remove(fixture.c_str());
}

// Profile on GPU of a rung goes to the worker: with a scripted one whose GPU is kScriptedGpu, the
// panel draws its canned profile (424242 samples of one HMMA), which no run here took.
TEST(SourcePanel, ARungIsProfiledInTheWorkerAndItsAnswerIsDrawn) {
    const std::string answer =
        test::write_canned("source_panel_rung.json", test::scripted_source_answer({512, 512, 512}));
    test::CommandResult result;
    const std::string text = test::panel_text_with_worker(
        test::scripted_gpu_worker("SCRIPTED_SOURCE=" + answer), "source",
        "--set source.kernel=mma_cp_async.bf16 --set source.mnk=512x512x512 --set source.run=on",
        result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("mma_cp_async.bf16 512x512x512 on Scripted H999 - profiled in the worker"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("| 0040 | 424,242 | math_pipe_throttle |"), std::string::npos) << text;
}

}  // namespace
}  // namespace tclens
