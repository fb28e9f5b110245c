#pragma once
// Paints viz::DrawList records with ImGui's draw list: the on-screen twin of viz/svg_export and
// viz/raster, so the screen, SVG and PNG show the same picture.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "viz/draw_list.h"

namespace tclens::gui {

// Optional extra outline per hit id (e.g. the hovered lane, a mismatch in red), as RGBA.
using OutlineFor = std::function<std::optional<viz::Rgba>(int hit)>;

// Paints `draw` at the window's cursor, scaled by `zoom` times ui_zoom() (lecture_mode.h), and
// reserves its size so the window scrolls. Rects outside the visible area are skipped. Returns
// the hit id of the rect under the mouse, or -1.
int paint_draw_list(const viz::DrawList& draw, float zoom, const OutlineFor& outline = {});

// The `zoom` for paint_draw_list at which `draw` fills the space from the window's cursor to
// the bottom right of its content region (whichever of width and height runs out first), clamped
// to [lowest, highest]. 1 for an empty drawing.
float fit_zoom(const viz::DrawList& draw, float lowest, float highest);

// A drawing paint_draw_list painted in the last frame: the window it went into, where it was
// drawn and the part of the screen that window shows (its inner clip rectangle), in pixels
// [x, y, width, height], and the height in pixels of the smallest text painted in it (cell
// labels, axis ticks; 0 for none). The layout report (layout_report.h) lists them: a drawing
// that reaches past what its window shows is cut off (or must be scrolled to).
struct PaintedView {
    std::string window;
    float drawn[4];
    float visible[4];
    float smallest_text = 0;
};
const std::vector<PaintedView>& painted_views();
// While a frame is drawn: the drawings of the frame before it (the shell places a tour's caption
// by their shape, tour_overlay.h).
const std::vector<PaintedView>& painted_views_before();

}  // namespace tclens::gui
