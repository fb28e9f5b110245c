#include "viz/roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tclens::viz {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kTickGap = 6.0f;  // plot edge to tick text
constexpr float kRoofThickness = 2.0f;
constexpr float kMarker = 9.0f;  // side of a run's square
constexpr std::uint8_t kPlotAlpha = 60;
// The x axis reaches this far past every ridge, so each compute roof's flat part shows.
constexpr double kRidgeRoom = 3.0;

bool positive(double value) { return std::isfinite(value) && value > 0; }

bool drawable(const RooflinePoint& point) {
    return positive(point.intensity) && positive(point.tflops);
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// 3.35e12 -> "3.35 TB/s", 9.0e11 -> "900 GB/s".
std::string bandwidth_text(double bytes_per_s) {
    return bytes_per_s >= 1e12 ? format("%.2f TB/s", bytes_per_s / 1e12)
                               : format("%.0f GB/s", bytes_per_s / 1e9);
}

std::vector<const ComputeRoof*> drawn_roofs(const Roofline& roofline) {
    std::vector<const ComputeRoof*> roofs;
    for (const ComputeRoof& roof : roofline.compute) {
        if (positive(roof.tflops)) roofs.push_back(&roof);
    }
    return roofs;
}

// Device `device`'s memory bandwidth, 0 when it has no (positive) memory roof.
double bandwidth_of(const Roofline& roofline, int device) {
    const MemoryRoof* memory = memory_roof_of(roofline, device);
    return memory && positive(memory->bytes_per_s) ? memory->bytes_per_s : 0.0;
}

// The devices the chart draws: every index a roof or point names, at least {0}.
int device_count(const Roofline& roofline) {
    int count = std::max<int>(1, int(roofline.devices.size()));
    for (const ComputeRoof& roof : roofline.compute) count = std::max(count, roof.device + 1);
    for (const MemoryRoof& roof : roofline.memory) count = std::max(count, roof.device + 1);
    for (const RooflinePoint& point : roofline.points) count = std::max(count, point.device + 1);
    return count;
}

// "" with fewer than two device labels, else "<label of device>: ".
std::string device_prefix(const Roofline& roofline, int device) {
    if (roofline.devices.size() < 2 || device < 0 || device >= int(roofline.devices.size())) {
        return "";
    }
    return roofline.devices[size_t(device)] + ": ";
}

// Whether pixel `offset` along a roof of device `device` is drawn (its dash pattern).
bool dash_on(int device, float offset) {
    const RoofDash dash = roof_dash(device);
    if (dash.on <= 0) return true;
    return std::fmod(offset, dash.on + dash.off) < dash.on;
}

// "97% of attainable (bf16 tensor roof)", "" when no roof bounds the point.
std::string share_text(const Roofline& roofline, const RooflinePoint& point) {
    const double attainable = attainable_for(roofline, point);
    if (!positive(attainable)) return "";
    const ComputeRoof* compute = roof_for(roofline, point.precision, point.device);
    const double bandwidth = bandwidth_of(roofline, point.device);
    const bool memory_bound =
        positive(bandwidth) && (!compute || !positive(compute->tflops) ||
                                point.intensity < ridge_intensity(compute->tflops, bandwidth));
    const std::string roof =
        memory_bound ? memory_roof_of(roofline, point.device)->label : compute->label;
    return format("%.0f%% of attainable", 100.0 * point.tflops / attainable) + " (" + roof +
           " roof)";
}

}  // namespace

double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k) {
    return 2.0 * double(m) * double(n) * double(k);
}

double compulsory_bytes(std::int64_t m, std::int64_t n, std::int64_t k, int input_bytes,
                        int output_bytes) {
    return (double(m) * double(k) + double(k) * double(n)) * input_bytes +
           double(m) * double(n) * output_bytes;
}

double arithmetic_intensity(double flops, double bytes) { return bytes > 0 ? flops / bytes : 0.0; }

double ridge_intensity(double peak_tflops, double bytes_per_s) {
    if (!positive(peak_tflops) || !positive(bytes_per_s)) return 0.0;
    return peak_tflops * 1e12 / bytes_per_s;
}

double attainable_tflops(double intensity, double peak_tflops, double bytes_per_s) {
    const bool compute = positive(peak_tflops);
    const bool memory = positive(bytes_per_s);
    const double memory_tflops = intensity * bytes_per_s / 1e12;
    if (compute && memory) return std::min(peak_tflops, memory_tflops);
    if (compute) return peak_tflops;
    if (memory) return memory_tflops;
    return 0.0;
}

RoofDash roof_dash(int device) {
    switch (((device % 4) + 4) % 4) {
        case 1:
            return {8, 5};
        case 2:
            return {2, 4};
        case 3:
            return {12, 3};
        default:
            return {0, 0};
    }
}

