// Tests for the parts of app/gui/panels/timeline_panel.* that need no window: its settings (each
// bad value one line naming the key and what is allowed) and reading trace files.
#include "app/gui/panels/timeline_panel.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "tests/support/run_command.h"

namespace tclens::gui {
namespace {

const std::string kData = TCLENS_TEST_DATA_DIR;

TEST(TimelinePanelSettings, GoodValuesApply) {
    TimelinePanel panel;
    for (const char* setting :
         {"kernel=wgmma_tma.bf16", "compare=wgmma_ws.bf16", "compare=none", "mnk=256x256x512",
          "blocks=1", "blocks=1024", "window=all", "run=on", "controls=off", "controls=on"}) {
        const std::string text = setting;
        const std::size_t eq = text.find('=');
        EXPECT_EQ(panel.apply_setting(text.substr(0, eq), text.substr(eq + 1)), "") << text;
    }
    EXPECT_EQ(panel.apply_setting("open", kData + "/synthetic_trace_rung9.json"), "");
    EXPECT_EQ(panel.apply_setting("compare_open", kData + "/synthetic_trace_rung10.json"), "");
}

TEST(TimelinePanelSettings, TheWindowIsReadInMicroseconds) {
    TimelinePanel panel;
    ASSERT_EQ(panel.apply_setting("window", "0.5..2.25"), "");
    EXPECT_EQ(panel.window().start_ns, 500);
    EXPECT_EQ(panel.window().end_ns, 2250);
    ASSERT_EQ(panel.apply_setting("window", "all"), "");
    EXPECT_GE(panel.window().start_ns, panel.window().end_ns);  // empty: the whole trace
}

TEST(TimelinePanelSettings, BadValuesNameTheKeyAndWhatIsAllowed) {
    TimelinePanel panel;
    const struct {
        const char* key;
        const char* value;
        const char* says;
    } cases[] = {
        {"kernel", "mma_ldmatrix_xor.f16", "allowed: kernels with trace points: "},
        {"kernel", "none", "wgmma_ws.bf16"},
        {"compare", "warp9", ", none"},
        {"blocks", "0", "allowed: 1..1024"},
        {"blocks", "1025", "allowed: 1..1024"},
        {"blocks", "-3", "allowed: 1..1024"},
        {"blocks", "8x", "allowed: 1..1024"},
        {"window", "2..1", "START < END"},
        {"window", "-1..1", "microseconds"},
        {"window", "1", "START..END"},
        {"window", "a..b", "START..END"},
        {"mnk", "12", "mnk='12'"},
        {"run", "off", "allowed: on"},
        {"controls", "hidden", "allowed: on, off"},
        {"open", "/no/such/trace.json", "no such file"},
        {"compare_open", kData.c_str(), "not a regular file"},
        {"zoom", "2", "settings: kernel, compare"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(c.key) + "=" + c.value);
        const std::string error = panel.apply_setting(c.key, c.value);
        EXPECT_NE(error.find(c.key), std::string::npos) << error;
        EXPECT_NE(error.find(c.says), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

TEST(TraceFile, AFileThatIsNotATraceSaysWhy) {
    const std::string path = test::temp_path("not_a_trace.json");
    std::FILE* file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fputs(R"({"kernel": "wgmma_ws.bf16"})", file);
    std::fclose(file);
    viz::WarpTrace trace;
    std::string error;
    EXPECT_FALSE(load_trace_file(path, trace, error));
    std::remove(path.c_str());
    EXPECT_NE(error.find("cannot open trace " + path + ": "), std::string::npos) << error;
    EXPECT_NE(error.find("missing key"), std::string::npos) << error;
}

TEST(TraceFile, TheSyntheticFixturesReadAsTheirRungs) {
    viz::WarpTrace rung9, rung10;
    std::string error;
    ASSERT_TRUE(load_trace_file(kData + "/synthetic_trace_rung9.json", rung9, error)) << error;
    ASSERT_TRUE(load_trace_file(kData + "/synthetic_trace_rung10.json", rung10, error)) << error;
    EXPECT_EQ(rung9.kernel, "wgmma_tma.bf16");
    EXPECT_EQ(rung10.kernel, "wgmma_ws.bf16");
    EXPECT_EQ(rung9.phases.front().start_ns, 0);  // normalised
}

}  // namespace
}  // namespace tclens::gui
