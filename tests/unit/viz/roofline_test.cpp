// Tests for viz/roofline.*: the model's numbers (worked out by hand from the header's formulas)
// and where the chart puts roofs and runs on its log-log axes.
#include "viz/roofline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "tests/support/draw_list_queries.h"
#include "viz/label_placement.h"

namespace tclens::viz {
namespace {

// H100-like numbers: 3.35 TB/s DRAM, measured peaks.
Roofline h100_roofline() {
    Roofline roofline;
    roofline.memory = {{"DRAM", 3.35e12, "theoretical"}};
    roofline.compute = {{"f32", "f32 FMA", 51.2, "measured"},
                        {"tf32", "tf32 tensor", 378.0, "measured"},
                        {"f16", "f16 tensor", 756.0, "measured"},
                        {"bf16", "bf16 tensor", 780.0, "measured"}};
    return roofline;
}

using test::find_text;

const DrawText* text_starting(const DrawList& draw, const std::string& prefix) {
    for (const DrawText& t : draw.texts) {
        if (t.text.rfind(prefix, 0) == 0) return &t;
    }
    return nullptr;
}

using test::hit_rect;

// The plot frame: the first rect, outlined.
const DrawRect& plot_frame(const DrawList& draw) { return draw.rects.front(); }

TEST(Roofline, GemmFlopsBytesAndIntensity) {
    EXPECT_DOUBLE_EQ(gemm_flops(4096, 4096, 4096), 2.0 * 4096.0 * 4096.0 * 4096.0);
    // f16 in, f32 out: A and B 2 x 32 MiB, C 64 MiB.
    EXPECT_DOUBLE_EQ(compulsory_bytes(4096, 4096, 4096, 2, 4), 128.0 * 1024 * 1024);
    // Non-square: A 16x64, B 64x32 in f32, C 16x32.
    EXPECT_DOUBLE_EQ(compulsory_bytes(16, 32, 64, 4, 4), (16 * 64 + 64 * 32) * 4.0 + 16 * 32 * 4.0);
    EXPECT_NEAR(arithmetic_intensity(gemm_flops(4096, 4096, 4096),
                                     compulsory_bytes(4096, 4096, 4096, 2, 4)),
                1024.0, 1e-9);  // 2 x 4096^3 / (8 x 4096^2)
    EXPECT_EQ(arithmetic_intensity(10, 0), 0);
}

TEST(Roofline, RidgePointIsWhereTheRoofsMeet) {
    EXPECT_NEAR(ridge_intensity(780.0, 3.35e12), 232.84, 0.01);
    const double ridge = ridge_intensity(780.0, 3.35e12);
    // At the ridge both roofs give the peak; left of it memory bounds, right of it compute.
    EXPECT_NEAR(attainable_tflops(ridge, 780.0, 3.35e12), 780.0, 1e-9);
    EXPECT_NEAR(attainable_tflops(ridge / 2, 780.0, 3.35e12), 390.0, 1e-9);
    EXPECT_DOUBLE_EQ(attainable_tflops(ridge * 2, 780.0, 3.35e12), 780.0);
    EXPECT_EQ(ridge_intensity(0, 3.35e12), 0);
    EXPECT_EQ(ridge_intensity(780, 0), 0);
}

TEST(Roofline, APointOnTheMemoryRoofReachesAllItsBandwidthAllows) {
    // 10 FLOP/byte at 3.35 TB/s: 33.5 TFLOP/s whatever the compute peak above it.
    EXPECT_NEAR(attainable_tflops(10.0, 780.0, 3.35e12), 33.5, 1e-9);
    EXPECT_NEAR(attainable_tflops(10.0, 0.0, 3.35e12), 33.5, 1e-9);  // memory roof only
    EXPECT_DOUBLE_EQ(attainable_tflops(10.0, 780.0, 0.0), 780.0);    // compute roof only
    EXPECT_EQ(attainable_tflops(10.0, 0.0, 0.0), 0);
}

TEST(Roofline, TheCeilingIsPickedByPrecision) {
    const Roofline roofline = h100_roofline();
    ASSERT_TRUE(roof_for(roofline, "tf32"));
    EXPECT_EQ(roof_for(roofline, "tf32")->label, "tf32 tensor");
    EXPECT_EQ(roof_for(roofline, "f32")->tflops, 51.2);
    EXPECT_FALSE(roof_for(roofline, "s8"));
    // One intensity, far right of every ridge: each precision is capped by its own roof.
    const double intensity = 2000;
    EXPECT_DOUBLE_EQ(attainable_for(roofline, {"a", "f32", intensity, 40, false, 0}), 51.2);
    EXPECT_DOUBLE_EQ(attainable_for(roofline, {"b", "tf32", intensity, 300, false, 0}), 378.0);
    EXPECT_DOUBLE_EQ(attainable_for(roofline, {"c", "bf16", intensity, 700, false, 0}), 780.0);
    // A precision without a compute roof is bounded by memory only.
    EXPECT_NEAR(attainable_for(roofline, {"d", "s8", intensity, 1, false, 0}), 6700.0, 1e-9);
}

TEST(Roofline, LogAxesSpanWholeDecades) {
    const LogAxis a = log_axis({0.5, 170.7, 232.8}, 2);
    EXPECT_EQ(a.first, -1);
    EXPECT_EQ(a.last, 3);
    const LogAxis exact = log_axis({10, 1000}, 2);  // powers of ten are their own ends
    EXPECT_EQ(exact.first, 1);
    EXPECT_EQ(exact.last, 3);
    const LogAxis narrow = log_axis({20, 30}, 3);  // [1, 2] grown top, bottom, top
    EXPECT_EQ(narrow.first, 0);
    EXPECT_EQ(narrow.last, 3);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const LogAxis none = log_axis({0, -4, nan}, 2);
    EXPECT_EQ(none.first, 0);
    EXPECT_EQ(none.last, 2);
    EXPECT_DOUBLE_EQ(log_fraction(a, 0.1), 0.0);
    EXPECT_DOUBLE_EQ(log_fraction(a, 1000), 1.0);
    EXPECT_DOUBLE_EQ(log_fraction(a, 10), 0.5);
    EXPECT_EQ(decade_text(-2), "0.01");
    EXPECT_EQ(decade_text(-1), "0.1");
    EXPECT_EQ(decade_text(0), "1");
    EXPECT_EQ(decade_text(3), "1000");
}

TEST(RooflineChart, DecadeTicksAndEqualDecadesOnBothAxes) {
    Roofline roofline = h100_roofline();
    roofline.points = {{"wgmma", "f16", 170.0, 700.0, false, 0}};
    RooflineOptions options;
    options.decade_px = 80;
    const DrawList draw = roofline_chart(roofline, options);
    // y: 51.2 .. 780 -> [10, 1000]; x: ridges / 3 .. ridges x 3 (15.3 / 3 .. 232.8 x 3) -> [1,
    // 1000].
    const DrawRect& frame = plot_frame(draw);
    EXPECT_FLOAT_EQ(frame.w, 3 * 80.0f);
    EXPECT_FLOAT_EQ(frame.h, 2 * 80.0f);
    for (const char* tick : {"1", "10", "100", "1000"}) EXPECT_TRUE(find_text(draw, tick)) << tick;
    EXPECT_FALSE(find_text(draw, "0.1"));
    EXPECT_FALSE(find_text(draw, "10000"));
    EXPECT_TRUE(find_text(draw, "arithmetic intensity (FLOP/byte)"));
    EXPECT_TRUE(find_text(draw, "TFLOP/s"));
}

TEST(RooflineChart, PointsSitAtTheirLogPositions) {
    Roofline roofline;
    roofline.memory = {{"DRAM", 1e12, "measured"}};  // 1 TB/s: ridge of a 100 TFLOP/s roof at 100
    roofline.compute = {{"f16", "f16 tensor", 100.0, "measured"}};
    roofline.points = {{"on the memory roof", "f16", 10.0, 10.0, false, 1},
                       {"at the ridge", "f16", 100.0, 100.0, false, 2}};
    RooflineOptions options;
    options.decade_px = 100;
    const DrawList draw = roofline_chart(roofline, options);
    // x: the points and ridge / 3 .. ridge x 3 -> [10, 1000]; y: 10 .. 100 grown -> [10, 1000].
    const DrawRect& frame = plot_frame(draw);
    ASSERT_FLOAT_EQ(frame.w, 200.0f);
    ASSERT_FLOAT_EQ(frame.h, 200.0f);
    const DrawRect* memory_point = hit_rect(draw, 0);
    const DrawRect* ridge_point = hit_rect(draw, 1);
    ASSERT_TRUE(memory_point && ridge_point);
    // Centres: (10, 10) is the plot's bottom-left corner, (100, 100) one decade up and right.
    EXPECT_NEAR(memory_point->x + memory_point->w / 2, frame.x, 0.01f);
    EXPECT_NEAR(memory_point->y + memory_point->h / 2, frame.y + 200.0f, 0.01f);
    EXPECT_NEAR(ridge_point->x + ridge_point->w / 2, frame.x + 100.0f, 0.01f);
    EXPECT_NEAR(ridge_point->y + ridge_point->h / 2, frame.y + 100.0f, 0.01f);
    EXPECT_EQ(memory_point->fill, category_colour(dark_palette(), 1));
    EXPECT_EQ(ridge_point->fill, category_colour(dark_palette(), 2));
    // Both points run at 100% of what their intensity allows.
    EXPECT_TRUE(text_starting(draw,
                              "1 on the memory roof: 10.0 FLOP/B, 10.0 TFLOP/s, 100% of "
                              "attainable (DRAM roof)"));
    EXPECT_TRUE(text_starting(draw,
                              "2 at the ridge: 100.0 FLOP/B, 100.0 TFLOP/s, 100% of "
                              "attainable (f16 tensor roof)"));
}

TEST(RooflineChart, MemoryRoofRisesAtFortyFiveDegreesToTheRidge) {
    Roofline roofline;
    roofline.memory = {{"DRAM", 1e12, "measured"}};  // TFLOP/s = FLOP/byte: ridge at 100
    roofline.compute = {{"f16", "f16 tensor", 100.0, "measured"}};
    RooflineOptions options;
    options.decade_px = 100;
    const DrawList draw = roofline_chart(roofline, options);
    // x: 100 / 3 .. 100 x 3 -> [10, 1000]; y: 100 grown to two decades -> [10, 1000]. The
    // memory roof enters at the bottom-left corner (10, 10) and meets the roof at (100, 100).
    const DrawRect& frame = plot_frame(draw);
    ASSERT_FLOAT_EQ(frame.w, 200.0f);
    ASSERT_FLOAT_EQ(frame.h, 200.0f);
    const float left = frame.x, bottom = frame.y + frame.h;
    int columns = 0;
    float end_x = 0;
    const DrawRect* flat = nullptr;
    for (const DrawRect& rect : draw.rects) {
        if (rect.fill != dark_palette().text) continue;
        if (rect.w > 1.01f) {  // the compute roof
            flat = &rect;
            continue;
        }
        ++columns;
        EXPECT_GE(rect.y, frame.y);
        EXPECT_LE(rect.y + rect.h, bottom + 0.01f);
        end_x = std::max(end_x, rect.x + rect.w);
        // y falls one pixel per pixel of x; the band's centre lies on the line, except where
        // the plot's bottom edge clips it.
        if (rect.y + rect.h < bottom - 0.01f) {
            EXPECT_NEAR(rect.y + rect.h / 2, bottom - (rect.x + rect.w / 2 - left), 1.0f) << rect.x;
        }
    }
    EXPECT_EQ(columns, 100);
    EXPECT_NEAR(end_x, left + 100.0f, 0.01f);
    ASSERT_TRUE(flat);
    EXPECT_NEAR(flat->x, left + 100.0f, 0.01f);
    EXPECT_NEAR(flat->x + flat->w, frame.x + frame.w, 0.01f);
    EXPECT_NEAR(flat->y + flat->h / 2, bottom - 100.0f, 0.01f);
    const DrawText* roof_label = find_text(draw, "f16 tensor 100");
    ASSERT_TRUE(roof_label);
    EXPECT_GT(roof_label->x, frame.x + frame.w);
    const DrawText* memory_label = find_text(draw, "DRAM 1.00 TB/s");
    ASSERT_TRUE(memory_label);
    EXPECT_TRUE(find_text(draw, "measured"));
    // Under the line (which is at bottom - (x - left) there), inside the plot.
    EXPECT_GT(memory_label->y, bottom - (memory_label->x - left));
    EXPECT_LE(memory_label->y + 2 * memory_label->size, bottom);
    EXPECT_TRUE(find_text(draw,
                          "roofs: DRAM 1.00 TB/s (measured), f16 tensor 100.0 TFLOP/s "
                          "(measured)"));
}

TEST(RooflineChart, EstimatedIntensityIsLabelledAndUndrawableRunsAreLeftOut) {
    Roofline roofline = h100_roofline();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    roofline.points = {{"estimated", "bf16", 1024.0, 600.0, true, 0},
                       {"no number", "bf16", 1024.0, 0.0, false, 1},
                       {"nan", "bf16", nan, 500.0, false, 2}};
    const DrawList draw = roofline_chart(roofline, RooflineOptions{});
    EXPECT_TRUE(hit_rect(draw, 0));
    EXPECT_FALSE(hit_rect(draw, 1));
    EXPECT_FALSE(hit_rect(draw, 2));
    EXPECT_TRUE(text_starting(draw,
                              "1 estimated: 1024.0 FLOP/B est., 600.0 TFLOP/s, 77% of "
                              "attainable (bf16 tensor roof)"));
    EXPECT_FALSE(text_starting(draw, "2 no number"));
    EXPECT_TRUE(text_starting(draw, "est.: intensity from compulsory traffic"));
}

TEST(RooflineChart, RoofLabelsDoNotOverlapAndEverythingFits) {
    Roofline roofline = h100_roofline();  // f16 756 and bf16 780 are 4 px apart on the plot
    roofline.points = {{"wgmma_persistent.bf16 4096x4096x4096", "bf16", 300.0, 760.0, false, 0},
                       {"naive_fma.f32 4096x4096x4096", "f32", 2.5, 5.0, true, 1}};
    RooflineOptions options;
    options.title = "roofline: NVIDIA H100 80GB HBM3";
    const DrawList draw = roofline_chart(roofline, options);
    const DrawText* f16 = find_text(draw, "f16 tensor 756");
    const DrawText* bf16 = find_text(draw, "bf16 tensor 780");
    ASSERT_TRUE(f16 && bf16);
    EXPECT_GE(f16->y, bf16->y + bf16->size);  // pushed below the higher roof's label
    for (const DrawRect& rect : draw.rects) {
        EXPECT_GE(rect.x, 0);
        EXPECT_GE(rect.y, 0);
        EXPECT_LE(rect.x + rect.w, draw.width + 0.01f);
        EXPECT_LE(rect.y + rect.h, draw.height + 0.01f);
    }
    for (const DrawText& text : draw.texts) {
        const float width = text_width(text.text.size(), text.size);
        const float left = text.align == TextAlign::kCenter ? text.x - width / 2 : text.x;
        EXPECT_GE(left, 0) << text.text;
        EXPECT_LE(left + width, draw.width + 0.01f) << text.text;
        EXPECT_LE(text.y + text.size, draw.height) << text.text;
    }
}

// The shipped recording's default pick puts four runs within a few pixels (the best f16 and bf16
// rungs and their cuBLAS at ~670 FLOP/B, ~750 TFLOP/s) and two more near each other (e4m3): their
// numbers, once all drawn above-right of the markers, covered each other. Now none covers
// another number or any marker.
TEST(RooflineChart, RunNumbersDoNotPileUp) {
    Roofline roofline = h100_roofline();
    roofline.points = {
        {"a", "f16", 673.5, 729.9, false, 0},  {"b", "f16", 667.6, 739.9, false, 1},
        {"c", "bf16", 674.3, 758.2, false, 2}, {"d", "bf16", 666.9, 767.0, false, 3},
        {"e", "f16", 1169.7, 760.0, false, 4}, {"f", "f16", 1137.6, 770.0, false, 5}};
    const DrawList draw = roofline_chart(roofline, {});
    const DrawRect& frame = plot_frame(draw);
    std::vector<Box> numbers, markers;
    for (int i = 0; i < 6; ++i) {
        const DrawRect* marker = hit_rect(draw, i);
        ASSERT_TRUE(marker) << i;
        markers.push_back({marker->x, marker->y, marker->w, marker->h});
        // The number: the text "i + 1" inside the plot (the tick values lie outside it).
        const DrawText* number = nullptr;
        for (const DrawText& t : draw.texts) {
            const bool inside = t.x >= frame.x && t.x < frame.x + frame.w && t.y >= frame.y &&
                                t.y < frame.y + frame.h;
            if (inside && t.text == std::to_string(i + 1)) number = &t;
        }
        ASSERT_TRUE(number) << i;
        numbers.push_back(
            {number->x, number->y, text_width(number->text.size(), number->size), number->size});
    }
    for (size_t i = 0; i < numbers.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            EXPECT_FALSE(boxes_overlap(numbers[i], numbers[j])) << i + 1 << " on " << j + 1;
        }
        for (size_t m = 0; m < markers.size(); ++m) {
            EXPECT_FALSE(boxes_overlap(numbers[i], markers[m]))
                << i + 1 << " on the marker of " << m + 1;
        }
    }
}

// In the 822 px the Compare panel shows at 1280x720, the legend wraps its long lines after a
// ", " or ": " instead of running 1,451 px wide; every text stays inside max_width.
TEST(RooflineChart, LegendLinesWrapToMaxWidth) {
    Roofline roofline = h100_roofline();
    roofline.devices = {"NVIDIA H100 80GB HBM3, 2026-11-25 23:33 UTC"};
    roofline.points = {{"wgmma_persistent.f16 4096x4096x4096", "f16", 673.5, 729.9, false, 0},
                       {"naive_fma.f32 4096x4096x4096", "f32", 2.5, 5.0, true, 1}};
    RooflineOptions options;
    options.max_width = 500;
    const DrawList draw = roofline_chart(roofline, options);
    EXPECT_LE(draw.width, 500.0f);
    for (const DrawText& text : draw.texts) {
        EXPECT_LE(text.x + text_width(text.text.size(), text.size), 500.0f) << text.text;
    }
    EXPECT_TRUE(find_text(draw, "1 wgmma_persistent.f16 4096x4096x4096:"));
    EXPECT_TRUE(text_starting(draw, "  "));  // a continued line
    options.max_width = 0;
    EXPECT_GT(roofline_chart(roofline, options).width, 500.0f);
}

TEST(RooflineChart, NothingKnownGivesEmptyAxes) {
    const DrawList draw = roofline_chart(Roofline{}, RooflineOptions{});
    EXPECT_GT(draw.width, 0);
    EXPECT_GT(draw.height, 0);
    for (const DrawRect& rect : draw.rects) EXPECT_EQ(rect.hit, -1);
    EXPECT_TRUE(find_text(draw, "roofs: none known"));
    EXPECT_TRUE(find_text(draw, "1"));
    EXPECT_TRUE(find_text(draw, "100"));
}

}  // namespace
}  // namespace tclens::viz

