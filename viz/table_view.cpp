#include "viz/table_view.h"

#include <algorithm>
#include <cmath>

#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kCellPadding = 8.0f;  // each side of a column's text
constexpr float kSectionGap = 8.0f;   // above a section heading

}  // namespace

Rgba label_colour(const Palette& palette) { return mix(palette.text, palette.background, 0.3f); }

DrawList table_view(const std::vector<TableSection>& sections, const TableViewOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float size = options.text_size;
    const float row_h = std::max(options.row_height, size);
    const float text_dy = std::round((row_h - size) * 0.5f);
    DrawListBuilder b(palette);

    std::size_t label_chars = 0, value_chars = 0, heading_chars = options.title.size();
    for (const TableSection& section : sections) {
        heading_chars = std::max(heading_chars, section.heading.size());
        for (const TableRow& row : section.rows) {
            label_chars = std::max(label_chars, row.label.size());
            value_chars = std::max(value_chars, row.value.size());
        }
    }
    const float label_w = text_width(label_chars, size) + 2 * kCellPadding;
    const float value_w = text_width(value_chars, size) + 2 * kCellPadding;
    const float table_w = label_w + 1.0f + value_w;
    const float width = std::max(table_w, text_width(heading_chars, size));

    float y = kMargin;
    if (!options.title.empty()) {
        b.text(kMargin, y, size, palette.text, TextAlign::kLeft, options.title);
        y += size + kSectionGap;
    }
    const Rgba stripe = with_alpha(palette.text, kTableStripeAlpha);
    const Rgba divider = with_alpha(palette.text, kTableDividerAlpha);
    const Rgba label = label_colour(palette);
    for (std::size_t s = 0; s < sections.size(); ++s) {
        const TableSection& section = sections[s];
        if (s > 0) y += kSectionGap;
        if (!section.heading.empty()) {
            b.text(kMargin, y, size, palette.text, TextAlign::kLeft, section.heading);
            y += size + 4.0f;
        }
        const float top = y;
        for (std::size_t r = 0; r < section.rows.size(); ++r) {
            if (r % 2 == 1) {
                b.rect(kMargin, y, table_w, row_h, stripe);
            }
            const TableRow& row = section.rows[r];
            b.text(kMargin + kCellPadding, y + text_dy, size, label, TextAlign::kLeft, row.label);
            b.text(kMargin + label_w + 1.0f + kCellPadding, y + text_dy, size, palette.text,
                   TextAlign::kLeft, row.value);
            y += row_h;
        }
        if (y > top) {
            b.rect(kMargin + label_w, top, 1.0f, y - top, divider);
        }
    }
    b.draw().width = std::ceil(kMargin + width + kMargin);
    b.draw().height = std::ceil(y + kMargin);
    return b.take();
}

}  // namespace tclens::viz
