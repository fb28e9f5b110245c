#pragma once
// A horizontal bar chart as draw records (viz/draw_list.h): the Kernels panel paints it with
// ImDrawList and exports the same records to SVG and PNG.
//
// What is drawn, top to bottom:
//   - The title (when not empty), in palette.text.
//   - The legend (when BarChartOptions::legend is not empty): per entry a swatch of its fill and
//     its label, left to right, wrapping to a new line where the next entry would reach past the
//     end of the bar area.
//   - One row per bar, in the given order: the label, left-aligned in a column as wide as the
//     longest label, in palette.text; the bar from the axis origin, value / axis.max of
//     BarChartOptions::bar_area long, filled with bar_fill(options, palette, category); then
//     value_text just right of the bar's end, in palette.text.
//   - Behind the bars, a vertical grid line in palette.grid at every tick of nice_axis(largest
//     value); below the last row the tick values ("0", "200", "400" ...) centred under their
//     lines, and the axis label right of the last one.
// Fills: bar_fill(options, palette, category): options.fills[category mod size], or
// category_colour(palette, category) when options.fills is empty.
// Values that are negative, NaN or infinite are drawn as 0: no bar, label and value text stay.
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

struct Bar {
    std::string label;       // left of the bar, e.g. "mma_cp_async.f16"
    double value = 0;        // bar length in axis units, e.g. TFLOP/s
    std::string value_text;  // right of the bar's end, e.g. "612.4 TFLOP/s, 91% of cuBLAS"
    int category = 0;        // fill: bar_fill(options, palette, category)
};

// What one bar colour means, e.g. {"f16", 2}.
struct LegendEntry {
    std::string label;
    int category = 0;  // the fill of bars of this category
};

struct BarChartOptions {
    std::string title;        // above the bars; "" for none
    std::string axis_label;   // after the tick values, e.g. "TFLOP/s"; "" for none
    float bar_area = 360.0f;  // pixels from the axis origin to scale_max
    float bar_height = 18.0f;
    float gap = 6.0f;  // between bars
    float text_size = 13.0f;
    std::vector<Rgba> fills;           // by Bar::category, e.g. palette.precisions; {}: categories
    std::vector<LegendEntry> legend;   // {}: none
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

// options.fills[category mod size], or category_colour(palette, category) when fills is empty.
Rgba bar_fill(const BarChartOptions& options, const Palette& palette, int category);

// Builds the chart. Bar i's rect has DrawRect::hit i (a bar drawn as 0 has no rect); grid lines
// and legend swatches have hit -1. An empty `bars` gives the title and a 0..1 axis only.
DrawList bar_chart(const std::vector<Bar>& bars, const BarChartOptions& options);

struct AxisScale {
    double step = 1;  // between ticks: 1, 2 or 5 x 10^k
    double max = 1;   // the last tick, a whole number of steps
};

// max_value -> (step, max): step is the smallest 1, 2 or 5 x 10^k that is >= max_value / 5, max
// the first multiple of step >= max_value (at least one step), so there are at most 5 steps
// and the longest bar ends on or before the last grid line. max_value <= 0 or not finite
// -> (1, 1). Worked example: 612.4 -> step 200 (>= 122.5), max 800; 200 -> (50, 200).
AxisScale nice_axis(double max_value);

}  // namespace tclens::viz
