// Lecture mode's settings and font search without a window (app/gui/views/lecture_mode.h): `--set
// lecture.KEY=VALUE` is split from the panel settings, bad values are one line naming the value
// and what is allowed, and TCLENS_FONT picks the font. (What lecture mode draws is tested under
// Xvfb in tests/ui/lecture_mode_test.cpp.)
#include "app/gui/views/lecture_mode.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace tclens::gui {
namespace {

TEST(LectureSettings, LectureOnIsZoomedHighContrastFullScreenAndPresented) {
    const LectureSettings on = lecture_on_settings();
    EXPECT_EQ(on.zoom_percent, kLectureZoomPercent);
    EXPECT_GT(on.zoom_percent, 100);
    EXPECT_TRUE(on.high_contrast);
    EXPECT_TRUE(on.full_screen);
    EXPECT_TRUE(on.presentation);
    const LectureSettings everyday;
    EXPECT_EQ(everyday.zoom_percent, 100);
    EXPECT_FALSE(everyday.high_contrast);
    EXPECT_FALSE(everyday.full_screen);
    EXPECT_FALSE(everyday.presentation);
}

TEST(LectureSettings, EachKeyAcceptsItsValues) {
    LectureSettings settings;
    EXPECT_EQ(apply_lecture_setting(settings, "zoom", "250"), "");
    EXPECT_EQ(settings.zoom_percent, 250);
    EXPECT_EQ(apply_lecture_setting(settings, "zoom", "100"), "");
    EXPECT_EQ(apply_lecture_setting(settings, "zoom", "300"), "");
    EXPECT_EQ(apply_lecture_setting(settings, "theme", "high-contrast"), "");
    EXPECT_TRUE(settings.high_contrast);
    EXPECT_EQ(apply_lecture_setting(settings, "theme", "dark"), "");
    EXPECT_FALSE(settings.high_contrast);
    EXPECT_EQ(apply_lecture_setting(settings, "fullscreen", "on"), "");
    EXPECT_TRUE(settings.full_screen);
    EXPECT_EQ(apply_lecture_setting(settings, "presentation", "on"), "");
    EXPECT_TRUE(settings.presentation);
    EXPECT_EQ(apply_lecture_setting(settings, "presentation", "off"), "");
    EXPECT_FALSE(settings.presentation);
}

TEST(LectureSettings, BadValuesNameTheValueAndWhatIsAllowed) {
    LectureSettings settings;
    for (const char* zoom : {"99", "301", "1.5", "", "150%"}) {
        const std::string error = apply_lecture_setting(settings, "zoom", zoom);
        EXPECT_EQ(error, "zoom='" + std::string(zoom) + "': allowed: 100..300 (percent)");
    }
    EXPECT_EQ(apply_lecture_setting(settings, "theme", "light"),
              "theme='light': allowed: dark, high-contrast");
    EXPECT_EQ(apply_lecture_setting(settings, "fullscreen", "yes"),
              "fullscreen='yes': allowed: on, off");
    EXPECT_EQ(apply_lecture_setting(settings, "presentation", "1"),
              "presentation='1': allowed: on, off");
    EXPECT_NE(apply_lecture_setting(settings, "font", "big").find("no setting 'font'"),
              std::string::npos);
    EXPECT_EQ(settings.zoom_percent, 100);  // bad values change nothing
}

TEST(LectureSettings, TakesLectureAssignmentsOutOfSetAndKeepsTheRest) {
    std::vector<std::string> assignments = {"fragments.layout=ldmatrix.x4", "lecture.zoom=200",
                                            "lane=5", "lecture.theme=high-contrast"};
    LectureSettings settings;
    EXPECT_EQ(take_lecture_settings(assignments, settings), "");
    EXPECT_EQ(assignments, (std::vector<std::string>{"fragments.layout=ldmatrix.x4", "lane=5"}));
    EXPECT_EQ(settings.zoom_percent, 200);
    EXPECT_TRUE(settings.high_contrast);

    std::vector<std::string> bad = {"lecture.zoom=500", "lane=5"};
    EXPECT_EQ(take_lecture_settings(bad, settings),
              "--set 'lecture.zoom=500': zoom='500': allowed: 100..300 (percent)");
    std::vector<std::string> no_value = {"lecture.zoom"};
    EXPECT_EQ(take_lecture_settings(no_value, settings),
              "--set 'lecture.zoom': expected lecture.KEY=VALUE");
}

TEST(LectureFont, TclensFontChoosesTheFontOrTheBuiltInOne) {
    const char* saved = std::getenv("TCLENS_FONT");
    const std::string before = saved ? saved : "";
    setenv("TCLENS_FONT", "/some/where/Font.ttf", 1);
    EXPECT_EQ(find_ui_font(), "/some/where/Font.ttf");
    setenv("TCLENS_FONT", "builtin", 1);
    EXPECT_EQ(find_ui_font(), "");
    unsetenv("TCLENS_FONT");
    // Without it: the first system candidate that exists, or none.
    const std::string found = find_ui_font();
    if (!found.empty()) {
        const auto& candidates = system_font_candidates();
        EXPECT_NE(std::find(candidates.begin(), candidates.end(), found), candidates.end());
    }
    if (saved) setenv("TCLENS_FONT", before.c_str(), 1);
}

}  // namespace
}  // namespace tclens::gui
