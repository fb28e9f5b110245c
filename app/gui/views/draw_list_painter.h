#pragma once
// Paints viz::DrawList records with ImGui's draw list: the on-screen twin of viz/svg_export and
// viz/raster, so the screen, SVG and PNG show the same picture.

#include <cstdint>
#include <functional>
#include <optional>

#include "viz/draw_list.h"

namespace tclens::gui {

// Optional extra outline per hit id (e.g. the hovered lane, a mismatch in red), as RGBA.
using OutlineFor = std::function<std::optional<viz::Rgba>(int hit)>;

// Paints `draw` at the window's cursor, scaled by `zoom` times ui_zoom() (lecture_mode.h), and
// reserves its size so the window scrolls. Rects outside the visible area are skipped. Returns
// the hit id of the rect under the mouse, or -1.
int paint_draw_list(const viz::DrawList& draw, float zoom, const OutlineFor& outline = {});

}  // namespace tclens::gui
