#include "viz/raster.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  // the header defines all helpers static
#endif
#include <stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace tclens::viz {

namespace {

// stb_easy_font lays out lines 12 units apart; a DrawText's size is its line height.
constexpr float kFontLineUnits = 12.0f;
// stb_easy_font_print emits 64 bytes per quad and at most a handful of quads per glyph.
constexpr size_t kVertexBytesPerChar = 1024;
constexpr int kStbVertexStride = 16;  // x, y, z floats + 4 colour bytes

class Canvas {
  public:
    Canvas(int width, int height, Rgba background)
        : image_{width, height, std::vector<std::uint8_t>(size_t(width) * height * 4)} {
        set_span(0, size_t(width) * height, background);
    }

    // Fills [x0, x1) x [y0, y1); partly covered pixels get colour.a scaled by their coverage.
    void fill(float x0, float y0, float x1, float y1, Rgba colour) {
        if (colour.a == 0) return;
        x0 = std::max(x0, 0.0f);
        y0 = std::max(y0, 0.0f);
        x1 = std::min(x1, static_cast<float>(image_.width));
        y1 = std::min(y1, static_cast<float>(image_.height));
        if (x0 >= x1 || y0 >= y1) return;
        const int px0 = static_cast<int>(std::floor(x0));
        const int py0 = static_cast<int>(std::floor(y0));
        const int px1 = static_cast<int>(std::ceil(x1));
        const int py1 = static_cast<int>(std::ceil(y1));
        // Columns [inner0, inner1) are fully covered horizontally.
        const int inner0 = static_cast<int>(std::ceil(x0));
        const int inner1 = std::max(inner0, static_cast<int>(std::floor(x1)));
        // Partly covered columns left and right of them (-1: none); one pixel wide rects
        // that start and end inside one column have only a left edge.
        const int left_edge = px0 < inner0 ? px0 : -1;
        const int right_edge = px1 - 1 >= inner1 && px1 - 1 != left_edge ? px1 - 1 : -1;
        const auto cover_x = [x0, x1](int px) {
            return std::min(x1, px + 1.0f) - std::max(x0, static_cast<float>(px));
        };
        const float left_cover = left_edge >= 0 ? cover_x(left_edge) : 0.0f;
        const float right_cover = right_edge >= 0 ? cover_x(right_edge) : 0.0f;
        for (int py = py0; py < py1; ++py) {
            const float cover_y = std::min(y1, py + 1.0f) - std::max(y0, static_cast<float>(py));
            const size_t row = size_t(py) * image_.width;
            if (cover_y >= 1.0f && colour.a == 255) {
                set_span(row + inner0, size_t(inner1 - inner0), colour);  // the common case
            } else {
                for (int px = inner0; px < inner1; ++px) blend(pixel(row + px), colour, cover_y);
            }
            if (left_edge >= 0) blend(pixel(row + left_edge), colour, left_cover * cover_y);
            if (right_edge >= 0) blend(pixel(row + right_edge), colour, right_cover * cover_y);
        }
    }

    RgbaImage take() { return std::move(image_); }

  private:
    std::uint8_t* pixel(size_t index) { return &image_.pixels[index * 4]; }

    // Sets `count` pixels from pixel `first` on to exactly `colour`.
    void set_span(size_t first, size_t count, Rgba colour) {
        const std::uint8_t value[4] = {colour.r, colour.g, colour.b, colour.a};
        std::uint8_t* out = pixel(first);
        for (size_t i = 0; i < count; ++i, out += 4) std::memcpy(out, value, 4);
    }

    // Source-over of `colour` at `coverage` (0..1) onto one pixel.
    static void blend(std::uint8_t* pixel, Rgba colour, float coverage) {
        const float alpha = colour.a / 255.0f * coverage;
        if (alpha >= 0.999f) {
            pixel[0] = colour.r;
            pixel[1] = colour.g;
            pixel[2] = colour.b;
            pixel[3] = 255;
            return;
        }
        if (alpha <= 0.0f) return;
        const float dst_alpha = pixel[3] / 255.0f;
        const float out_alpha = alpha + dst_alpha * (1.0f - alpha);
        const float keep = dst_alpha * (1.0f - alpha);
        const std::uint8_t source[3] = {colour.r, colour.g, colour.b};
        for (int channel = 0; channel < 3; ++channel) {
            const float value = (source[channel] * alpha + pixel[channel] * keep) / out_alpha;
            pixel[channel] = static_cast<std::uint8_t>(std::min(value, 255.0f) + 0.5f);
        }
        pixel[3] = static_cast<std::uint8_t>(out_alpha * 255.0f + 0.5f);
    }

