#include "app/gui/views/draw_list_painter.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

#include "app/gui/views/frame_list.h"
#include "app/gui/views/lecture_mode.h"

namespace tclens::gui {
namespace {

ImU32 to_imgui(viz::Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// The drawings painted in this frame and the one before.
FrameList<PaintedView>& painted_frames() {
    static FrameList<PaintedView> frames;
    return frames;
}

void remember(const ImVec2& origin, const ImVec2& size, float smallest_text) {
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const ImRect& visible = window->InnerClipRect;
    painted_frames().now().push_back(
        {window->Name,
         {origin.x, origin.y, size.x, size.y},
         {visible.Min.x, visible.Min.y, visible.GetWidth(), visible.GetHeight()},
         smallest_text});
}

}  // namespace

float fit_zoom(const viz::DrawList& draw, float lowest, float highest) {
    if (draw.width <= 0 || draw.height <= 0) return 1.0f;
    const ImVec2 available = ImGui::GetContentRegionAvail();
    // A hair under the exact fit, so rounding never makes the window scroll.
    const float fit =
        0.999f * std::min(available.x / draw.width, available.y / draw.height) / ui_zoom();
    return std::clamp(fit, lowest, highest);
}

const std::vector<PaintedView>& painted_views() { return painted_frames().shown(); }

const std::vector<PaintedView>& painted_views_before() { return painted_frames().before(); }

int paint_draw_list(const viz::DrawList& draw, float zoom, const OutlineFor& outline) {
    zoom *= ui_zoom();  // lecture mode's global zoom scales views with the text
    ImDrawList* painter = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(draw.width * zoom, draw.height * zoom);
    const ImVec2 clip_min = painter->GetClipRectMin(), clip_max = painter->GetClipRectMax();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered_area = ImGui::IsWindowHovered();
    int hovered = -1;

    painter->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y),
                           to_imgui(draw.background));
    for (const viz::DrawRect& rect : draw.rects) {
        const ImVec2 a(origin.x + rect.x * zoom, origin.y + rect.y * zoom);
        const ImVec2 b(a.x + rect.w * zoom, a.y + rect.h * zoom);
        if (b.x < clip_min.x || b.y < clip_min.y || a.x > clip_max.x || a.y > clip_max.y) {
            continue;
        }
        // A stroke lies inside the rect, as in SVG and PNG. It is painted as four edge quads
        // around the inset fill, so every pixel is filled once: with 16k cells on a software
        // renderer the frame time is pixel fill.
        const float inset = std::max(1.0f, rect.stroke_width * zoom);
        const bool stroked = rect.stroke_width > 0.0f && rect.stroke.a > 0;
        const ImVec2 ia(a.x + inset, a.y + inset), ib(b.x - inset, b.y - inset);
        if (rect.fill.a > 0)
            painter->AddRectFilled(stroked ? ia : a, stroked ? ib : b, to_imgui(rect.fill));
        if (stroked) {
            const ImU32 stroke = to_imgui(rect.stroke);
            painter->AddRectFilled(a, ImVec2(b.x, ia.y), stroke);
            painter->AddRectFilled(ImVec2(a.x, ib.y), b, stroke);
            painter->AddRectFilled(ImVec2(a.x, ia.y), ImVec2(ia.x, ib.y), stroke);
            painter->AddRectFilled(ImVec2(ib.x, ia.y), ImVec2(b.x, ib.y), stroke);
        }
        if (rect.hit < 0) continue;
        if (outline) {
            if (const auto colour = outline(rect.hit)) {
                painter->AddRect(a, b, to_imgui(*colour), 0.0f, 0, 2.0f);
            }
        }
        if (hovered_area && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
            hovered = rect.hit;
        }
    }
    for (const viz::DrawLine& line : draw.lines) {
        painter->AddLine(ImVec2(origin.x + line.x0 * zoom, origin.y + line.y0 * zoom),
                         ImVec2(origin.x + line.x1 * zoom, origin.y + line.y1 * zoom),
                         to_imgui(line.colour), std::max(1.0f, line.width * zoom));
    }
    ImFont* font = ImGui::GetFont();
    float smallest_text = 0;
    for (const viz::DrawText& text : draw.texts) {
        const float font_size = text.size * zoom;
        if (!text.text.empty()) {
            smallest_text = smallest_text > 0 ? std::min(smallest_text, font_size) : font_size;
        }
        ImVec2 at(origin.x + text.x * zoom, origin.y + text.y * zoom);
        if (at.y > clip_max.y || at.y + font_size < clip_min.y) continue;
        if (text.align == viz::TextAlign::kCenter) {
            at.x -= font->CalcTextSizeA(font_size, FLT_MAX, 0.0f, text.text.c_str()).x * 0.5f;
        }
        painter->AddText(font, font_size, at, to_imgui(text.colour), text.text.c_str());
    }
    remember(origin, size, smallest_text);
    ImGui::Dummy(size);
    return hovered;
}

}  // namespace tclens::gui
