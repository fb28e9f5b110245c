#include "viz/error_map_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viz/fragment_layout.h"
#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kText = 14.0f;
constexpr float kLine = 20.0f;
constexpr float kHeatmapWidth = 512.0f;  // the heatmap's target width with options.cell = 0
constexpr float kSwatch = 14.0f;         // legend swatches

}  // namespace

int error_bucket(std::int64_t wrong, std::int64_t elements) {
    if (wrong >= elements) return 5;
    const double f =
        static_cast<double>(wrong) / static_cast<double>(std::max<std::int64_t>(1, elements));
    if (f <= 1.0 / 64) return 0;
    if (f <= 1.0 / 16) return 1;
    if (f <= 1.0 / 4) return 2;
    if (f <= 1.0 / 2) return 3;
    return 4;
}

std::string error_bucket_label(int bucket) {
    static const char* const kLabels[kErrorBuckets] = {"<=1/64", "<=1/16", "<=1/4",
                                                       "<=1/2",  "<all",   "all"};
    return kLabels[std::clamp(bucket, 0, kErrorBuckets - 1)];
}

namespace {

// The header lines: size and summary, then the pattern hint and the named bug where there are
// any. Returns the y below them and raises `width` to the widest.
float draw_header(DrawListBuilder& b, const ErrorMap& map, float& width) {
    std::vector<std::string> header = {"C " + std::to_string(map.rows) + " x " +
                                       std::to_string(map.cols) + ": " + error_map_summary(map)};
    for (const std::string& note : error_map_notes(map)) header.push_back(note);
    float y = kMargin;
    for (const std::string& line : header) {
        b.text(kMargin, y, kText, b.palette().text, TextAlign::kLeft, line);
        width = std::max(width, kMargin + text_width(line.size(), kText));
        y += kLine;
    }
    return y;
}

// The heatmap of `cell`-pixel cells under element offsets along its edges, every few cells as
// many as fit: one backdrop in the grid colour, then one rect per cell (a 1-pixel gap where
// cells are large enough to show it), NaN cells outlined. Returns the y below it and raises
// `width` past it.
float draw_heatmap(DrawListBuilder& b, const ErrorMap& map, const BankPalette& heat, float cell,
                   float y, float& width) {
    const Palette& palette = b.palette();
    const float label_w = text_width(std::to_string(map.rows).size(), kText * 0.8f) + 6.0f;
    const float left = kMargin + label_w;
    const float top = y + kLine;
    const int step = std::max(1, static_cast<int>(std::ceil(kLine * 2.5f / cell)));
    for (int gc = 0; gc < map.grid_cols; gc += step) {
        b.text(left + gc * cell, y, kText * 0.8f, palette.text, TextAlign::kLeft,
               std::to_string(static_cast<std::int64_t>(gc) * map.cell_cols));
    }
    for (int gr = 0; gr < map.grid_rows;
         gr += std::max(1, static_cast<int>(std::ceil(kLine / cell)))) {
        b.text(kMargin, top + gr * cell, kText * 0.8f, palette.text, TextAlign::kLeft,
               std::to_string(static_cast<std::int64_t>(gr) * map.cell_rows));
    }
    const float gap = cell >= 6 ? 1.0f : 0.0f;
    b.rect(left, top, map.grid_cols * cell, map.grid_rows * cell, palette.grid);
    for (int gr = 0; gr < map.grid_rows; ++gr) {
        for (int gc = 0; gc < map.grid_cols; ++gc) {
            const int index = gr * map.grid_cols + gc;
            const ErrorCell& c = map.cells[static_cast<std::size_t>(index)];
            const Rgba fill =
                c.wrong == 0
                    ? heat.idle
                    : heat.heat[static_cast<std::size_t>(error_bucket(c.wrong, c.elements))];
            const Rgba stroke = c.nan > 0 ? palette.highlight : kTransparent;
            b.rect(left + gc * cell, top + gr * cell, cell - gap, cell - gap, fill, stroke,
                   c.nan > 0 ? std::max(1.0f, cell / 6) : 0.0f, index);
        }
    }
    width = std::max(width, left + map.grid_cols * cell + kMargin);
    return top + map.grid_rows * cell + kLine * 0.5f;
}

// The legend: right cells, one swatch per bucket, the NaN outline; then what "wrong" means.
// Returns the y of that last line and raises `width` past both.
float draw_legend(DrawListBuilder& b, const ErrorMap& map, const BankPalette& heat, float y,
                  float& width) {
    const Palette& palette = b.palette();
    float x = kMargin;
    auto swatch = [&](Rgba fill, Rgba stroke, const std::string& label) {
        b.rect(x, y, kSwatch, kSwatch, fill, stroke, stroke.a ? 2.0f : 0.0f);
        x = b.swatch_label(x, y, kSwatch, kText * 0.9f, label) + 12.0f;
    };
    swatch(heat.idle, kTransparent, "right");
    for (int bucket = 0; bucket < kErrorBuckets; ++bucket) {
        swatch(heat.heat[static_cast<std::size_t>(bucket)], kTransparent,
               error_bucket_label(bucket) + " wrong");
    }
    swatch(heat.idle, palette.highlight, "has NaN");
    width = std::max(width, x);
    y += kLine;
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.3g", map.tolerance);
    const std::string tolerance = "wrong: NaN or |got - expected| > " + std::string(bound) +
                                  "; cell = " + std::to_string(map.cell_rows) + " x " +
                                  std::to_string(map.cell_cols) + " elements";
    b.text(kMargin, y, kText * 0.9f, palette.text, TextAlign::kLeft, tolerance);
    width = std::max(width, kMargin + text_width(tolerance.size(), kText * 0.9f));
    return y;
}

// The folded tile (map.folded) below the legend: one cell per place of the instruction's C tile,
// labelled with the lane and register that hold it ("T5", "c2"), filled by how many of the wrong
// tiles have that place wrong (the map's heat buckets over folded.wrong_tiles). Returns the y
// below it; nothing without a folded tile.
float draw_folded(DrawListBuilder& b, const ErrorMap& map, const BankPalette& heat, float y,
                  float& width) {
    const FoldedErrors& folded = map.folded;
    if (folded.rows == 0 || folded.wrong_tiles == 0) return y;
    std::vector<std::string> lane(folded.wrong.size()), reg(folded.wrong.size());
    const auto layout = fragment_layout(folded.layout_id);
    if (const OperandLayout* c = layout ? layout->find(Operand::C) : nullptr) {
        for (const LayoutElement& e : c->elements) {
            if (e.row >= folded.rows || e.col >= folded.cols) continue;
            const auto at = static_cast<std::size_t>(e.row * folded.cols + e.col);
            lane[at] = "T" + std::to_string(e.lane);
            reg[at] = "c" + std::to_string(e.reg);
        }
    }
    y += kLine * 1.5f;
    const std::string title = "folded onto one " + std::to_string(folded.rows) + "x" +
                              std::to_string(folded.cols) + " C tile of " + folded.layout_id +
                              ": in how many of the " + std::to_string(folded.wrong_tiles) +
                              " wrong tiles each place is wrong";
    b.text(kMargin, y, kText, b.palette().text, TextAlign::kLeft, title);
    width = std::max(width, kMargin + text_width(title.size(), kText));
    y += kLine;
    constexpr float kCellW = 40.0f, kCellH = 30.0f;
    for (int r = 0; r < folded.rows; ++r) {
        for (int c = 0; c < folded.cols; ++c) {
            const auto at = static_cast<std::size_t>(r * folded.cols + c);
            const std::int64_t wrong = folded.wrong[at];
            const Rgba fill =
                wrong == 0
                    ? heat.idle
                    : heat.heat[static_cast<std::size_t>(error_bucket(wrong, folded.wrong_tiles))];
            const float x = kMargin + c * kCellW, top = y + r * kCellH;
            b.rect(x, top, kCellW - 1.0f, kCellH - 1.0f, fill);
            b.cell_label(x, top, kCellW - 1.0f, kCellH - 1.0f, kText * 0.75f, fill,
                         {lane[at], reg[at]});
        }
    }
    width = std::max(width, kMargin + folded.cols * kCellW);
    return y + folded.rows * kCellH;
}

}  // namespace