    RgbaImage image_;
};

void draw_rect(Canvas& canvas, const DrawRect& rect, float scale) {
    const float x0 = rect.x * scale, y0 = rect.y * scale;
    const float x1 = x0 + rect.w * scale, y1 = y0 + rect.h * scale;
    if (!(x1 > x0 && y1 > y0)) return;
    canvas.fill(x0, y0, x1, y1, rect.fill);
    if (rect.stroke.a == 0 || rect.stroke_width <= 0) return;
    const float band = rect.stroke_width * scale;
    if (2 * band >= x1 - x0 || 2 * band >= y1 - y0) {
        canvas.fill(x0, y0, x1, y1, rect.stroke);  // the outline covers the whole rect
        return;
    }
    // Inside the rect: top and bottom full width, left and right between them.
    canvas.fill(x0, y0, x1, y0 + band, rect.stroke);
    canvas.fill(x0, y1 - band, x1, y1, rect.stroke);
    canvas.fill(x0, y0 + band, x0 + band, y1 - band, rect.stroke);
    canvas.fill(x1 - band, y0 + band, x1, y1 - band, rect.stroke);
}

void draw_text(Canvas& canvas, const DrawText& text, float scale, std::vector<char>& vertices) {
    if (text.text.empty() || text.colour.a == 0 || text.size <= 0) return;
    std::string ascii = text.text;
    for (char& c : ascii) {
        if (c < 32 || c > 126) c = '?';  // stb_easy_font covers printable ASCII only
    }
    const float units = text.size * scale / kFontLineUnits;  // pixels per font unit
    float x = text.x * scale;
    if (text.align == TextAlign::kCenter) {
        x -= 0.5f * units * static_cast<float>(stb_easy_font_width(ascii.data()));
    }
    const float y = text.y * scale;
    vertices.resize((ascii.size() + 1) * kVertexBytesPerChar);
    const int quads = stb_easy_font_print(0, 0, ascii.data(), nullptr, vertices.data(),
                                          static_cast<int>(vertices.size()));
    for (int q = 0; q < quads; ++q) {
        // Vertices 0 and 2 of each axis-aligned quad are its opposite corners.
        const char* quad = vertices.data() + size_t(q) * 4 * kStbVertexStride;
        float top_left[2], bottom_right[2];
        std::memcpy(top_left, quad, sizeof top_left);
        std::memcpy(bottom_right, quad + 2 * kStbVertexStride, sizeof bottom_right);
        canvas.fill(x + top_left[0] * units, y + top_left[1] * units, x + bottom_right[0] * units,
                    y + bottom_right[1] * units, text.colour);
    }
}

}  // namespace

// A line as squares of its width stepped along it half a pixel apart: exact for an opaque colour
// (the arrows it draws); a translucent one darkens where the squares overlap.
void draw_line(Canvas& canvas, const DrawLine& line, float scale) {
    const float x0 = line.x0 * scale, y0 = line.y0 * scale;
    const float dx = line.x1 * scale - x0, dy = line.y1 * scale - y0;
    const float half = 0.5f * std::max(1.0f, line.width * scale);
    const int steps = std::max(1, static_cast<int>(std::ceil(2.0f * std::hypot(dx, dy))));
    for (int i = 0; i <= steps; ++i) {
        const float t = static_cast<float>(i) / steps;
        const float x = x0 + t * dx, y = y0 + t * dy;
        canvas.fill(x - half, y - half, x + half, y + half, line.colour);
    }
}

RgbaImage rasterize(const DrawList& list, float scale) {
    if (!(scale > 0) || !(list.width > 0) || !(list.height > 0)) return {};
    const int width = static_cast<int>(std::ceil(list.width * scale));
    const int height = static_cast<int>(std::ceil(list.height * scale));
    Canvas canvas(width, height, list.background);
    for (const DrawRect& rect : list.rects) draw_rect(canvas, rect, scale);
    for (const DrawLine& line : list.lines) draw_line(canvas, line, scale);
    std::vector<char> vertices;
    for (const DrawText& text : list.texts) draw_text(canvas, text, scale, vertices);
    return canvas.take();
}

}  // namespace tclens::viz