namespace tclens::viz {
namespace {

TEST(RooflineChart, TwoDevicesDrawTheirOwnRoofsApartAndNameThem) {
    Roofline roofline;
    roofline.devices = {"GPU A, 2026-11-22", "GPU B, 2026-11-25"};
    roofline.memory = {{"DRAM", 1e12, "measured", 0}, {"DRAM", 2e12, "measured", 1}};
    roofline.compute = {{"f16", "f16 tensor", 100.0, "measured", 0},
                        {"f16", "f16 tensor", 400.0, "measured", 1}};
    // The same intensity and TFLOP/s on each device: a different share of its own roof.
    roofline.points = {{"a", "f16", 1000.0, 50.0, false, 0, 0},
                       {"b", "f16", 1000.0, 50.0, false, 1, 1}};
    EXPECT_DOUBLE_EQ(attainable_for(roofline, roofline.points[0]), 100.0);
    EXPECT_DOUBLE_EQ(attainable_for(roofline, roofline.points[1]), 400.0);
    const DrawList draw = roofline_chart(roofline, RooflineOptions{});
    EXPECT_TRUE(text_starting(draw, "GPU A, 2026-11-22: f16 tensor 100"));
    EXPECT_TRUE(text_starting(draw, "GPU B, 2026-11-25: f16 tensor 400"));
    EXPECT_TRUE(text_starting(draw, "GPU B, 2026-11-25: DRAM 2.00 TB/s"));
    EXPECT_TRUE(text_starting(draw, "1 a: 1000.0 FLOP/B, 50.0 TFLOP/s, 50% of attainable"));
    EXPECT_TRUE(text_starting(draw, "2 b: 1000.0 FLOP/B, 50.0 TFLOP/s, 12% of attainable"));
    EXPECT_TRUE(text_starting(draw, "roofs of GPU A, 2026-11-22 (solid): DRAM 1.00 TB/s"));
    EXPECT_TRUE(text_starting(draw, "roofs of GPU B, 2026-11-25 (dashed): DRAM 2.00 TB/s"));
    // Device 1's compute roof is dashed: several short rects at its height, none longer than a
    // dash; device 0's is one solid band.
    const DrawRect& frame = plot_frame(draw);
    std::map<int, std::vector<const DrawRect*>> flat_by_y;
    for (const DrawRect& rect : draw.rects) {
        if (rect.fill != dark_palette().text || rect.w <= 1.01f) continue;
        flat_by_y[int(std::lround(rect.y))].push_back(&rect);
    }
    ASSERT_EQ(flat_by_y.size(), 2u);
    const auto& top = flat_by_y.begin()->second;     // 400: higher on screen
    const auto& lower = flat_by_y.rbegin()->second;  // 100
    EXPECT_GT(top.size(), 3u);
    for (const DrawRect* dash : top) EXPECT_LE(dash->w, roof_dash(1).on + 0.01f);
    ASSERT_EQ(lower.size(), 1u);
    EXPECT_NEAR(lower[0]->x + lower[0]->w, frame.x + frame.w, 0.01f);
}

TEST(RooflineChart, OneDeviceNamesNoDevice) {
    Roofline roofline;
    roofline.devices = {"GPU A, 2026-11-22"};
    roofline.memory = {{"DRAM", 1e12, "measured", 0}};
    roofline.compute = {{"f16", "f16 tensor", 100.0, "measured", 0}};
    const DrawList draw = roofline_chart(roofline, RooflineOptions{});
    EXPECT_TRUE(text_starting(draw, "f16 tensor 100"));
    EXPECT_TRUE(text_starting(draw, "roofs: DRAM 1.00 TB/s (measured)"));
    EXPECT_FALSE(text_starting(draw, "GPU A"));
    EXPECT_STREQ(roof_dash_name(0), "solid");
    EXPECT_STREQ(roof_dash_name(2), "dotted");
}

}  // namespace
}  // namespace tclens::viz
