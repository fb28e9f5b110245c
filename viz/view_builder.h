#pragma once
// The drawing steps every view and chart builder of viz/ shares (bank, fragment, tile map,
// error map and warp timeline views; roofline, bar, strip, table, compare and card charts): a
// DrawList in one palette, rects and texts appended to it with the extent they reach, labels
// centred in filled cells, grids of cells, legend labels, and the hover targets (hits) rects
// point to. Each builder's file keeps only its own drawing.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

// Pixels between a legend swatch and its label.
inline constexpr float kSwatchLabelGap = 4.0f;

// The lines between the cells of a grid, and the outline of a highlighted cell. Cells are
// drawn inset by `line` on their top and left over one backdrop rect in palette.grid, which
// shows between them as lines: one rect instead of an outline per cell keeps large grids (a
// wgmma m64n256 accumulator has 16,384 cells) cheap to paint.
struct CellGrid {
    float line = 0.0f;     // grid line width; 0: no lines
    float outline = 0.0f;  // width of a highlighted cell's outline
};

// The grid of `cell`-pixel cells: 1 px lines from 8 px cells up, outlines 12% of a cell (2 px
// at least). Example: cell 16 -> {1, 2}; cell 28 -> {1, 3}; cell 6 -> {0, 2}.
inline CellGrid cell_grid(float cell) {
    return {cell >= 8.0f ? 1.0f : 0.0f, std::max(2.0f, std::round(cell * 0.12f))};
}

// Appends rects, lines and texts to a DrawList whose background is palette.background.
class DrawListBuilder {
  public:
    explicit DrawListBuilder(const Palette& palette) : palette_(palette) {
        draw_.background = palette.background;
    }

    const Palette& palette() const { return palette_; }
    DrawList& draw() { return draw_; }

    void rect(float x, float y, float w, float h, Rgba fill, Rgba stroke = kTransparent,
              float stroke_width = 0.0f, int hit = -1) {
        draw_.rects.push_back({x, y, w, h, fill, stroke, stroke_width, hit});
        extend(x + w, y + h);
    }

    void text(float x, float y, float size, Rgba colour, TextAlign align, std::string text) {
        const float width = text_width(text.size(), size);
        extend(align == TextAlign::kLeft ? x + width : x + 0.5f * width, y + size);
        draw_.texts.push_back({x, y, size, colour, align, std::move(text)});
    }

    // `lines`, each `size` high, centred as a block in the w x h cell at (x, y), in whichever of
    // palette.text and palette.background reads better on `fill` (label_colour_on).
    void cell_label(float x, float y, float w, float h, float size, Rgba fill,
                    std::initializer_list<std::string> lines) {
        const Rgba colour = label_colour_on(palette_, fill);
        float line_y = y + 0.5f * (h - size * static_cast<float>(lines.size()));
        for (const std::string& line : lines) {
            text(x + 0.5f * w, line_y, size, colour, TextAlign::kCenter, line);
            line_y += size;
        }
    }

    // A legend label in palette.text, kSwatchLabelGap right of the `swatch`-pixel swatch at
    // x (drawn by the caller); returns the x where the label ends.
    float swatch_label(float x, float y, float swatch, float size, const std::string& label) {
        const float label_x = x + swatch + kSwatchLabelGap;
        text(label_x, y, size, palette_.text, TextAlign::kLeft, label);
        return label_x + text_width(label.size(), size);
    }

    // The backdrop of a w x h block of cells at (x, y), under cells drawn with grid_cell.
    void backdrop(const CellGrid& grid, float x, float y, float w, float h) {
        if (grid.line <= 0.0f) return;
        rect(x, y, w + grid.line, h + grid.line, palette_.grid);
    }

    // The w x h cell at (x, y) on a backdrop(), pointing at `hit`; outlined in `outline` when
    // that is opaque.
    void grid_cell(const CellGrid& grid, float x, float y, float w, float h, Rgba fill,
                   Rgba outline, int hit) {
        if (outline.a > 0) {
            rect(x, y, w + grid.line, h + grid.line, fill, outline, grid.outline, hit);
        } else {
            rect(x + grid.line, y + grid.line, w - grid.line, h - grid.line, fill, kTransparent,
                 0.0f, hit);
        }
    }

    // A straight `width`-wide line.
    void line(float x0, float y0, float x1, float y1, Rgba colour, float width) {
        extend(std::max(x0, x1), std::max(y0, y1));
        draw_.lines.push_back({x0, y0, x1, y1, colour, width});
    }

    // An arrow from (x0, y0) to (x1, y1): the shaft and a head of two `head`-long strokes.
    void arrow(float x0, float y0, float x1, float y1, Rgba colour, float width, float head) {
        line(x0, y0, x1, y1, colour, width);
        const float length = std::hypot(x1 - x0, y1 - y0);
        if (length <= 0.0f) return;
        const float ux = (x1 - x0) / length, uy = (y1 - y0) / length;  // along the shaft
        for (const float side : {-1.0f, 1.0f}) {  // 30 degrees either side of it, backwards
            const float hx = -ux * 0.866f - side * uy * 0.5f;
            const float hy = -uy * 0.866f + side * ux * 0.5f;
            line(x1, y1, x1 + head * hx, y1 + head * hy, colour, width);
        }
    }

    // How far right and down everything appended so far reaches (texts by text_width).
    float right() const { return right_; }
    float bottom() const { return bottom_; }

    DrawList take() { return std::move(draw_); }

  private:
    void extend(float x, float y) {
        right_ = std::max(right_, x);
        bottom_ = std::max(bottom_, y);
    }

    const Palette& palette_;
    DrawList draw_;
    float right_ = 0.0f;
    float bottom_ = 0.0f;
};

// A DrawListBuilder for a view whose rects point at hover targets of type Hit
// (DrawRect::hit indexes its hits).
template <typename Hit>
class ViewBuilder : public DrawListBuilder {
  public:
    using DrawListBuilder::DrawListBuilder;

    std::vector<Hit>& hits() { return hits_; }

    // Appends `hit`; returns its index, for DrawRect::hit.
    int hit(Hit hit) {
        hits_.push_back(std::move(hit));
        return static_cast<int>(hits_.size()) - 1;
    }

    // The view: `View` is a struct {DrawList draw; std::vector<Hit> hits;}.
    template <typename View>
    View take_view() {
        return View{DrawListBuilder::take(), std::move(hits_)};
    }

  private:
    std::vector<Hit> hits_;
};

}  // namespace tclens::viz
