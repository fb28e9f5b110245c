#include "viz/error_map_view.h"

#include <gtest/gtest.h>

#include <cmath>

#include "viz/fragment_bug.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::viz {
namespace {

// A 32 x 16 C, per element: row 0 wrong in columns 0..3, (5, 5) NaN.
ErrorMap sample_map() {
    std::vector<double> expected(32 * 16, 1.0);
    std::vector<float> got(32 * 16, 1.0f);
    for (int j = 0; j < 4; ++j) got[j] = -1.0f;
    got[5 * 16 + 5] = std::nanf("");
    return build_error_map(got.data(), expected.data(), 32, 16, 0.01,
                           error_cell_shape(32, 16, 0, 0));
}

TEST(ErrorMapView, Buckets) {
    EXPECT_EQ(error_bucket(1, 128), 0);
    EXPECT_EQ(error_bucket(3, 128), 1);
    EXPECT_EQ(error_bucket(32, 128), 2);
    EXPECT_EQ(error_bucket(64, 128), 3);
    EXPECT_EQ(error_bucket(127, 128), 4);
    EXPECT_EQ(error_bucket(128, 128), 5);
    EXPECT_EQ(error_bucket(1, 1), 5);
    EXPECT_EQ(error_bucket_label(0), "<=1/64");
    EXPECT_EQ(error_bucket_label(5), "all");
}

TEST(ErrorMapView, OneRectPerCellColouredByItsWrongShare) {
    const ErrorMap map = sample_map();
    const ErrorMapView view = error_map_view(map, {});
    const BankPalette& heat = dark_bank_palette();
    std::vector<const DrawRect*> cells(map.cells.size(), nullptr);
    for (const DrawRect& r : view.draw.rects) {
        if (r.hit >= 0) {
            ASSERT_LT(r.hit, static_cast<int>(cells.size()));
            EXPECT_EQ(cells[r.hit], nullptr) << "cell " << r.hit << " drawn twice";
            cells[r.hit] = &r;
        }
    }
    for (const DrawRect* r : cells) ASSERT_NE(r, nullptr);
    EXPECT_EQ(cells[0]->fill, heat.heat[5]);  // C[0][0] wrong: the whole (1-element) cell
    EXPECT_EQ(cells[4]->fill, heat.idle);
    EXPECT_EQ(cells[5 * 16 + 5]->stroke, dark_palette().highlight);
    EXPECT_GT(cells[5 * 16 + 5]->stroke_width, 0.0f);
    EXPECT_EQ(cells[4]->stroke_width, 0.0f);
    // Cells in the grid's order: row 1 lies below row 0, column 1 right of column 0.
    EXPECT_GT(cells[16]->y, cells[0]->y);
    EXPECT_GT(cells[1]->x, cells[0]->x);
    // Title, pattern hint and legend.
    std::string all_text;
    for (const DrawText& t : view.draw.texts) all_text += t.text + "\n";
    EXPECT_NE(all_text.find("C 32 x 16: 5 of 512 elements wrong (1 NaN), per element; first "
                            "C[0][0]: expected 1, got -1"),
              std::string::npos)
        << all_text;
    EXPECT_NE(all_text.find("has NaN"), std::string::npos);
    EXPECT_NE(all_text.find("all wrong"), std::string::npos);
    EXPECT_GE(view.draw.width, cells[15]->x + cells[15]->w);
    EXPECT_GE(view.draw.height, cells.back()->y + cells.back()->h);
}

TEST(ErrorMapView, AFoldedTileLabelsEachPlaceWithItsLaneAndRegister) {
    ErrorMap map = sample_map();
    const std::size_t rects_unfolded = error_map_view(map, {}).draw.rects.size();
    const auto layout = fragment_layout("mma.m16n8k16.f16");
    ASSERT_TRUE(layout.has_value());
    // Row 0 of a 32 x 16 C, columns 0-3, folded onto the 16x8 tile: 1 of 4 tiles.
    std::vector<double> expected(32 * 16, 1.0);
    std::vector<float> got(32 * 16, 1.0f);
    for (int j = 0; j < 4; ++j) got[j] = -1.0f;
    map.folded = fold_errors(got.data(), expected.data(), 32, 16, 0.01, *layout);
    ASSERT_EQ(map.folded.wrong_tiles, 1);
    map.bug = "C: lanes 0-1 are wrong";
    const ErrorMapView view = error_map_view(map, {});
    EXPECT_EQ(view.draw.rects.size(), rects_unfolded + 16 * 8);  // one rect per place
    bool bug_line = false, lane_0 = false, lane_31 = false, c3 = false;
    for (const DrawText& t : view.draw.texts) {
        bug_line |= t.text == map.bug;
        lane_0 |= t.text == "T0";
        lane_31 |= t.text == "T31";
        c3 |= t.text == "c3";
    }
    EXPECT_TRUE(bug_line);
    EXPECT_TRUE(lane_0 && lane_31 && c3);
    // The four wrong places (row 0, columns 0-3) are filled with the "all" bucket: wrong in the
    // one wrong tile.
    const BankPalette& heat = dark_bank_palette();
    std::size_t all = 0;
    for (std::size_t i = rects_unfolded; i < view.draw.rects.size(); ++i) {
        all += view.draw.rects[i].fill == heat.heat[5] ? 1 : 0;
    }
    EXPECT_EQ(all, 4u);
}

TEST(ErrorMapView, ExportsToSvgAndPng) {
    const ErrorMapView view = error_map_view(
        sample_map(), {8.0f, &high_contrast_palette(), &high_contrast_bank_palette()});
    const std::string svg = to_svg(view.draw);
    std::size_t rects = 0;
    for (std::size_t at = svg.find("<rect"); at != std::string::npos;
         at = svg.find("<rect", at + 1))
        ++rects;
    EXPECT_EQ(rects, view.draw.rects.size());
    const RgbaImage image = rasterize(view.draw);
    EXPECT_EQ(image.width, static_cast<int>(std::ceil(view.draw.width)));
    EXPECT_GT(image.height, 0);
}

TEST(ErrorMapView, Tooltips) {
    const ErrorMap map = sample_map();
    EXPECT_EQ(error_cell_tooltip(map, 0), "row 0, col 0: 1 of 1 wrong (0 NaN)");
    std::vector<double> expected(64 * 64, 0.0);
    std::vector<float> got(64 * 64, 0.0f);
    const ErrorMap tiles =
        build_error_map(got.data(), expected.data(), 64, 64, 0.1, {16, 8, "16x8 tile"});
    EXPECT_EQ(error_cell_tooltip(tiles, 9), "rows 16-31, cols 8-15: 0 of 128 wrong (0 NaN)");
    EXPECT_EQ(error_cell_tooltip(tiles, -1), "");
}

}  // namespace
}  // namespace tclens::viz