const char* roof_dash_name(int device) {
    switch (((device % 4) + 4) % 4) {
        case 1:
            return "dashed";
        case 2:
            return "dotted";
        case 3:
            return "long dashes";
        default:
            return "solid";
    }
}

const ComputeRoof* roof_for(const Roofline& roofline, const std::string& precision, int device) {
    for (const ComputeRoof& roof : roofline.compute) {
        if (roof.precision == precision && roof.device == device) return &roof;
    }
    return nullptr;
}

const MemoryRoof* memory_roof_of(const Roofline& roofline, int device) {
    for (const MemoryRoof& roof : roofline.memory) {
        if (roof.device == device) return &roof;
    }
    return nullptr;
}

double attainable_for(const Roofline& roofline, const RooflinePoint& point) {
    const ComputeRoof* roof = roof_for(roofline, point.precision, point.device);
    const MemoryRoof* memory = memory_roof_of(roofline, point.device);
    return attainable_tflops(point.intensity, roof ? roof->tflops : 0.0,
                             memory ? memory->bytes_per_s : 0.0);
}

LogAxis log_axis(const std::vector<double>& values, int min_decades) {
    min_decades = std::max(min_decades, 1);
    bool any = false;
    int first = 0, last = 0;
    for (const double value : values) {
        if (!positive(value)) continue;
        const double decade = std::log10(value);
        const int low = int(std::floor(decade + 1e-9));
        const int high = int(std::ceil(decade - 1e-9));
        first = any ? std::min(first, low) : low;
        last = any ? std::max(last, high) : high;
        any = true;
    }
    if (!any) return {0, min_decades};
    for (bool top = true; last - first < min_decades; top = !top) {
        if (top) {
            ++last;
        } else {
            --first;
        }
    }
    return {first, last};
}

double log_fraction(const LogAxis& axis, double value) {
    return (std::log10(value) - axis.first) / double(axis.decades());
}

std::string decade_text(int d) {
    if (d >= 0) return d <= 9 ? "1" + std::string(size_t(d), '0') : "1e" + std::to_string(d);
    return d >= -9 ? "0." + std::string(size_t(-d - 1), '0') + "1" : "1e" + std::to_string(d);
}

