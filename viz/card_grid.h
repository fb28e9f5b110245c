#pragma once
// Metric cards in a grid, and draw lists placed inside other draw lists (viz/draw_list.h): the
// Profile panel paints its cards and strip charts this way with ImDrawList and exports the same
// records to SVG and PNG.
//
// A card, card_width wide, left to right in rows of per_row cards, `gap` apart:
//   - a frame filled with palette.text at kCardFillAlpha, outlined 1 px in palette.text at
//     kCardOutlineAlpha, with DrawRect::hit = the card's index (hover one for its tooltip);
//   - inside it, `padding` from its edges, top to bottom: the label (label_colour(palette), see
//     viz/table_view.h), the value text at value_size in palette.text, then the card's chart
//     placed as by place() with its hits dropped (so hovering the chart still finds the card).
// Every card in a row is as tall as the tallest in that row.
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

struct Card {
    std::string label;       // e.g. "tensor pipe"
    std::string value_text;  // e.g. "45.6 %"
    DrawList chart;          // e.g. a strip chart; an empty list (0 x 0) for none
};

struct CardGridOptions {
    float card_width = 250.0f;
    int per_row = 1;  // at least 1
    float gap = 8.0f;
    float padding = 8.0f;
    float text_size = 13.0f;
    float value_size = 18.0f;
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

inline constexpr std::uint8_t kCardFillAlpha = 14;
inline constexpr std::uint8_t kCardOutlineAlpha = 110;

DrawList card_grid(const std::vector<Card>& cards, const CardGridOptions& options);

// Appends `part` to `into` with its top-left corner at (x, y): its background as one rect
// (width x height, hit -1) unless transparent, then its rects, lines and texts, all moved by (x,
// y). With keep_hits false the appended rects get hit -1. `into`'s size is not changed.
void place(DrawList& into, const DrawList& part, float x, float y, bool keep_hits);

// The parts one below the other, left-aligned, `gap` apart, on `background`; each part keeps
// its own background. Hits are dropped. Width: the widest part; no parts: 0 x 0.
DrawList stack_vertically(const std::vector<DrawList>& parts, float gap, Rgba background);

}  // namespace tclens::viz
