#pragma once
// A strip chart as draw records (viz/draw_list.h): the newest values of one quantity as columns,
// oldest on the left, newest at the right edge, so a chart fed one value per update scrolls
// left. The Profile panel paints one per metric card and per PM-sampling metric with ImDrawList;
// the same records export to SVG and PNG.
//
// What is drawn, top to bottom:
//   - The title (when not empty) in palette.text, and after it `value_text` (when not empty).
//   - The plot: a frame of width x plot_height filled with palette.grid at low alpha; one column
//     per value, 1 / capacity of the plot wide, value / axis max of the plot tall, filled with
//     category_colour(palette, category); the scale as text ("0 to 100 %", "0 to 300 threads")
//     at the plot's top-left corner, in palette.text.
// The axis max is options.fixed_max when > 0 (100 for percentages), else nice_axis(largest
// value).max (viz/bar_chart.h). Values that are negative, NaN or infinite give no column;
// values above the axis max are drawn at full height.
#include <cstddef>
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

struct StripChartOptions {
    std::string title;       // e.g. "tensor pipe"; "" for none
    std::string value_text;  // after the title, e.g. "45.6 %"; "" for none
    std::string unit;        // after the axis max, e.g. "%"; "" for none
    double fixed_max = 0;    // > 0: the axis max; else from the values
    // Columns the plot holds; only the newest `capacity` values are drawn, right-aligned, so a
    // chart that is not yet full fills in from the right. 0: one column per value.
    std::size_t capacity = 0;
    float width = 240.0f;       // of the plot, pixels
    float plot_height = 48.0f;  // pixels
    float text_size = 13.0f;
    int category = 0;                  // column fill: category_colour(palette, category)
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

// Builds the chart from `values`, oldest first. Column j of the drawn values (0 = oldest drawn)
// has DrawRect::hit j + (values.size() - drawn columns), i.e. its index in `values`; the frame has
// hit -1. Example: capacity 4, values {1, 2, 3, 4, 5, 6} -> columns for 3, 4, 5, 6 (hits 2..5).
DrawList strip_chart(const std::vector<double>& values, const StripChartOptions& options);

// The axis max strip_chart uses for `values` under `options`.
double strip_chart_max(const std::vector<double>& values, const StripChartOptions& options);

}  // namespace tclens::viz
