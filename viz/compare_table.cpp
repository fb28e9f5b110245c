#include "viz/compare_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kColumnGap = 14.0f;  // between columns
constexpr float kCellGap = 6.0f;     // value text to delta area, bar area to delta text
constexpr std::uint8_t kBandAlpha = 60;
constexpr size_t kDeltaChars = 7;  // "+100.0%": the delta area is at least this wide
const std::string kMetricHeader = "metric";
const std::string kBaseline = "(baseline)";

double value_at(const CompareRow& row, size_t column) {
    return column < row.values.size() ? row.values[column]
                                      : std::numeric_limits<double>::quiet_NaN();
}

const std::string& text_at(const CompareRow& row, size_t column) {
    static const std::string none;
    return column < row.texts.size() ? row.texts[column] : none;
}

const Rgba& change_colour(Change change, const Palette& palette) {
    if (change == Change::kBetter) return palette.better;
    if (change == Change::kWorse) return palette.worse;
    return palette.unjudged;
}

}  // namespace

double delta_pct(double baseline, double value) {
    if (!std::isfinite(baseline) || !std::isfinite(value) || baseline == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return 100.0 * (value - baseline) / std::fabs(baseline);
}

bool same_value(double pct) { return std::fabs(pct) < 0.05; }

std::string delta_text(double pct) {
    if (std::isnan(pct)) return "";
    if (same_value(pct)) return "same";
    char text[32];
    std::snprintf(text, sizeof text, std::fabs(pct) < 999.95 ? "%+.1f%%" : "%+.0f%%", pct);
    return text;
}

Change judge_change(Better better, double pct) {
    if (std::isnan(pct) || same_value(pct)) return Change::kNone;
    if (better == Better::kNeither) return Change::kNeutral;
    return (better == Better::kHigher) == (pct > 0) ? Change::kBetter : Change::kWorse;
}

std::string column_key(size_t index) {
    return index < 26 ? std::string(1, char('A' + index)) : std::to_string(index + 1);
}

std::vector<size_t> column_bands(const std::vector<float>& widths, float fixed, float max_width) {
    std::vector<size_t> starts;
    float used = 0;
    for (size_t i = 0; i < widths.size(); ++i) {
        if (starts.empty() || (max_width > 0 && used + widths[i] > max_width)) {
            starts.push_back(i);
            used = fixed;
        }
        used += widths[i];
    }
    return starts;
}

namespace {

// Where everything of the table goes, measured before anything is drawn.
struct TableLayout {
    float size = 0, swatch = 0, line_h = 0, row_h = 0, label_w = 0;
    std::vector<float> column_w;  // per column, its gap not included
    std::vector<size_t> bands;    // each band's first column
};

TableLayout measure(const std::vector<CompareColumn>& columns, const std::vector<CompareRow>& rows,
                    const CompareTableOptions& options) {
    TableLayout l;
    l.size = options.text_size;
    l.swatch = l.size - 2.0f;
    l.line_h = l.size + 4.0f;
    l.row_h = 2 * l.line_h + 4.0f;
    size_t label_chars = kMetricHeader.size();
    for (const CompareRow& row : rows) label_chars = std::max(label_chars, row.label.size());
    l.label_w = text_width(label_chars, l.size);
    std::vector<float> widths;
    for (size_t c = 0; c < columns.size(); ++c) {
        size_t delta_chars = kDeltaChars;
        float value_w = 0;
        for (const CompareRow& row : rows) {
            value_w = std::max(value_w, text_width(text_at(row, c).size(), l.size));
            delta_chars = std::max(
                delta_chars, delta_text(delta_pct(value_at(row, 0), value_at(row, c))).size());
        }
        const float delta_w =
            c > 0 ? 2 * options.bar_half_px + 1.0f + kCellGap + text_width(delta_chars, l.size)
                  : 0.0f;
        const float header_w =
            std::max(l.swatch + kSwatchLabelGap + text_width(column_key(c).size(), l.size),
                     c == 0 ? text_width(kBaseline.size(), l.size) : 0.0f);
        l.column_w.push_back(std::max({value_w, delta_w, header_w}));
        widths.push_back(kColumnGap + l.column_w.back());
    }
    l.bands = column_bands(widths, 2 * kMargin + l.label_w, options.max_width);
    return l;
}

// One band's header: "metric", each column's swatch and key (a hit rect over them), the
// baseline's "(baseline)", and the grid line under it. Returns the y below it.
float draw_header(DrawListBuilder& b, const TableLayout& l,
                  const std::vector<CompareColumn>& columns, const std::vector<float>& column_x,
                  size_t first, size_t end, float y, float table_right, int first_hit) {
    const Palette& palette = b.palette();
    b.text(kMargin, y, l.size, palette.text, TextAlign::kLeft, kMetricHeader);
    for (size_t c = first; c < end; ++c) {
        b.rect(column_x[c], y + 1.0f, l.swatch, l.swatch,
               category_colour(palette, columns[c].category));
        b.swatch_label(column_x[c], y, l.swatch, l.size, column_key(c));
        if (c == 0)
            b.text(column_x[c], y + l.line_h, l.size, palette.text, TextAlign::kLeft, kBaseline);
        b.rect(column_x[c], y, l.column_w[c], 2 * l.line_h, kTransparent, kTransparent, 0.0f,
               first_hit + int(c));
    }
    y += 2 * l.line_h + 4.0f;
    b.rect(kMargin, y, table_right - kMargin, 1.0f, palette.grid);
    return y + 3.0f;
}

// Column c's cell of `row` at (x, y): the value text, and after the baseline the delta area.
void draw_cell(DrawListBuilder& b, const TableLayout& l, const CompareRow& row, size_t c,
               size_t columns, size_t r, float x, float y, const CompareTableOptions& options) {
    const Palette& palette = b.palette();
    b.text(x, y + 2.0f, l.size, palette.text, TextAlign::kLeft, text_at(row, c));
    if (c == 0) return;
    const float delta_y = y + l.line_h;
    const float centre = x + options.bar_half_px;
    b.rect(centre, delta_y + 1.0f, 1.0f, l.line_h - 2.0f, palette.grid);
    const double pct = delta_pct(value_at(row, 0), value_at(row, c));
    const Change change = judge_change(row.better, pct);
    if (change != Change::kNone) {
        const double scale = std::min(std::fabs(pct) / options.full_scale_pct, 1.0);
        const float length = float(scale) * options.bar_half_px;
        const float bar_x = pct > 0 ? centre + 1.0f : centre - length;
        b.rect(bar_x, delta_y + 4.0f, length, l.size - 4.0f, change_colour(change, palette),
               kTransparent, 0.0f, int(r * columns + c));
    }
    b.text(centre + options.bar_half_px + 1.0f + kCellGap, delta_y + 2.0f, l.size, palette.text,
           TextAlign::kLeft, delta_text(pct));
}

// The key under the table: per run its swatch, key, name and size, and its source below.
float draw_key(DrawListBuilder& b, const TableLayout& l, const std::vector<CompareColumn>& columns,
               float y) {
    const Palette& palette = b.palette();
    const float key_w = text_width(column_key(columns.size()).size() + 1, l.size);
    for (size_t c = 0; c < columns.size(); ++c) {
        const CompareColumn& column = columns[c];
        b.rect(kMargin, y + 1.0f, l.swatch, l.swatch, category_colour(palette, column.category));
        const float x = b.swatch_label(kMargin, y, l.swatch, l.size, column_key(c));
        const float title_x = std::max(x, kMargin + l.swatch + kSwatchLabelGap + key_w);
        b.text(title_x, y, l.size, palette.text, TextAlign::kLeft, column.title);
        const float end = title_x + text_width(column.title.size(), l.size);
        b.text(end + kCellGap, y, l.size, palette.text, TextAlign::kLeft,
               column.subtitle + (c == 0 ? " " + kBaseline : ""));
        y += l.line_h;
        if (!column.source.empty()) {
            b.text(title_x, y, l.size, palette.text, TextAlign::kLeft, column.source);
            y += l.line_h;
        }
    }
    if (columns.size() < 2) return y;  // no deltas, no bars
    b.text(kMargin, y, l.size, palette.text, TextAlign::kLeft, "bars:");
    float x = kMargin + text_width(std::string("bars:").size(), l.size);
    for (const auto& [colour, word] :
         {std::pair{palette.better, "better"}, std::pair{palette.worse, "worse"},
          std::pair{palette.unjudged, "no better direction"}}) {
        b.rect(x + kCellGap, y + 1.0f, l.swatch, l.swatch, colour);
        x = b.swatch_label(x + kCellGap, y, l.swatch, l.size, word);
    }
    return y + l.line_h;
}

}  // namespace

DrawList compare_table(const std::vector<CompareColumn>& columns,
                       const std::vector<CompareRow>& rows, const CompareTableOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const TableLayout l = measure(columns, rows, options);
    DrawListBuilder b(palette);
    float y = kMargin;
    if (!options.title.empty()) {
        b.text(kMargin, y, l.size, palette.text, TextAlign::kLeft, options.title);
        y += l.size + 8.0f;
    }
    const Rgba band_fill = with_alpha(palette.grid, kBandAlpha);
    const int header_hit = int(rows.size() * columns.size());
    for (size_t band = 0; band < l.bands.size(); ++band) {
        const size_t first = l.bands[band];
        const size_t end = band + 1 < l.bands.size() ? l.bands[band + 1] : columns.size();
        std::vector<float> column_x(columns.size(), 0.0f);
        float x = kMargin + l.label_w;
        for (size_t c = first; c < end; ++c) {
            column_x[c] = x + kColumnGap;
            x = column_x[c] + l.column_w[c];
        }
        y = draw_header(b, l, columns, column_x, first, end, y, x, header_hit);
        for (size_t r = 0; r < rows.size(); ++r) {
            if (r % 2 == 1) b.rect(kMargin, y, x - kMargin, l.row_h, band_fill);
            b.text(kMargin, y + 2.0f, l.size, palette.text, TextAlign::kLeft, rows[r].label);
            for (size_t c = first; c < end; ++c) {
                draw_cell(b, l, rows[r], c, columns.size(), r, column_x[c], y, options);
            }
            y += l.row_h;
        }
        y += l.line_h;
    }
    y = draw_key(b, l, columns, y);
    b.draw().width = std::ceil(b.right() + kMargin);
    b.draw().height = std::ceil(std::max(y, b.bottom()) + kMargin);
    return b.take();
}

}  // namespace tclens::viz
