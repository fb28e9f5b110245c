// Tests for app/gui/panels/view_zoom.*: the "zoom" setting of a view's drawing takes a factor in
// its range or "fit", and a bad value names itself and both choices. (Fit itself needs a window
// to fill: tests/ui/tour_fit_test.cpp.)

#include "app/gui/panels/view_zoom.h"

#include <gtest/gtest.h>

namespace tclens::gui {
namespace {

TEST(ViewZoom, TakesAFactorInItsRangeOrFit) {
    ViewZoom zoom(0.25f, 3.0f);
    EXPECT_FALSE(zoom.fit());
    EXPECT_FLOAT_EQ(zoom.factor(), 1.0f);
    EXPECT_EQ(zoom.apply_setting("fit"), "");
    EXPECT_TRUE(zoom.fit());
    EXPECT_EQ(zoom.apply_setting("2.5"), "");  // a factor turns fit off
    EXPECT_FALSE(zoom.fit());
    EXPECT_FLOAT_EQ(zoom.factor(), 2.5f);
    EXPECT_FLOAT_EQ(zoom.for_drawing(viz::DrawList{}), 2.5f);  // no fit: the factor as set
}

TEST(ViewZoom, ABadValueNamesItAndWhatIsAllowed) {
    ViewZoom zoom(0.5f, 3.0f);
    ASSERT_EQ(zoom.apply_setting("fit"), "");
    EXPECT_EQ(zoom.apply_setting("9"), "zoom='9': allowed: 0.5..3 or fit");
    EXPECT_EQ(zoom.apply_setting("fitted"), "zoom='fitted': allowed: 0.5..3 or fit");
    EXPECT_TRUE(zoom.fit());  // a refused value changes nothing
    EXPECT_FLOAT_EQ(zoom.factor(), 1.0f);
}

}  // namespace
}  // namespace tclens::gui
