// Tests for app/gui/panels/panel_settings.*: apply_zoom_setting, the zoom of Fragments, Banks
// and Tile map.
#include "app/gui/panels/panel_settings.h"

#include <gtest/gtest.h>

namespace tclens::gui {
namespace {

TEST(ZoomSetting, ANumberInTheRangeSetsTheZoom) {
    float zoom = 1.0f;
    EXPECT_EQ(apply_zoom_setting("0.25", 0.25f, 3.0f, zoom), "");
    EXPECT_FLOAT_EQ(zoom, 0.25f);
    EXPECT_EQ(apply_zoom_setting("3", 0.25f, 3.0f, zoom), "");
    EXPECT_FLOAT_EQ(zoom, 3.0f);
}

TEST(ZoomSetting, AnythingElseNamesTheValueAndTheRangeAndKeepsTheZoom) {
    float zoom = 1.5f;
    EXPECT_EQ(apply_zoom_setting("9", 0.25f, 3.0f, zoom), "zoom='9': allowed: 0.25..3");
    EXPECT_EQ(apply_zoom_setting("0.4", 0.5f, 3.0f, zoom), "zoom='0.4': allowed: 0.5..3");
    EXPECT_EQ(apply_zoom_setting("1x", 0.25f, 3.0f, zoom), "zoom='1x': allowed: 0.25..3");
    EXPECT_EQ(apply_zoom_setting("nan", 0.25f, 3.0f, zoom), "zoom='nan': allowed: 0.25..3");
    EXPECT_EQ(apply_zoom_setting("", 0.25f, 3.0f, zoom), "zoom='': allowed: 0.25..3");
    EXPECT_FLOAT_EQ(zoom, 1.5f);
}

}  // namespace
}  // namespace tclens::gui
