#pragma once
// A view's drawing zoom (Fragments, Banks, Tile map): a factor the user picks, or "fit": the
// factor that makes the drawing fill the space left for it in its window, worked out again every
// frame (draw_list_painter.h: fit_zoom), so the view fills the screen above a tour's caption at
// any window size and lecture zoom. Settings "zoom=0.25..3" or "zoom=fit"; View > Fit view
// (Ctrl+F) turns fit on and off for the views on screen (Panel::view_zoom).

#include <string>
#include <string_view>

#include "viz/draw_list.h"

namespace tclens::gui {

class ViewZoom {
  public:
    ViewZoom(float lowest, float highest) : lowest_(lowest), highest_(highest) {}

    // "fit", or a number in [lowest, highest] (fit off). Returns "" or one line naming the value
    // and what is allowed: "zoom='9': allowed: 0.25..3 or fit".
    std::string apply_setting(std::string_view value);

    bool fit() const { return fit_; }
    void set_fit(bool fit) { fit_ = fit; }
    float factor() const { return factor_; }

    // The factor to paint `draw` with at the window's cursor: with fit, fit_zoom's (kept as the
    // factor, so turning fit off keeps the view as it is); else the picked one.
    float for_drawing(const viz::DrawList& draw);

    // The "zoom" slider, as wide as its largest value (item_width.h), and a "fit" checkbox
    // beside it.
    void draw_control();

  private:
    float lowest_;
    float highest_;
    float factor_ = 1.0f;
    bool fit_ = false;
};

}  // namespace tclens::gui
