#pragma once
// The roofline model of a GPU and where kernel runs sit under it, as numbers and as draw
// records (viz/draw_list.h): the Compare panel paints the chart with ImDrawList and exports the
// same records to SVG and PNG.
//
// Model: a run doing F FLOPs while moving B bytes between DRAM and the chip has arithmetic
// intensity I = F / B (FLOP/byte). It can reach at most
//     attainable(I) = min(compute roof of its precision, I x DRAM bandwidth)
// The compute roofs are horizontal (a peak per precision: tensor pipe for tf32/f16/bf16/e4m3, FMA
// for f32); the memory roof is the sloped line I x bandwidth. They meet at the ridge point
// I = peak / bandwidth: to its left a run is bound by memory, to its right by compute.
//
// Chart, on log-log axes where one decade is options.decade_px long on both axes (so the
// memory roof rises at 45 degrees). The x axis covers every run and reaches 3x beyond each
// ridge on both sides (so each roof's bend shows); the y axis covers every run and every roof.
//   - the title (when not empty), then "TFLOP/s" above the plot's top-left corner;
//   - the plot: a frame filled with palette.grid at low alpha; a grid line at every decade of
//     both axes, with the decade's value under (x) or left of (y) the plot, and the x axis
//     label "arithmetic intensity (FLOP/byte)" under the tick values;
//   - the memory roof in palette.text, from where it enters the plot to the ridge of the highest
//     compute roof (to the plot's edge when there is none), drawn as a 2 px band of one rect per
//     pixel column, labelled under its lower end in two lines ("DRAM 3.35 TB/s", "theoretical");
//   - each compute roof in palette.text, from its ridge to the plot's right edge, 2 px thick,
//     labelled right of the plot ("bf16 tensor 780") at its height, labels pushed down where
//     they would overlap;
//   - each drawable run as a 9 x 9 square at (intensity, TFLOP/s), filled with
//     category_colour(palette, point.category), outlined in palette.text, with its number
//     (1-based) beside it, above-right where that is free: numbers are placed so that none
//     covers another number or a marker (place_labels, viz/label_placement.h);
//   - under the plot, a legend line per drawable run: a swatch of its colour, then
//     "1 <label>: 170.7 FLOP/B, 765.0 TFLOP/s, 97% of attainable (f16 tensor roof)" (the share
//     of attainable(I), naming the roof that bounds it; "est." after FLOP/B when the intensity
//     is a compulsory-traffic estimate, and then a line saying what "est." means), and a last
//     line naming every roof with its value and origin ("roofs: none known" without any).
// A run whose intensity or TFLOP/s is not a positive finite number is not drawn (and has no
// legend line). Roofs that are not positive and finite are left out.
//
// Several devices (runs of recordings made on different GPUs, or on one GPU at two times): every
// roof and run names its device (an index into Roofline::devices), a run is bounded by its own
// device's roofs, and with two or more devices each device's roofs are drawn in a style of their
// own (device 0 solid, 1 dashed, 2 dotted, ...: roof_dash), each roof label starts with the
// device's label ("H100 80GB HBM3, 2026-11-22: bf16 tensor 780"), a second device's DRAM label
// sits under the first's, and the legend ends with one roofs line per device
// ("roofs of H100 80GB HBM3, 2026-11-22 (dashed): DRAM ...").
#include <cstdint>
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

struct ComputeRoof {
    std::string precision;  // which runs it caps, e.g. "bf16" (matches RooflinePoint::precision)
    std::string label;      // e.g. "bf16 tensor"
    double tflops = 0;      // the peak, TFLOP/s
    std::string origin;     // how it was obtained, e.g. "measured"
    int device = 0;         // whose roof: an index into Roofline::devices
};

struct MemoryRoof {
    std::string label;       // e.g. "DRAM"
    double bytes_per_s = 0;  // 0: unknown (no memory roof)
    std::string origin;      // "measured" or "theoretical"
    int device = 0;
};

