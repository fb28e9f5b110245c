#include "viz/card_grid.h"

#include <algorithm>
#include <cmath>

#include "viz/table_view.h"
#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

// Label, value and chart, stacked inside the padding.
float card_content_height(const Card& card, const CardGridOptions& options) {
    return options.text_size + 4.0f + options.value_size + 6.0f + card.chart.height;
}

}  // namespace

void place(DrawList& into, const DrawList& part, float x, float y, bool keep_hits) {
    if (part.background.a > 0 && part.width > 0 && part.height > 0) {
        into.rects.push_back(
            {x, y, part.width, part.height, part.background, kTransparent, 0.0f, -1});
    }
    for (DrawRect rect : part.rects) {
        rect.x += x;
        rect.y += y;
        if (!keep_hits) rect.hit = -1;
        into.rects.push_back(rect);
    }
    for (DrawLine line : part.lines) {
        line.x0 += x;
        line.x1 += x;
        line.y0 += y;
        line.y1 += y;
        into.lines.push_back(line);
    }
    for (DrawText text : part.texts) {
        text.x += x;
        text.y += y;
        into.texts.push_back(std::move(text));
    }
}

DrawList card_grid(const std::vector<Card>& cards, const CardGridOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const std::size_t per_row = static_cast<std::size_t>(std::max(1, options.per_row));
    const float pad = options.padding;
    DrawListBuilder b(palette);
    const Rgba fill = with_alpha(palette.text, kCardFillAlpha);
    const Rgba outline = with_alpha(palette.text, kCardOutlineAlpha);
    const Rgba label = label_colour(palette);

    float y = options.gap;
    float right = 0;
    for (std::size_t first = 0; first < cards.size(); first += per_row) {
        const std::size_t last = std::min(cards.size(), first + per_row);
        float content_h = 0;
        for (std::size_t i = first; i < last; ++i) {
            content_h = std::max(content_h, card_content_height(cards[i], options));
        }
        const float card_h = std::ceil(content_h + 2 * pad);
        for (std::size_t i = first; i < last; ++i) {
            const Card& card = cards[i];
            const float x =
                options.gap + static_cast<float>(i - first) * (options.card_width + options.gap);
            b.rect(x, y, options.card_width, card_h, fill, outline, 1.0f, static_cast<int>(i));
            float top = y + pad;
            b.text(x + pad, top, options.text_size, label, TextAlign::kLeft, card.label);
            top += options.text_size + 4.0f;
            b.text(x + pad, top, options.value_size, palette.text, TextAlign::kLeft,
                   card.value_text);
            top += options.value_size + 6.0f;
            place(b.draw(), card.chart, x + pad, top, false);
            right = std::max(right, x + options.card_width);
        }
        y += card_h + options.gap;
    }
    b.draw().width = cards.empty() ? 0.0f : std::ceil(right + options.gap);
    b.draw().height = cards.empty() ? 0.0f : std::ceil(y);
    return b.take();
}

DrawList stack_vertically(const std::vector<DrawList>& parts, float gap, Rgba background) {
    DrawList draw;
    draw.background = background;
    float y = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) y += gap;
        place(draw, parts[i], 0.0f, y, false);
        y += parts[i].height;
        draw.width = std::max(draw.width, parts[i].width);
    }
    draw.height = y;
    return draw;
}

}  // namespace tclens::viz
