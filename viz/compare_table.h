#pragma once
// Runs side by side as draw records (viz/draw_list.h): one column per run, one row per metric,
// and in every column after the first the change from the first column (the baseline) in %,
// with a bar. The Compare panel paints it with ImDrawList and exports the same records to SVG
// and PNG.
//
// Narrow enough for a projector: a column is headed by its run's short key ("A", "B" ...,
// column_key), not its name; the key under the table names each run in full. When all columns
// do not fit in options.max_width, they wrap into bands stacked top to bottom (column_bands),
// each band repeating the metric labels.
//
// What is drawn, top to bottom:
//   - The title (when not empty), in palette.text.
//   - Per band, two header lines: "metric" over the label column; per run a swatch of
//     category_colour(palette, column.category), then column_key(c); under the baseline's
//     "(baseline)". A grid line under the header.
//   - Per band, one row per metric, two lines tall: the row's label (left column); per run its
//     text (row.texts[c]) on the first line. Every run after the first also has a delta area on
//     the second line: a 1 px centre tick in palette.grid, a bar from the tick, to the right for
//     an increase and to the left for a decrease, |delta| / options.full_scale_pct x
//     options.bar_half_px long (capped at bar_half_px), then the delta text ("+12.3%", "same").
//     The bar's fill says whether the change is good for that metric: palette.better when the
//     value moved the way row.better says is better, palette.worse when it moved the other way,
//     palette.unjudged when the row has no better direction. Every other row has a band of
//     palette.grid at low alpha behind it.
//   - The key: per run a line with its swatch, column_key(c), column.title, column.subtitle
//     ("(baseline)" appended for the first) and, on a second line, column.source when it has one;
//     with more than one run, a last line naming the bars' colours: "bars:", a swatch and
//     "better", one and "worse", one and "no better direction".
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

// True when |pct| rounds to 0.0 at one decimal: the change reads as none.
bool same_value(double pct);

// "+25.0%", "-3.1%"; "same" when same_value(pct) (never "+0.0%"); whole percent from 1000% on
// ("+1234%"); "" for NaN.
std::string delta_text(double pct);

enum class Change { kNone, kBetter, kWorse, kNeutral };

// What a delta means for a metric: kNone for NaN or same_value(pct); kNeutral when better is
// kNeither; else kBetter when the sign matches (kHigher and > 0, kLower and < 0), kWorse otherwise.
Change judge_change(Better better, double pct);

struct CompareTableOptions {
    std::string title;            // "" for none
    float bar_half_px = 20.0f;    // bar length at full scale, each side of the centre tick
    double full_scale_pct = 100;  // |delta| that fills bar_half_px; larger deltas are capped
    float text_size = 13.0f;
    float max_width = 0;               // the drawing's widest; 0: one band of every column
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

// The short key of column `index`: "A" ... "Z", then "27", "28" ...
std::string column_key(size_t index);

// Wraps columns into bands no wider than `max_width`: `widths[i]` is column i's width (its gap
// included), `fixed` what every band repeats (margins, the label column). Greedy, in order;
// every band has at least one column, so a column too wide for any band gets one of its own.
// max_width <= 0: one band. Returns each band's first column ({} for no column).
// Example: widths {4, 4, 4}, fixed 2, max_width 10 -> {0, 2}.
std::vector<size_t> column_bands(const std::vector<float>& widths, float fixed, float max_width);

// Builds the table. The bar of row r in column c has DrawRect::hit r x columns.size() + c; the
// header of column c (swatch and key) a transparent rect with hit rows.size() x columns.size()
// + c, for a tooltip naming the run; everything else has hit -1. Rows with fewer values or texts
// than columns are read as NaN and "" where they lack them.
DrawList compare_table(const std::vector<CompareColumn>& columns,
                       const std::vector<CompareRow>& rows, const CompareTableOptions& options);

}  // namespace tclens::viz