struct RooflinePoint {
    std::string label;       // e.g. "wgmma_persistent.f16 4096x4096x4096"
    std::string precision;   // picks the compute roof, e.g. "f16"
    double intensity = 0;    // FLOP/byte
    double tflops = 0;       // achieved
    bool estimated = false;  // intensity from compulsory traffic, not measured DRAM bytes
    int category = 0;        // fill: category_colour(palette, category)
    int device = 0;          // whose roofs bound it
};

struct Roofline {
    std::vector<ComputeRoof> compute;
    std::vector<MemoryRoof> memory;  // at most one per device
    std::vector<RooflinePoint> points;
    // Labels of the devices, by index ("H100 80GB HBM3, 2026-11-22"); with fewer than two the
    // chart names no device.
    std::vector<std::string> devices;
};

// How device d's roofs are drawn: {on, off} pixels along the roof; {0, 0} is solid.
// 0 -> solid, 1 -> {8, 5} dashed, 2 -> {2, 4} dotted, 3 -> {12, 3, ...} long dashes; then again.
struct RoofDash {
    float on = 0;
    float off = 0;
};
RoofDash roof_dash(int device);
// "solid", "dashed", "dotted", "long dashes".
const char* roof_dash_name(int device);

// 2 M N K: the FLOPs of one GEMM (a multiply-add counts 2).
double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k);

// Bytes a GEMM must move at least: A (M x K) and B (K x N) read once at `input_bytes` per
// element, C (M x N) written once at `output_bytes` (C is never read: no beta).
// Example: 4096^3, f16 in, f32 out -> 2 x 4096^2 x 2 + 4096^2 x 4 = 128 MiB.
double compulsory_bytes(std::int64_t m, std::int64_t n, std::int64_t k, int input_bytes,
                        int output_bytes);

// flops / bytes; 0 when bytes is not positive.
double arithmetic_intensity(double flops, double bytes);

// Intensity where the memory roof meets a compute roof: peak / bandwidth, in FLOP/byte.
// Example: 780 TFLOP/s over 3.35 TB/s -> 232.8. 0 when either is not positive.
double ridge_intensity(double peak_tflops, double bytes_per_s);

// min(peak_tflops, intensity x bytes_per_s / 1e12): the best TFLOP/s a run of that intensity
// can reach. A roof that is not positive is absent: with neither, 0.
double attainable_tflops(double intensity, double peak_tflops, double bytes_per_s);

// Device `device`'s compute roof whose precision is `precision`, or nullptr.
const ComputeRoof* roof_for(const Roofline& roofline, const std::string& precision, int device = 0);

// Device `device`'s memory roof, or nullptr.
const MemoryRoof* memory_roof_of(const Roofline& roofline, int device = 0);

// attainable_tflops under the point's own roofs (its device's compute roof of its precision, if
// any, and its device's memory roof); 0 when neither is known.
double attainable_for(const Roofline& roofline, const RooflinePoint& point);

// A log10 axis that starts and ends on a decade: [10^first, 10^last].
struct LogAxis {
    int first = 0;
    int last = 1;
    int decades() const { return last - first; }
};

// The decade-aligned range covering every positive finite value of `values`, at least
// `min_decades` wide (grown at the top, then at the bottom, alternately). No such value ->
// [10^0, 10^min_decades]. Example: {0.5, 170.7, 232.8}, 2 -> [10^-1, 10^3].
LogAxis log_axis(const std::vector<double>& values, int min_decades);

// Where `value` falls on `axis`, as a fraction 0 (10^first) .. 1 (10^last); outside the axis
// the fraction is below 0 or above 1. Precondition: value > 0.
double log_fraction(const LogAxis& axis, double value);

// The tick text of decade d: 10^d without float noise ("0.01", "0.1", "1", "10", "1000").
std::string decade_text(int d);

struct RooflineOptions {
    std::string title;        // "" for none
    float decade_px = 90.0f;  // length of one decade on both axes
    int min_decades = 2;      // of each axis
    float text_size = 13.0f;
    // Legend lines longer than this wrap after a ", " or ": " (the rest indented); 0: no wrap.
    float max_width = 0;
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

// Builds the chart. Point i's square has DrawRect::hit i; everything else has hit -1.
DrawList roofline_chart(const Roofline& roofline, const RooflineOptions& options);

}  // namespace tclens::viz
