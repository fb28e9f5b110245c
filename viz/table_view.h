#pragma once
// A label/value table as draw records (viz/draw_list.h): the Device panel paints it with
// ImDrawList and exports the same records to SVG and PNG.
//
// What is drawn, top to bottom:
//   - The title (when not empty), in palette.text.
//   - Per section: its heading (when not empty) in palette.text, then one row per (label,
//     value), row_height tall. Every second row of a section (the 2nd, 4th ...) is striped with
//     palette.text at kTableStripeAlpha over the background. The label sits left-aligned in a
//     column as wide as the longest label of the whole table, in label_colour(palette); the
//     value right of it, after a 1-pixel divider (palette.text at kTableDividerAlpha), in
//     palette.text.
// Texts are vertically centred in their rows. Rects carry hit -1: a table has no hover targets.
#include <cstdint>
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

struct TableRow {
    std::string label;  // e.g. "SMs"
    std::string value;  // e.g. "132"
};

struct TableSection {
    std::string heading;  // e.g. "GPU 0"; "" for none
    std::vector<TableRow> rows;
};

struct TableViewOptions {
    std::string title;  // above the sections, e.g. the CUDA versions; "" for none
    float text_size = 13.0f;
    float row_height = 19.0f;          // pixels; at least text_size
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

inline constexpr std::uint8_t kTableStripeAlpha = 24;
inline constexpr std::uint8_t kTableDividerAlpha = 96;

// palette.text moved 30% of the way toward palette.background: labels read as secondary.
Rgba label_colour(const Palette& palette);

// Builds the table. An empty `sections` gives the title only (or an empty margin-sized canvas).
DrawList table_view(const std::vector<TableSection>& sections, const TableViewOptions& options);

}  // namespace tclens::viz
