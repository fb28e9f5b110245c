#pragma once
// Software rasteriser for DrawLists (painting contract in viz/draw_list.h), for PNG export and
// offscreen screenshots without a GPU. Rect edges are anti-aliased by exact area coverage.
// Text uses stb_easy_font (libstb-dev), a built-in vector bitmap font: no font files.
#include "viz/draw_list.h"
#include "viz/png_writer.h"

namespace tclens::viz {

// Paints `list` into an image of ceil(width * scale) x ceil(height * scale) pixels, every
// coordinate and size multiplied by `scale` (2 for a high-DPI export). An empty canvas or a
// scale <= 0 gives a 0 x 0 image. Pixels are written with alpha; blending is "source over".
RgbaImage rasterize(const DrawList& list, float scale = 1.0f);

}  // namespace tclens::viz
