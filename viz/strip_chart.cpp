#include "viz/strip_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viz/bar_chart.h"
#include "viz/view_builder.h"

namespace tclens::viz {
namespace {

constexpr float kMargin = 4.0f;
constexpr std::uint8_t kFrameAlpha = 60;

bool drawable(double value) { return std::isfinite(value) && value > 0; }

// Where the drawn values start in `values`.
std::size_t first_drawn(const std::vector<double>& values, std::size_t capacity) {
    return capacity > 0 && values.size() > capacity ? values.size() - capacity : 0;
}

}  // namespace

double strip_chart_max(const std::vector<double>& values, const StripChartOptions& options) {
    if (options.fixed_max > 0 && std::isfinite(options.fixed_max)) return options.fixed_max;
    double largest = 0;
    for (std::size_t i = first_drawn(values, options.capacity); i < values.size(); ++i) {
        if (drawable(values[i])) largest = std::max(largest, values[i]);
    }
    return nice_axis(largest).max;
}

DrawList strip_chart(const std::vector<double>& values, const StripChartOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float size = options.text_size;
    DrawListBuilder b(palette);

    std::string heading = options.title;
    if (!options.value_text.empty()) heading += (heading.empty() ? "" : "  ") + options.value_text;
    float top = kMargin;
    if (!heading.empty()) {
        b.text(kMargin, top, size, palette.text, TextAlign::kLeft, heading);
        top += size + 4.0f;
    }
    const float plot_w = options.width;
    const float plot_h = options.plot_height;
    b.rect(kMargin, top, plot_w, plot_h, with_alpha(palette.grid, kFrameAlpha), palette.grid, 1.0f,
           -1);

    const double axis_max = strip_chart_max(values, options);
    const std::size_t first = first_drawn(values, options.capacity);
    const std::size_t drawn = values.size() - first;
    const std::size_t columns =
        options.capacity > 0 ? options.capacity : std::max<std::size_t>(drawn, 1);
    const float column_w = plot_w / static_cast<float>(columns);
    const Rgba fill = category_colour(palette, options.category);
    for (std::size_t j = 0; j < drawn; ++j) {
        const double value = values[first + j];
        if (!drawable(value)) continue;
        const float h = static_cast<float>(std::min(value / axis_max, 1.0)) * plot_h;
        const float x = kMargin + plot_w - column_w * static_cast<float>(drawn - j);
        b.rect(x, top + plot_h - h, column_w, h, fill, kTransparent, 0.0f,
               static_cast<int>(first + j));
    }
    char max_text[48];
    std::snprintf(max_text, sizeof max_text, "0 to %g%s%s", axis_max,
                  options.unit.empty() ? "" : " ", options.unit.c_str());
    b.text(kMargin + 2.0f, top + 2.0f, size, palette.text, TextAlign::kLeft, max_text);

    b.draw().width =
        std::ceil(std::max(kMargin + plot_w, kMargin + text_width(heading.size(), size)) + kMargin);
    b.draw().height = std::ceil(top + plot_h + kMargin);
    return b.take();
}

}  // namespace tclens::viz
