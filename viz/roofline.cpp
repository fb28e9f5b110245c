#include "viz/roofline.h"

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "viz/label_placement.h"
#include "viz/view_builder.h"

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

// 3.35e12 -> "3.35 TB/s", 9.0e11 -> "900 GB/s".
std::string bandwidth_text(double bytes_per_s) {
    return bytes_per_s >= 1e12 ? common::format_text("%.2f TB/s", bytes_per_s / 1e12)
                               : common::format_text("%.0f GB/s", bytes_per_s / 1e9);
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
    return common::format_text("%.0f%% of attainable", 100.0 * point.tflops / attainable) + " (" +
           roof + " roof)";
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

namespace {

// The chart's axes: every drawable point, every roof, and room right of every ridge; and each
// device's highest compute roof (0 for none), where its memory roof ends.
struct ChartAxes {
    LogAxis x, y;
    std::vector<double> top_roof;
};

ChartAxes chart_axes(const Roofline& roofline, const std::vector<const ComputeRoof*>& roofs,
                     int devices, int min_decades) {
    std::vector<double> xs, ys;
    for (const RooflinePoint& point : roofline.points) {
        if (!drawable(point)) continue;
        xs.push_back(point.intensity);
        ys.push_back(point.tflops);
    }
    std::vector<double> top_roof(size_t(devices), 0.0);
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
    return {log_axis(xs, min_decades), log_axis(ys, min_decades), std::move(top_roof)};
}

// The plot area in pixels and the log-log mapping into it.
struct Plot {
    LogAxis x_axis, y_axis;
    float decade_px;
    float left, top, w, h;

    float right() const { return left + w; }
    float bottom() const { return top + h; }
    float px(double intensity) const { return left + float(log_fraction(x_axis, intensity)) * w; }
    float py(double tflops) const { return bottom() - float(log_fraction(y_axis, tflops)) * h; }
};

// A roofline chart being built: text `size` pixels high; `right` is the right edge of the
// widest text so far.
struct RooflineCanvas {
    DrawListBuilder b;
    float size;
    float right;
    float max_width = 0;  // RooflineOptions::max_width
};

// A left-aligned line in palette.text, counted in c.right.
void text_line(RooflineCanvas& c, float x, float y, const std::string& line) {
    c.b.text(x, y, c.size, c.b.palette().text, TextAlign::kLeft, line);
    c.right = std::max(c.right, x + text_width(line.size(), c.size));
}

// `line` cut after its ", " and ": " where it would reach past x + max_chars characters; the
// lines after the first indented by two. max_chars 0: one line.
std::vector<std::string> wrapped(const std::string& line, size_t max_chars) {
    std::vector<std::string> lines = {""};
    size_t start = 0;
    while (start < line.size()) {
        size_t end = std::min(line.find(", ", start), line.find(": ", start));
        end = end == std::string::npos ? line.size() : end + 2;
        const std::string piece = line.substr(start, end - start);
        if (max_chars > 0 && !lines.back().empty() &&
            lines.back().size() + piece.size() > max_chars) {
            lines.push_back("  ");
        }
        lines.back() += piece;
        start = end;
    }
    for (std::string& text : lines) text.erase(text.find_last_not_of(' ') + 1);
    return lines;
}

// `line` from (x, y) down, wrapped to the canvas's max_width; returns the y below it.
float wrapped_lines(RooflineCanvas& c, float x, float y, const std::string& line) {
    const float room = c.max_width - x - kMargin;
    const size_t max_chars =
        c.max_width > 0 ? size_t(std::max(room, 0.0f) / text_width(1, c.size)) : 0;
    for (const std::string& text : wrapped(line, max_chars)) {
        text_line(c, x, y, text);
        y += c.size + 4.0f;
    }
    return y;
}

// The frame, a grid line at every decade with its value under (x) or left of (y) the plot, and
// the x axis label. Returns the y of the x axis label.
float draw_frame(RooflineCanvas& c, const Plot& plot) {
    const Palette& palette = c.b.palette();
    const float size = c.size;
    // x tick texts clear of the lowest y tick text, which is centred on the plot's bottom edge.
    const float x_tick_y = plot.bottom() + size / 2 + 3.0f;
    c.b.rect(plot.left, plot.top, plot.w, plot.h, with_alpha(palette.grid, kPlotAlpha),
             palette.grid, 1.0f);
    for (int d = plot.x_axis.first; d <= plot.x_axis.last; ++d) {
        const float x = plot.left + plot.decade_px * float(d - plot.x_axis.first);
        c.b.rect(std::min(x, plot.right() - 1.0f), plot.top, 1.0f, plot.h, palette.grid);
        c.b.text(x, x_tick_y, size, palette.text, TextAlign::kCenter, decade_text(d));
    }
    for (int d = plot.y_axis.first; d <= plot.y_axis.last; ++d) {
        const float y = plot.bottom() - plot.decade_px * float(d - plot.y_axis.first);
        c.b.rect(plot.left, std::min(y, plot.bottom() - 1.0f), plot.w, 1.0f, palette.grid);
        const std::string text = decade_text(d);
        c.b.text(plot.left - kTickGap - text_width(text.size(), size), y - size / 2, size,
                 palette.text, TextAlign::kLeft, text);
    }
    const std::string x_label = "arithmetic intensity (FLOP/byte)";
    const float x_label_y = x_tick_y + size + 4.0f;
    c.b.text(plot.left + plot.w / 2, x_label_y, size, palette.text, TextAlign::kCenter, x_label);
    c.right = std::max({c.right,
                        plot.right() + text_width(decade_text(plot.x_axis.last).size(), size) / 2,
                        plot.left + plot.w / 2 + text_width(x_label.size(), size) / 2});
    return x_label_y;
}

// Device `device`'s memory roof: one rect per pixel column (where its dash is on), from the
// line's height at the column's left edge to its right edge, widened to the roof's thickness,
// clipped to the plot; up to `top_tflops`'s ridge (the plot's edge for 0). Then its label.
void draw_memory_roof(RooflineCanvas& c, const Roofline& roofline, const Plot& plot, int device,
                      int devices, double top_tflops) {
    const double bandwidth = bandwidth_of(roofline, device);
    if (bandwidth <= 0) return;
    const MemoryRoof& memory = *memory_roof_of(roofline, device);
    const double end =
        top_tflops > 0 ? ridge_intensity(top_tflops, bandwidth) : std::pow(10.0, plot.x_axis.last);
    const float end_x = std::min(plot.px(end), plot.right());
    auto line_y = [&](float x) {
        const double intensity =
            std::pow(10.0, plot.x_axis.first + double(x - plot.left) / plot.decade_px);
        return plot.py(intensity * bandwidth / 1e12);
    };
    // The label, two lines, goes under the line where both fit above the plot's bottom (a
    // later device's under an earlier one's), so the line rises away from it to the right
    // and crosses no other roof.
    const float label_h = 2 * c.size + 2.0f;
    const float below = float(device) * (label_h + 2.0f);
    float label_x = -1, label_y = 0;
    float along = 0;
    for (float x = plot.left; x < end_x; x += 1.0f) {
        const float x1 = std::min(x + 1.0f, end_x);
        const float y0 = line_y(x), y1 = line_y(x1);
        const float band_top = std::max(std::min(y0, y1) - kRoofThickness / 2, plot.top);
        const float band_bottom = std::min(std::max(y0, y1) + kRoofThickness / 2, plot.bottom());
        if (band_bottom <= band_top) continue;
        const bool on = dash_on(device, along);
        along += std::hypot(1.0f, y1 - y0);
        if (on) c.b.rect(x, band_top, x1 - x, band_bottom - band_top, c.b.palette().text);
        // Room for every device's label under the line, so devices with the same roof
        // find the same place and their labels stack instead of overlapping.
        const float stack = float(devices) * (label_h + 2.0f);
        if (label_x < 0 && band_bottom + 4.0f + stack <= plot.bottom() - 2.0f) {
            label_x = x + 4.0f;
            label_y = band_bottom + 4.0f + below;
        }
    }
    if (label_x < 0) {
        label_x = plot.left + 4.0f;
        label_y = plot.bottom() - (float(device) + 1) * (label_h + 2.0f);
    }
    const std::string lines[] = {
        device_prefix(roofline, device) + memory.label + " " + bandwidth_text(bandwidth),
        memory.origin};
    for (const std::string& line : lines) {
        text_line(c, label_x, label_y, line);
        label_y += c.size + 2.0f;
    }
}

// Compute roofs, highest first, so their labels right of the plot stack downwards without
// overlapping.
void draw_compute_roofs(RooflineCanvas& c, const Roofline& roofline, const Plot& plot,
                        std::vector<const ComputeRoof*> roofs) {
    std::stable_sort(roofs.begin(), roofs.end(), [](const ComputeRoof* a, const ComputeRoof* b) {
        return a->tflops > b->tflops;
    });
    float label_bottom = plot.top - c.size;
    for (const ComputeRoof* roof : roofs) {
        const float y = plot.py(roof->tflops);
        const double bandwidth = bandwidth_of(roofline, roof->device);
        const float start =
            bandwidth > 0 ? std::max(plot.px(ridge_intensity(roof->tflops, bandwidth)), plot.left)
                          : plot.left;
        const float band_top = std::max(y - kRoofThickness / 2, plot.top);
        const float band_bottom = std::min(y + kRoofThickness / 2, plot.bottom());
        const RoofDash dash = roof_dash(roof->device);
        const float step = dash.on > 0 ? dash.on + dash.off : plot.right() - start;
        for (float x = start; step > 0 && x < plot.right(); x += step) {
            const float w = std::min(dash.on > 0 ? dash.on : step, plot.right() - x);
            c.b.rect(x, band_top, w, band_bottom - band_top, c.b.palette().text);
        }
        const std::string label = device_prefix(roofline, roof->device) + roof->label +
                                  common::format_text(" %.0f", roof->tflops);
        const float label_y = std::max(y - c.size / 2, label_bottom + 1.0f);
        text_line(c, plot.right() + kTickGap, label_y, label);
        label_bottom = label_y + c.size;
    }
}

// Each drawable run's square and number in the plot, and its legend line from legend_y down,
// then the note on "est." when a run is estimated. Returns the y of the next legend line.
float draw_runs(RooflineCanvas& c, const Roofline& roofline, const Plot& plot, float legend_y) {
    const Palette& palette = c.b.palette();
    const float size = c.size;
    bool any_estimate = false;
    // The numbers beside the markers, placed so that none covers another or a marker.
    std::vector<Box> markers, sizes;
    for (size_t i = 0; i < roofline.points.size(); ++i) {
        const RooflinePoint& point = roofline.points[i];
        if (!drawable(point)) continue;
        const float x = plot.px(point.intensity), y = plot.py(point.tflops);
        markers.push_back({x - kMarker / 2, y - kMarker / 2, kMarker, kMarker});
        sizes.push_back({0, 0, text_width(std::to_string(i + 1).size(), size), size});
    }
    const std::vector<Box> numbers =
        place_labels(markers, sizes, {plot.left, plot.top, plot.w, plot.h});
    size_t drawn = 0;
    for (size_t i = 0; i < roofline.points.size(); ++i) {
        const RooflinePoint& point = roofline.points[i];
        if (!drawable(point)) continue;
        const Rgba fill = category_colour(palette, point.category);
        const std::string number = std::to_string(i + 1);
        const Box& marker = markers[drawn];
        c.b.rect(marker.x, marker.y, kMarker, kMarker, fill, palette.text, 1.0f, int(i));
        c.b.text(numbers[drawn].x, numbers[drawn].y, size, palette.text, TextAlign::kLeft, number);
        ++drawn;

        std::string line = number + " " + point.label + ": " +
                           common::format_text("%.1f FLOP/B", point.intensity) +
                           (point.estimated ? " est." : "") +
                           common::format_text(", %.1f TFLOP/s", point.tflops);
        const std::string share = share_text(roofline, point);
        if (!share.empty()) line += ", " + share;
        c.b.rect(kMargin, legend_y + 1.0f, size - 2.0f, size - 2.0f, fill);
        legend_y = wrapped_lines(c, kMargin + size + kSwatchLabelGap, legend_y, line);
        any_estimate = any_estimate || point.estimated;
    }
    if (any_estimate) {
        legend_y = wrapped_lines(c, kMargin, legend_y,
                                 "est.: intensity from compulsory traffic (A and B read once, C "
                                 "written once), no DRAM byte counts");
    }
    return legend_y;
}

// "roofs: DRAM 3.35 TB/s (theoretical), bf16 tensor 780.0 TFLOP/s (measured)"; with two or
// more devices "roofs of <device> (dashed): ..."; "roofs: none known" without any.
std::string roofs_line(const Roofline& roofline, const std::vector<const ComputeRoof*>& roofs,
                       int device) {
    std::string line = "roofs:";
    if (roofline.devices.size() >= 2 && device < int(roofline.devices.size())) {
        line =
            "roofs of " + roofline.devices[size_t(device)] + " (" + roof_dash_name(device) + "):";
    }
    std::vector<std::string> parts;
    const double bandwidth = bandwidth_of(roofline, device);
    if (bandwidth > 0) {
        const MemoryRoof& memory = *memory_roof_of(roofline, device);
        parts.push_back(memory.label + " " + bandwidth_text(bandwidth) + " (" + memory.origin +
                        ")");
    }
    for (const ComputeRoof* roof : roofs) {
        if (roof->device != device) continue;
        parts.push_back(roof->label + common::format_text(" %.1f TFLOP/s", roof->tflops) + " (" +
                        roof->origin + ")");
    }
    return line + (parts.empty() ? " none known" : " " + common::join(parts, ", "));
}

}  // namespace

DrawList roofline_chart(const Roofline& roofline, const RooflineOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float size = options.text_size;
    const int devices = device_count(roofline);
    const std::vector<const ComputeRoof*> roofs = drawn_roofs(roofline);
    const ChartAxes axes = chart_axes(roofline, roofs, devices, options.min_decades);
    RooflineCanvas c{DrawListBuilder(palette), size, kMargin, options.max_width};

    float top = kMargin;
    if (!options.title.empty()) {
        text_line(c, kMargin, top, options.title);
        top += size + 8.0f;
    }
    size_t y_tick_chars = 0;
    for (int d = axes.y.first; d <= axes.y.last; ++d) {
        y_tick_chars = std::max(y_tick_chars, decade_text(d).size());
    }
    const float plot_left = kMargin + text_width(y_tick_chars, size) + kTickGap;
    c.b.text(plot_left, top, size, palette.text, TextAlign::kLeft, "TFLOP/s");
    top += size + 8.0f;
    const Plot plot{axes.x,
                    axes.y,
                    options.decade_px,
                    plot_left,
                    top,
                    options.decade_px * float(axes.x.decades()),
                    options.decade_px * float(axes.y.decades())};

    const float x_label_y = draw_frame(c, plot);
    for (int device = 0; device < devices; ++device) {
        draw_memory_roof(c, roofline, plot, device, devices, axes.top_roof[size_t(device)]);
    }
    draw_compute_roofs(c, roofline, plot, roofs);
    float legend_y = draw_runs(c, roofline, plot, x_label_y + size + 10.0f);
    for (int device = 0; device < devices; ++device) {
        legend_y = wrapped_lines(c, kMargin, legend_y, roofs_line(roofline, roofs, device));
    }

    c.b.draw().width = std::ceil(c.right + kMargin);
    c.b.draw().height = std::ceil(legend_y - 4.0f + kMargin);
    return c.b.take();
}

}  // namespace tclens::viz
