#pragma once
// The error map drawn as draw records (viz/draw_list.h), for the GUI and for
// `--error-map out.png|out.svg` (the same records go to viz/svg_export.h and viz/raster.h).
//
// Top to bottom: a title ("C 4096 x 4096: 1024 of 16777216 elements wrong, per block tile
// 128x128"), the first wrong element ("first wrong C[17][3]: expected 1.25, got -0.5"), the
// pattern hint when there is one, then the heatmap: one square cell per map cell, filled with
// `ok` when no element of it is wrong, else with heat[bucket] of its wrong fraction (buckets:
// up to 1/64, 1/16, 1/4, 1/2, under 1, all), cells with NaN outlined in palette.highlight; row
// and column element offsets every few cells along the left and top edges; then the legend
// (one swatch per bucket, labelled, and the NaN outline); then, when the map carries one, the
// wrong elements folded onto the instruction's C tile, each place labelled with the lane and
// register that hold it.

#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/error_map.h"
#include "viz/palette.h"

namespace tclens::viz {

inline constexpr int kErrorBuckets = 6;

// wrong / elements -> 0..5 as above; precondition wrong > 0.
int error_bucket(std::int64_t wrong, std::int64_t elements);
// "<=1/64", "<=1/16", "<=1/4", "<=1/2", "<all", "all".
std::string error_bucket_label(int bucket);

struct ErrorMapViewOptions {
    float cell = 0;  // pixels per cell; 0: chosen so the heatmap is about 512 pixels wide
    const Palette* palette = nullptr;   // nullptr: dark_palette()
    const BankPalette* heat = nullptr;  // its heat ramp; nullptr: dark_bank_palette()
};

struct ErrorMapView {
    DrawList draw;
    // DrawRect::hit of a heatmap cell is its index into ErrorMap::cells; other rects have -1.
};

ErrorMapView error_map_view(const ErrorMap& map, const ErrorMapViewOptions& options);

// Tooltip of cell `index`: "rows 128-255, cols 0-127: 12 of 16384 wrong (0 NaN)".
std::string error_cell_tooltip(const ErrorMap& map, int index);

}  // namespace tclens::viz