DrawList roofline_chart(const Roofline& roofline, const RooflineOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float size = options.text_size;
    const int devices = device_count(roofline);
    const std::vector<const ComputeRoof*> roofs = drawn_roofs(roofline);
    DrawList draw;
    draw.background = palette.background;

    // Axes: every drawable point, every roof, and room right of every ridge.
    std::vector<double> xs, ys;
    for (const RooflinePoint& point : roofline.points) {
        if (!drawable(point)) continue;
        xs.push_back(point.intensity);
        ys.push_back(point.tflops);
    }
    std::vector<double> top_roof(size_t(devices), 0.0);  // per device
    for (const ComputeRoof* roof : roofs) {
        ys.push_back(roof->tflops);
        const double bandwidth = bandwidth_of(roofline, roof->device);
        if (roof->device >= 0 && roof->device < devices) {
            double& highest = top_roof[size_t(roof->device)];
            highest = std::max(highest, roof->tflops);
        }
        if (bandwidth > 0) {
            const double ridge = ridge_intensity(roof->tflops, bandwidth);
            xs.push_back(ridge / kRidgeRoom);
            xs.push_back(ridge * kRidgeRoom);
        }
    }
    const LogAxis x_axis = log_axis(xs, options.min_decades);
    const LogAxis y_axis = log_axis(ys, options.min_decades);

    float top = kMargin;
    float right = kMargin;
    if (!options.title.empty()) {
        draw.texts.push_back({kMargin, top, size, palette.text, TextAlign::kLeft, options.title});
        right = std::max(right, kMargin + text_width(options.title.size(), size));
        top += size + 8.0f;
    }
    size_t y_tick_chars = 0;
    for (int d = y_axis.first; d <= y_axis.last; ++d) {
        y_tick_chars = std::max(y_tick_chars, decade_text(d).size());
    }
    const float plot_left = kMargin + text_width(y_tick_chars, size) + kTickGap;
    draw.texts.push_back({plot_left, top, size, palette.text, TextAlign::kLeft, "TFLOP/s"});
    top += size + 8.0f;
    const float plot_w = options.decade_px * float(x_axis.decades());
    const float plot_h = options.decade_px * float(y_axis.decades());
    const float plot_right = plot_left + plot_w;
    const float plot_bottom = top + plot_h;
    auto px = [&](double intensity) {
        return plot_left + float(log_fraction(x_axis, intensity)) * plot_w;
    };
    auto py = [&](double tflops) {
        return plot_bottom - float(log_fraction(y_axis, tflops)) * plot_h;
    };

    // x tick texts clear of the lowest y tick text, which is centred on the plot's bottom edge.
    const float x_tick_y = plot_bottom + size / 2 + 3.0f;
    Rgba frame = palette.grid;
    frame.a = kPlotAlpha;
    draw.rects.push_back({plot_left, top, plot_w, plot_h, frame, palette.grid, 1.0f, -1});
    for (int d = x_axis.first; d <= x_axis.last; ++d) {
        const float x = plot_left + options.decade_px * float(d - x_axis.first);
        draw.rects.push_back({std::min(x, plot_right - 1.0f), top, 1.0f, plot_h, palette.grid,
                              kTransparent, 0.0f, -1});
        draw.texts.push_back({x, x_tick_y, size, palette.text, TextAlign::kCenter, decade_text(d)});
    }
    for (int d = y_axis.first; d <= y_axis.last; ++d) {
        const float y = plot_bottom - options.decade_px * float(d - y_axis.first);
        draw.rects.push_back({plot_left, std::min(y, plot_bottom - 1.0f), plot_w, 1.0f,
                              palette.grid, kTransparent, 0.0f, -1});
        const std::string text = decade_text(d);
        draw.texts.push_back({plot_left - kTickGap - text_width(text.size(), size), y - size / 2,
                              size, palette.text, TextAlign::kLeft, text});
    }
    const std::string x_label = "arithmetic intensity (FLOP/byte)";
    const float x_label_y = x_tick_y + size + 4.0f;
    draw.texts.push_back(
        {plot_left + plot_w / 2, x_label_y, size, palette.text, TextAlign::kCenter, x_label});
    right = std::max({right, plot_right + text_width(decade_text(x_axis.last).size(), size) / 2,
                      plot_left + plot_w / 2 + text_width(x_label.size(), size) / 2});

    // Each device's memory roof: one rect per pixel column (where its dash is on), from the
    // line's height at the column's left edge to its right edge, widened to the roof's
    // thickness, clipped to the plot.
    for (int device = 0; device < devices; ++device) {
        const double bandwidth = bandwidth_of(roofline, device);
        if (bandwidth <= 0) continue;
        const MemoryRoof& memory = *memory_roof_of(roofline, device);
        const double top_tflops = top_roof[size_t(device)];
        const double end =
            top_tflops > 0 ? ridge_intensity(top_tflops, bandwidth) : std::pow(10.0, x_axis.last);
        const float end_x = std::min(px(end), plot_right);
        auto line_y = [&](float x) {
            const double intensity =
                std::pow(10.0, x_axis.first + double(x - plot_left) / options.decade_px);
            return py(intensity * bandwidth / 1e12);
        };
        // The label, two lines, goes under the line where both fit above the plot's bottom (a
        // later device's under an earlier one's), so the line rises away from it to the right
        // and crosses no other roof.
        const float label_h = 2 * size + 2.0f;
        const float below = float(device) * (label_h + 2.0f);
        float label_x = -1, label_y = 0;
        float along = 0;
        for (float x = plot_left; x < end_x; x += 1.0f) {
            const float x1 = std::min(x + 1.0f, end_x);
            const float y0 = line_y(x), y1 = line_y(x1);
            const float band_top = std::max(std::min(y0, y1) - kRoofThickness / 2, top);
            const float band_bottom = std::min(std::max(y0, y1) + kRoofThickness / 2, plot_bottom);
            if (band_bottom <= band_top) continue;
            const bool on = dash_on(device, along);
            along += std::hypot(1.0f, y1 - y0);
            if (on) {
                draw.rects.push_back({x, band_top, x1 - x, band_bottom - band_top, palette.text,
                                      kTransparent, 0.0f, -1});
            }
            // Room for every device's label under the line, so devices with the same roof
            // find the same place and their labels stack instead of overlapping.
            const float stack = float(devices) * (label_h + 2.0f);
            if (label_x < 0 && band_bottom + 4.0f + stack <= plot_bottom - 2.0f) {
                label_x = x + 4.0f;
                label_y = band_bottom + 4.0f + below;
            }
        }
        if (label_x < 0) {
            label_x = plot_left + 4.0f;
            label_y = plot_bottom - (float(device) + 1) * (label_h + 2.0f);
        }
        const std::string lines[] = {
            device_prefix(roofline, device) + memory.label + " " + bandwidth_text(bandwidth),
            memory.origin};
        for (const std::string& line : lines) {
            draw.texts.push_back({label_x, label_y, size, palette.text, TextAlign::kLeft, line});
            right = std::max(right, label_x + text_width(line.size(), size));
            label_y += size + 2.0f;
        }
    }

    // Compute roofs, highest first, so their labels stack downwards without overlapping.
    std::vector<const ComputeRoof*> by_height = roofs;
    std::stable_sort(
        by_height.begin(), by_height.end(),
        [](const ComputeRoof* a, const ComputeRoof* b) { return a->tflops > b->tflops; });
    float label_bottom = top - size;
    for (const ComputeRoof* roof : by_height) {
        const float y = py(roof->tflops);
        const double bandwidth = bandwidth_of(roofline, roof->device);
        const float start = bandwidth > 0
                                ? std::max(px(ridge_intensity(roof->tflops, bandwidth)), plot_left)
                                : plot_left;
        const float band_top = std::max(y - kRoofThickness / 2, top);
        const float band_bottom = std::min(y + kRoofThickness / 2, plot_bottom);
        const RoofDash dash = roof_dash(roof->device);
        const float step = dash.on > 0 ? dash.on + dash.off : plot_right - start;
        for (float x = start; step > 0 && x < plot_right; x += step) {
            const float w = std::min(dash.on > 0 ? dash.on : step, plot_right - x);
            draw.rects.push_back(
                {x, band_top, w, band_bottom - band_top, palette.text, kTransparent, 0.0f, -1});
        }
        const std::string label =
            device_prefix(roofline, roof->device) + roof->label + format(" %.0f", roof->tflops);
        const float label_y = std::max(y - size / 2, label_bottom + 1.0f);
        draw.texts.push_back(
            {plot_right + kTickGap, label_y, size, palette.text, TextAlign::kLeft, label});
        label_bottom = label_y + size;
        right = std::max(right, plot_right + kTickGap + text_width(label.size(), size));
    }

    // The runs, then their legend.
    float legend_y = x_label_y + size + 10.0f;
    bool any_estimate = false;
    for (size_t i = 0; i < roofline.points.size(); ++i) {
        const RooflinePoint& point = roofline.points[i];
        if (!drawable(point)) continue;
        const Rgba fill = category_colour(palette, point.category);
        const std::string number = std::to_string(i + 1);
        const float x = px(point.intensity), y = py(point.tflops);
        draw.rects.push_back(
            {x - kMarker / 2, y - kMarker / 2, kMarker, kMarker, fill, palette.text, 1.0f, int(i)});
        draw.texts.push_back({x + kMarker / 2 + 1.0f, y - kMarker / 2 - size, size, palette.text,
                              TextAlign::kLeft, number});

        std::string line =
            number + " " + point.label + ": " + format("%.1f FLOP/B", point.intensity) +
            (point.estimated ? " est." : "") + format(", %.1f TFLOP/s", point.tflops);
        const std::string share = share_text(roofline, point);
        if (!share.empty()) line += ", " + share;
        draw.rects.push_back(
            {kMargin, legend_y + 1.0f, size - 2.0f, size - 2.0f, fill, kTransparent, 0.0f, -1});
        draw.texts.push_back(
            {kMargin + size + 4.0f, legend_y, size, palette.text, TextAlign::kLeft, line});
        right = std::max(right, kMargin + size + 4.0f + text_width(line.size(), size));
        legend_y += size + 4.0f;
        any_estimate = any_estimate || point.estimated;
    }
    if (any_estimate) {
        const std::string note =
            "est.: intensity from compulsory traffic (A and B read once, C written once), "
            "no DRAM byte counts";
        draw.texts.push_back({kMargin, legend_y, size, palette.text, TextAlign::kLeft, note});
        right = std::max(right, kMargin + text_width(note.size(), size));
        legend_y += size + 4.0f;
    }
    // The roofs, one line per device with two or more ("roofs of <device> (dashed): ...").
    for (int device = 0; device < devices; ++device) {
        std::string roofs_line = "roofs:";
        if (roofline.devices.size() >= 2 && device < int(roofline.devices.size())) {
            roofs_line = "roofs of " + roofline.devices[size_t(device)] + " (" +
                         roof_dash_name(device) + "):";
        }
        const double bandwidth = bandwidth_of(roofline, device);
        if (bandwidth > 0) {
            const MemoryRoof& memory = *memory_roof_of(roofline, device);
            roofs_line +=
                " " + memory.label + " " + bandwidth_text(bandwidth) + " (" + memory.origin + ")";
        }
        for (const ComputeRoof* roof : roofs) {
            if (roof->device != device) continue;
            roofs_line += (roofs_line.back() == ':' ? " " : ", ") + roof->label +
                          format(" %.1f TFLOP/s", roof->tflops) + " (" + roof->origin + ")";
        }
        if (roofs_line.back() == ':') roofs_line += " none known";
        draw.texts.push_back({kMargin, legend_y, size, palette.text, TextAlign::kLeft, roofs_line});
        right = std::max(right, kMargin + text_width(roofs_line.size(), size));
        if (device + 1 < devices) legend_y += size + 4.0f;
    }

    draw.width = std::ceil(right + kMargin);
    draw.height = std::ceil(legend_y + size + kMargin);
    return draw;
}

}  // namespace tclens::viz
