#include "viz/warp_timeline_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

std::string microseconds(double ns) {
    char text[32];
    std::snprintf(text, sizeof text, ns < 10000 ? "%.2f us" : "%.1f us", ns / 1000.0);
    return text;
}

// A round tick step (1, 2 or 5 x 10^n ns) giving about `ticks` ticks over `span` ns.
double tick_step(double span, int ticks) {
    const double raw = std::max(span / ticks, 1.0);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double f : {1.0, 2.0, 5.0}) {
        if (f * decade >= raw) return f * decade;
    }
    return 10.0 * decade;
}

// A phase's bar or legend swatch, in its category colour. Where the palette has fewer colours
// than there are phases (high contrast: 8 for 11), a phase whose colour repeats an earlier
// phase's carries a band of the background across its middle third, with the bar's `hit`.
void phase_rect(DrawListBuilder& b, TracePhase phase, float x, float y, float w, float h, int hit) {
    const Palette& palette = b.palette();
    const int index = static_cast<int>(phase);
    b.rect(x, y, w, h, category_colour(palette, index), kTransparent, 0, hit);
    if (index >= static_cast<int>(palette.categories.size())) {
        b.rect(x, y + h / 3, w, h / 3, palette.background, kTransparent, 0, hit);
    }
}

}  // namespace

std::int64_t trace_end_ns(const WarpTrace& trace) {
    std::int64_t end = 0;
    for (const WarpPhase& p : trace.phases) end = std::max(end, p.end_ns);
    return end;
}

DrawList warp_timeline(const WarpTrace& trace, const TimelineOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    DrawListBuilder b(palette);
    const float ts = options.text_size;
    const float row = options.row_height;
    std::int64_t view_start = options.view_start_ns;
    std::int64_t view_end = options.view_end_ns;
    if (view_end <= view_start) {
        view_start = 0;
        view_end = std::max<std::int64_t>(trace_end_ns(trace), 1);
    }
    const float left = kTimelineLabelWidth;
    const float right = std::max(left + 1.0f, options.width - 8.0f);
    const double scale = (right - left) / static_cast<double>(view_end - view_start);

    float y = 4.0f;
    b.text(4.0f, y, ts, palette.text, TextAlign::kLeft,
           trace.kernel + "  " + std::to_string(trace.m) + "x" + std::to_string(trace.n) + "x" +
               std::to_string(trace.k) + "  blocks " + std::to_string(trace.blocks_traced) +
               " of " + std::to_string(trace.blocks_launched) + " traced  window " +
               microseconds(static_cast<double>(view_start)) + " to " +
               microseconds(static_cast<double>(view_end)));
    y += ts + 6.0f;

    std::array<bool, kTracePhaseCount> present{};
    for (const WarpPhase& p : trace.phases) present[static_cast<int>(p.phase)] = true;
    float x = 4.0f;
    for (int i = 0; i < kTracePhaseCount; ++i) {
        if (!present[i]) continue;
        // The legend wraps where the next entry would run past the drawing's width.
        const float entry =
            ts + kSwatchLabelGap + text_width(std::string(phase_words(TracePhase(i))).size(), ts);
        if (x > 4.0f && x + entry > options.width - 8.0f) {
            x = 4.0f;
            y += ts + 4.0f;
        }
        phase_rect(b, static_cast<TracePhase>(i), x, y, ts, ts, -1);
        x = b.swatch_label(x, y, ts, ts, phase_words(static_cast<TracePhase>(i))) + 12.0f;
    }
    y += ts + 8.0f;

    int block = -1;
    int warp = -1;
    float row_y = y;
    for (std::size_t i = 0; i < trace.phases.size(); ++i) {
        const WarpPhase& p = trace.phases[i];
        if (p.block != block) {
            block = p.block;
            warp = -1;
            b.text(4.0f, y, ts, palette.text, TextAlign::kLeft,
                   "block " + std::to_string(p.block) + "  SM " + std::to_string(p.sm));
            y += ts + 4.0f;
        }
        if (p.warp != warp) {
            warp = p.warp;
            row_y = y;
            b.rect(left, row_y, right - left, row, with_alpha(palette.grid, 40));
            b.text(12.0f, row_y + (row - std::min(ts, row)) / 2, std::min(ts, row), palette.text,
                   TextAlign::kLeft, "w" + std::to_string(p.warp));
            y += row + 2.0f;
        }
        if (p.end_ns < view_start || p.start_ns > view_end) continue;
        const double x0 = left + (std::max(p.start_ns, view_start) - view_start) * scale;
        const double x1 = left + (std::min(p.end_ns, view_end) - view_start) * scale;
        phase_rect(b, p.phase, static_cast<float>(x0), row_y,
                   std::max(1.0f, static_cast<float>(x1 - x0)), row, static_cast<int>(i));
    }

    y += 4.0f;
    b.rect(left, y, right - left, 1.0f, palette.grid);
    const double span = static_cast<double>(view_end - view_start);
    const double step = tick_step(span, 6);
    for (double t = std::ceil(view_start / step) * step; t <= view_end; t += step) {
        const float tx = static_cast<float>(left + (t - view_start) * scale);
        b.rect(tx, y, 1.0f, 5.0f, palette.text);
        b.text(tx, y + 6.0f, ts, palette.text, TextAlign::kCenter, microseconds(t));
    }
    b.draw().width = options.width;
    b.draw().height = y + 6.0f + ts + 4.0f;
    return b.take();
}

}  // namespace tclens::viz