ErrorMapView error_map_view(const ErrorMap& map, const ErrorMapViewOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const BankPalette& heat = options.heat ? *options.heat : dark_bank_palette();
    DrawListBuilder b(palette);
    float width = 0;
    float y = draw_header(b, map, width);
    const int side = std::max(map.grid_rows, map.grid_cols);
    const float cell = options.cell > 0
                           ? options.cell
                           : std::clamp(std::floor(kHeatmapWidth / std::max(1, side)), 3.0f, 48.0f);
    y = draw_heatmap(b, map, heat, cell, y, width);
    y = draw_legend(b, map, heat, y, width);
    y = draw_folded(b, map, heat, y, width);
    b.draw().width = std::ceil(width + kMargin);
    b.draw().height = std::ceil(y + kLine + kMargin);
    return {b.take()};
}

std::string error_cell_tooltip(const ErrorMap& map, int index) {
    if (index < 0 || index >= static_cast<int>(map.cells.size())) return "";
    const ErrorCell& c = map.cells[static_cast<std::size_t>(index)];
    const std::int64_t r0 = static_cast<std::int64_t>(index / map.grid_cols) * map.cell_rows;
    const std::int64_t c0 = static_cast<std::int64_t>(index % map.grid_cols) * map.cell_cols;
    const std::int64_t r1 = std::min(map.rows, r0 + map.cell_rows) - 1;
    const std::int64_t c1 = std::min(map.cols, c0 + map.cell_cols) - 1;
    auto span = [](std::int64_t a, std::int64_t b) {
        return a == b ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b);
    };
    return (r0 == r1 ? "row " : "rows ") + span(r0, r1) + (c0 == c1 ? ", col " : ", cols ") +
           span(c0, c1) + ": " + std::to_string(c.wrong) + " of " + std::to_string(c.elements) +
           " wrong (" + std::to_string(c.nan) + " NaN)";
}

}  // namespace tclens::viz
