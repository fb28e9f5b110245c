#include "viz/compare_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kColumnGap = 18.0f;  // between columns
constexpr float kCellGap = 6.0f;     // value text to delta area, bar area to delta text
constexpr std::uint8_t kBandAlpha = 60;
constexpr size_t kDeltaChars = 7;  // "+100.0%": the delta area is at least this wide

double value_at(const CompareRow& row, size_t column) {
    return column < row.values.size() ? row.values[column]
                                      : std::numeric_limits<double>::quiet_NaN();
}

const std::string& text_at(const CompareRow& row, size_t column) {
    static const std::string none;
    return column < row.texts.size() ? row.texts[column] : none;
}

int change_category(Change change, const CompareTableOptions& options) {
    if (change == Change::kBetter) return options.better_category;
    if (change == Change::kWorse) return options.worse_category;
    return options.neutral_category;
}

}  // namespace

double delta_pct(double baseline, double value) {
    if (!std::isfinite(baseline) || !std::isfinite(value) || baseline == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return 100.0 * (value - baseline) / std::fabs(baseline);
}

std::string delta_text(double pct) {
    if (std::isnan(pct)) return "";
    char text[32];
    std::snprintf(text, sizeof text, std::fabs(pct) < 999.95 ? "%+.1f%%" : "%+.0f%%", pct);
    return text;
}

Change judge_change(Better better, double pct) {
    if (std::isnan(pct) || pct == 0) return Change::kNone;
    if (better == Better::kNeither) return Change::kNeutral;
    return (better == Better::kHigher) == (pct > 0) ? Change::kBetter : Change::kWorse;
}

DrawList compare_table(const std::vector<CompareColumn>& columns,
                       const std::vector<CompareRow>& rows, const CompareTableOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float size = options.text_size;
    const float swatch = size - 2.0f;
    const float line_h = size + 8.0f;
    DrawListBuilder b(palette);

    // Column widths: the label column, then per run its value texts (and delta area) or its
    // header, whichever is wider.
    const std::string metric_header = "metric";
    size_t label_chars = metric_header.size();
    for (const CompareRow& row : rows) label_chars = std::max(label_chars, row.label.size());
    const float label_w = text_width(label_chars, size);
    std::vector<float> value_w(columns.size(), 0.0f), column_w(columns.size(), 0.0f);
    for (size_t c = 0; c < columns.size(); ++c) {
        size_t delta_chars = kDeltaChars;
        for (const CompareRow& row : rows) {
            value_w[c] = std::max(value_w[c], text_width(text_at(row, c).size(), size));
            delta_chars = std::max(
                delta_chars, delta_text(delta_pct(value_at(row, 0), value_at(row, c))).size());
        }
        float cell = value_w[c];
        if (c > 0) {
            cell += kCellGap + 2 * options.bar_half_px + 1.0f + kCellGap +
                    text_width(delta_chars, size);
        }
        const std::string subtitle = columns[c].subtitle + (c == 0 ? " (baseline)" : "");
        const float header = std::max(
            {swatch + kSwatchLabelGap + text_width(columns[c].title.size(), size),
             text_width(subtitle.size(), size), text_width(columns[c].source.size(), size)});
        column_w[c] = std::max(cell, header);
    }
    std::vector<float> column_x(columns.size(), 0.0f);
    float x = kMargin + label_w;
    for (size_t c = 0; c < columns.size(); ++c) {
        x += kColumnGap;
        column_x[c] = x;
        x += column_w[c];
    }
    const float table_right = x;

    float y = kMargin;
    float right = table_right;
    if (!options.title.empty()) {
        b.text(kMargin, y, size, palette.text, TextAlign::kLeft, options.title);
        right = std::max(right, kMargin + text_width(options.title.size(), size));
        y += size + 8.0f;
    }
    b.text(kMargin, y, size, palette.text, TextAlign::kLeft, metric_header);
    for (size_t c = 0; c < columns.size(); ++c) {
        b.rect(column_x[c], y + 1.0f, swatch, swatch,
               category_colour(palette, columns[c].category));
        b.swatch_label(column_x[c], y, swatch, size, columns[c].title);
        b.text(column_x[c], y + size + 3.0f, size, palette.text, TextAlign::kLeft,
               columns[c].subtitle + (c == 0 ? " (baseline)" : ""));
        if (!columns[c].source.empty()) {
            b.text(column_x[c], y + 2 * (size + 3.0f), size, palette.text, TextAlign::kLeft,
                   columns[c].source);
        }
    }
    const bool sources =
        std::any_of(columns.begin(), columns.end(),
                    [](const CompareColumn& column) { return !column.source.empty(); });
    y += (sources ? 3 * size + 3.0f : 2 * size) + 8.0f;
    b.rect(kMargin, y, table_right - kMargin, 1.0f, palette.grid);
    y += 3.0f;

    const Rgba band = with_alpha(palette.grid, kBandAlpha);
    for (size_t r = 0; r < rows.size(); ++r) {
        const CompareRow& row = rows[r];
        if (r % 2 == 1) {
            b.rect(kMargin, y, table_right - kMargin, line_h, band);
        }
        const float text_y = y + (line_h - size) / 2;
        b.text(kMargin, text_y, size, palette.text, TextAlign::kLeft, row.label);
        const double baseline = value_at(row, 0);
        for (size_t c = 0; c < columns.size(); ++c) {
            b.text(column_x[c], text_y, size, palette.text, TextAlign::kLeft, text_at(row, c));
            if (c == 0) continue;
            const float centre = column_x[c] + value_w[c] + kCellGap + options.bar_half_px;
            b.rect(centre, y + 2.0f, 1.0f, line_h - 4.0f, palette.grid);
            const double pct = delta_pct(baseline, value_at(row, c));
            const Change change = judge_change(row.better, pct);
            if (change != Change::kNone) {
                const double scale = std::min(std::fabs(pct) / options.full_scale_pct, 1.0);
                const float length = float(scale) * options.bar_half_px;
                const float bar_x = pct > 0 ? centre + 1.0f : centre - length;
                b.rect(bar_x, text_y + 2.0f, length, size - 4.0f,
                       category_colour(palette, change_category(change, options)), kTransparent,
                       0.0f, int(r * columns.size() + c));
            }
            const std::string delta = delta_text(pct);
            if (!delta.empty()) {
                b.text(centre + options.bar_half_px + 1.0f + kCellGap, text_y, size, palette.text,
                       TextAlign::kLeft, delta);
            }
        }
        y += line_h;
    }
    b.draw().width = std::ceil(right + kMargin);
    b.draw().height = std::ceil(y + kMargin);
    return b.take();
}

}  // namespace tclens::viz
