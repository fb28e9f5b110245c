#pragma once
// A small draw list and its colours, shared by the SVG and raster tests
// (tests/unit/viz/svg_export_test.cpp, raster_test.cpp): one plain rect, one stroked and labelled.
#include "viz/draw_list.h"

namespace tclens::viz::test_draw {

constexpr Rgba kBackground{10, 20, 30, 255};
constexpr Rgba kRed{200, 30, 40, 255};
constexpr Rgba kGreen{20, 180, 60, 255};
constexpr Rgba kWhite{255, 255, 255, 255};
constexpr Rgba kNone{0, 0, 0, 0};

// 100 x 60 on kBackground: a kRed 30 x 20 rect at (10, 10), no stroke, no label; a kGreen
// 40 x 40 rect at (50, 10) with a 3-pixel kWhite stroke, label 7.
inline DrawList two_rects() {
    DrawList list;
    list.width = 100;
    list.height = 60;
    list.background = kBackground;
    list.rects.push_back({10, 10, 30, 20, kRed, kNone, 0, -1});
    list.rects.push_back({50, 10, 40, 40, kGreen, kWhite, 3, 7});
    return list;
}

}  // namespace tclens::viz::test_draw
