// When the window has settled (app/gui/shell/layout_settle.h): only after
// LayoutSettle::kQuietFrames frames in a row with the jobs idle and the layout unchanged; a busy
// frame or a moved pane starts the count again.
#include "app/gui/shell/layout_settle.h"

#include <gtest/gtest.h>

namespace tclens::gui {
namespace {

WorkspaceLayout layout_with_main_width(float width) {
    WorkspaceLayout layout;
    layout.main = Rect{100, 20, width, 600};
    return layout;
}

TEST(LayoutSettle, SettlesAfterFourQuietFramesOfOneLayout) {
    LayoutSettle settle;
    const WorkspaceLayout layout = layout_with_main_width(500);
    settle.saw(true, layout);  // the first frame differs from "nothing drawn yet"
    for (int frame = 0; frame < LayoutSettle::kQuietFrames; ++frame) {
        EXPECT_FALSE(settle.settled()) << frame;
        settle.saw(true, layout);
    }
    EXPECT_TRUE(settle.settled());
}

TEST(LayoutSettle, ARunningJobStartsTheCountAgain) {
    LayoutSettle settle;
    const WorkspaceLayout layout = layout_with_main_width(500);
    for (int frame = 0; frame < 10; ++frame) settle.saw(true, layout);
    ASSERT_TRUE(settle.settled());
    settle.saw(false, layout);
    EXPECT_FALSE(settle.settled());
    for (int frame = 1; frame < LayoutSettle::kQuietFrames; ++frame) settle.saw(true, layout);
    EXPECT_FALSE(settle.settled());
    settle.saw(true, layout);
    EXPECT_TRUE(settle.settled());
}

// The case that made a workspace test flaky: the GPU query finished, the Compare view grew, and
// its pane moved three frames later.
TEST(LayoutSettle, AMovedPaneStartsTheCountAgain) {
    LayoutSettle settle;
    for (int frame = 0; frame < 10; ++frame) settle.saw(true, layout_with_main_width(500));
    ASSERT_TRUE(settle.settled());
    settle.saw(true, layout_with_main_width(700));
    EXPECT_FALSE(settle.settled());
}

}  // namespace
}  // namespace tclens::gui
