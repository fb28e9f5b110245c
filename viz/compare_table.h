#pragma once
// Runs side by side as draw records (viz/draw_list.h): one column per run, one row per metric,
// and in every column after the first the change from the first column (the baseline) in %,
// with a bar. The Compare panel paints it with ImDrawList and exports the same records to SVG
// and PNG.
//
// What is drawn, top to bottom:
//   - The title (when not empty), in palette.text.
//   - Two header lines: "metric" over the label column; per run a swatch of
//     category_colour(palette, column.category), then column.title; under it column.subtitle
//     ("(baseline)" appended in the first column); under that column.source where any column has
//     one (runs of several recordings: "H100 80GB HBM3, 2026-11-22"). A grid line under the
//     header.
//   - One line per row: the row's label (left column), then per run its text (row.texts[c]).
//     Every run after the first also has a delta area: a 1 px centre tick in palette.grid, a bar
//     from the tick, to the right for an increase and to the left for a decrease,
//     |delta| / options.full_scale_pct x options.bar_half_px long (capped at bar_half_px), then
//     the delta text ("+12.3%"). The bar's fill says whether the change is good for that metric:
//     better_category when the value moved the way row.better says is better, worse_category
//     when it moved the other way, neutral_category when the row has no better direction.
//     Every other line has a band of palette.grid at low alpha behind it.
// A delta exists only where both values are finite and the baseline is not 0; elsewhere the
// delta area is empty.
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

struct CompareColumn {
    std::string title;        // e.g. "wgmma_persistent.f16"
    std::string subtitle;     // e.g. "4096x4096x4096"
    int category = 0;         // swatch: category_colour(palette, category)
    std::string source = "";  // where the run comes from ("H100 80GB HBM3, 2026-11-22"), or ""
};

// Which way of a metric's change is an improvement.
enum class Better { kHigher, kLower, kNeither };

struct CompareRow {
    std::string label;  // e.g. "TFLOP/s", "DRAM read (bytes)"
    Better better = Better::kNeither;
    std::vector<double> values;      // one per column; NaN where the run has no value
    std::vector<std::string> texts;  // one per column, as shown, e.g. "612.4" or "-"
};

// 100 x (value - baseline) / |baseline|; NaN when either is not finite or baseline is 0.
// Example: baseline 400, value 500 -> +25; baseline -2, value -1 -> +50.
double delta_pct(double baseline, double value);

// "+25.0%", "-3.1%", "+0.0%"; whole percent from 1000% on ("+1234%"); "" for NaN.
std::string delta_text(double pct);

enum class Change { kNone, kBetter, kWorse, kNeutral };

// What a delta means for a metric: kNone for NaN or 0; kNeutral when better is kNeither; else
// kBetter when the sign matches (kHigher and > 0, kLower and < 0), kWorse otherwise.
Change judge_change(Better better, double pct);

struct CompareTableOptions {
    std::string title;            // "" for none
    float bar_half_px = 40.0f;    // bar length at full scale, each side of the centre tick
    double full_scale_pct = 100;  // |delta| that fills bar_half_px; larger deltas are capped
    float text_size = 13.0f;
    int better_category = 2;   // palette category of an improvement (green in dark_palette())
    int worse_category = 3;    // of a regression (red in dark_palette())
    int neutral_category = 7;  // of a change with no better direction (grey in dark_palette())
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

// Builds the table. The bar of row r in column c has DrawRect::hit r x columns.size() + c;
// everything else has hit -1. Rows with fewer values or texts than columns are read as NaN
// and "" where they lack them.
DrawList compare_table(const std::vector<CompareColumn>& columns,
                       const std::vector<CompareRow>& rows, const CompareTableOptions& options);

}  // namespace tclens::viz
