#pragma once
// Draw records: what a view wants on screen, as plain data that every renderer paints the same
// way (ImDrawList in the GUI, viz/svg_export.h, viz/raster.h). Models become draw records in
// viz/ (e.g. viz/fragment_view.h); renderers know nothing about models.
//
// Painting contract, shared by all renderers:
//   - Coordinates are pixels, x right, y down, origin at the top-left of a width x height canvas.
//   - The canvas is filled with `background`, then every rect in order, then every line, then
//     every text in order (so texts are always above rects and lines).
//   - A rect's fill covers [x, x + w) x [y, y + h). Its stroke is drawn *inside* that area, a
//     band `stroke_width` wide along the four edges, over the fill; neighbouring rects therefore
//     never paint over each other's outline. A renderer whose API centres strokes on the path
//     (SVG, ImDrawList::AddRect) insets the outline by stroke_width / 2.
//   - Alpha 0 means "not drawn": a fill with a == 0 leaves what is below visible, a stroke with
//     a == 0 or stroke_width <= 0 draws no outline. Other alphas blend over what is below.
//   - A line is a band `width` wide centred on the segment (x0, y0)-(x1, y1).
//   - A text is one line. `size` is its line height in pixels; the glyphs fit inside
//     [y, y + size). kLeft: (x, y) is the top-left corner; kCenter: (x, y) is the top-centre.
//     Text is ASCII; renderers show other bytes as '?'.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tclens::viz {

struct Rgba {
    std::uint8_t r, g, b, a;
};

inline bool operator==(const Rgba& x, const Rgba& y) {
    return x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a;
}
inline bool operator!=(const Rgba& x, const Rgba& y) { return !(x == y); }

inline constexpr Rgba kTransparent{0, 0, 0, 0};  // "not drawn" (see the painting contract)

// x at t = 0, y at t = 1, channel by channel.
inline Rgba mix(Rgba x, Rgba y, float t) {
    auto channel = [t](std::uint8_t a, std::uint8_t b) {
        return static_cast<std::uint8_t>(std::lround(a + (b - a) * t));
    };
    return {channel(x.r, y.r), channel(x.g, y.g), channel(x.b, y.b), channel(x.a, y.a)};
}

// Width of `chars` characters at line height `size`, for layout only: a little wider than
// stb_easy_font (0.5 size), ImGui's default font (0.54) and common monospace SVG fonts (0.6).
// Whole pixels, so that blocks placed after a text start on pixel edges.
inline float text_width(std::size_t chars, float size) {
    return std::ceil(0.62f * size * static_cast<float>(chars));
}

// `colour` at opacity `alpha`.
inline Rgba with_alpha(Rgba colour, std::uint8_t alpha) {
    colour.a = alpha;
    return colour;
}

enum class TextAlign { kLeft, kCenter };

struct DrawRect {
    float x, y, w, h;
    Rgba fill;
    Rgba stroke;
    float stroke_width;
    int hit;  // caller-defined index for hover/click (e.g. into FragmentView::hits), -1 for none
};

// A straight line from (x0, y0) to (x1, y1), `width` wide, centred on it. Drawn over the rects
// and under the texts.
struct DrawLine {
    float x0, y0, x1, y1;
    Rgba colour;
    float width;
};

struct DrawText {
    float x, y, size;
    Rgba colour;
    TextAlign align;
    std::string text;
};

struct DrawList {
    float width = 0, height = 0;
    Rgba background{0, 0, 0, 255};
    std::vector<DrawRect> rects;
    std::vector<DrawLine> lines;
    std::vector<DrawText> texts;
};

}  // namespace tclens::viz
