#include "viz/bar_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kLabelGap = 10.0f;  // label column to axis origin
constexpr float kValueGap = 6.0f;   // bar end to value text

double drawn_value(double value) { return std::isfinite(value) && value > 0 ? value : 0.0; }

// A tick value without float noise: 0.30000000000000004 -> "0.3", 800 -> "800".
std::string tick_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// The legend from (kMargin, y): swatches and labels, wrapping before `right`. Returns the y
// below it.
float draw_legend(DrawListBuilder& b, const BarChartOptions& options, float y, float right) {
    const float size = options.text_size;
    const float swatch = size - 2.0f;
    float x = kMargin;
    for (const LegendEntry& entry : options.legend) {
        const float entry_w = swatch + kSwatchLabelGap + text_width(entry.label.size(), size);
        if (x > kMargin && x + entry_w > right) {
            x = kMargin;
            y += size + 6.0f;
        }
        b.rect(x, y + 1.0f, swatch, swatch, bar_fill(options, b.palette(), entry.category));
        x = b.swatch_label(x, y, swatch, size, entry.label) + 2 * kLabelGap;
    }
    return options.legend.empty() ? y - 4.0f : y + size + 6.0f;
}

}  // namespace

Rgba bar_fill(const BarChartOptions& options, const Palette& palette, int category) {
    if (options.fills.empty()) return category_colour(palette, category);
    const int size = static_cast<int>(options.fills.size());
    const int wrapped = category % size;
    return options.fills[static_cast<size_t>(wrapped < 0 ? wrapped + size : wrapped)];
}

AxisScale nice_axis(double max_value) {
    if (!std::isfinite(max_value) || max_value <= 0) return {};
    const double wanted = max_value / 5.0;
    double decade = std::pow(10.0, std::floor(std::log10(wanted)));
    double step = decade;
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        step = factor * decade;
        if (step >= wanted * (1 - 1e-9)) break;
    }
    const double steps = std::max(1.0, std::ceil(max_value / step * (1 - 1e-9)));
    return {step, steps * step};
}

DrawList bar_chart(const std::vector<Bar>& bars, const BarChartOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float size = options.text_size;
    DrawListBuilder b(palette);

    double largest = 0;
    size_t label_chars = 0;
    for (const Bar& bar : bars) {
        largest = std::max(largest, drawn_value(bar.value));
        label_chars = std::max(label_chars, bar.label.size());
    }
    const AxisScale axis = nice_axis(largest);
    const float label_column = label_chars > 0 ? text_width(label_chars, size) + kLabelGap : 0.0f;
    const float origin = kMargin + label_column;
    const float legend_top = options.title.empty() ? kMargin : kMargin + size + 8.0f;
    const float top = draw_legend(b, options, legend_top, origin + options.bar_area) + 4.0f;
    const float pitch = options.bar_height + options.gap;
    const float rows_bottom =
        bars.empty() ? top : top + pitch * static_cast<float>(bars.size()) - options.gap;
    float right = kMargin + text_width(options.title.size(), size);

    if (!options.title.empty()) {
        b.text(kMargin, kMargin, size, palette.text, TextAlign::kLeft, options.title);
    }
    // Grid lines first: rects paint in order, so the bars cover them.
    const int ticks = static_cast<int>(std::lround(axis.max / axis.step));
    float last_tick_end = origin;
    for (int t = 0; t <= ticks; ++t) {
        const float x =
            origin + options.bar_area * static_cast<float>(t) / static_cast<float>(ticks);
        b.rect(x, top - 2.0f, 1.0f, rows_bottom - top + 4.0f, palette.grid);
        const std::string text = tick_text(axis.step * t);
        b.text(x, rows_bottom + 4.0f, size, palette.text, TextAlign::kCenter, text);
        last_tick_end = x + text_width(text.size(), size) / 2.0f;
    }
    if (!options.axis_label.empty()) {
        const float x = last_tick_end + 8.0f;
        b.text(x, rows_bottom + 4.0f, size, palette.text, TextAlign::kLeft, options.axis_label);
        right = std::max(right, x + text_width(options.axis_label.size(), size));
    }
    right = std::max(right, last_tick_end);

    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar& bar = bars[i];
        const float y = top + pitch * static_cast<float>(i);
        const float text_y = y + (options.bar_height - size) / 2.0f;
        b.text(kMargin, text_y, size, palette.text, TextAlign::kLeft, bar.label);
        const float length =
            static_cast<float>(drawn_value(bar.value) / axis.max) * options.bar_area;
        if (length > 0) {
            b.rect(origin, y, length, options.bar_height, bar_fill(options, palette, bar.category),
                   kTransparent, 0.0f, static_cast<int>(i));
        }
        const float value_x = origin + length + kValueGap;
        b.text(value_x, text_y, size, palette.text, TextAlign::kLeft, bar.value_text);
        right = std::max(right, value_x + text_width(bar.value_text.size(), size));
    }
    right = std::max({right, origin + options.bar_area, b.right()});
    b.draw().width = std::ceil(right + kMargin);
    b.draw().height = std::ceil(rows_bottom + 4.0f + size + kMargin);
    return b.take();
}

}  // namespace tclens::viz
