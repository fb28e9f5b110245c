#pragma once
// The window of time a timeline shows (viz/warp_timeline_view.h), and how zooming and panning
// move it: pure functions, so the Timeline panel's mouse wheel, drag and keys all go through the
// same clamping, and the unit tests check it without a window.
//
// A window always lies inside [0, total_ns] and is at least kMinWindowNs wide (or the whole
// trace, when that is shorter). {0, 0} (or any empty window) stands for the whole trace.
#include <cstdint>

namespace tclens::viz {

struct TimeWindow {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;  // end_ns <= start_ns: the whole trace
};

// The narrowest window zooming reaches: a few globaltimer ticks (32 ns each on GH100).
inline constexpr std::int64_t kMinWindowNs = 100;

// `window` made concrete and legal for a trace ending at `total_ns`: the whole [0, total_ns]
// when empty, else shifted (width kept) and, if need be, narrowed to lie inside it.
TimeWindow clamp_window(TimeWindow window, std::int64_t total_ns);

// Zooms by `factor` (> 1 in, < 1 out) about the time at `anchor`, a fraction of the window's
// width (0 its start, 1 its end; the mouse's place), which stays at the same place on screen.
// Example: {0, 1000}, factor 2, anchor 0.5, total 1000 -> {250, 750}.
TimeWindow zoom_window(TimeWindow window, double factor, double anchor, std::int64_t total_ns);

// Moves the window by `fraction` of its width (positive: later), width kept, clamped.
// Example: {250, 750}, fraction 0.5, total 1000 -> {500, 1000}.
TimeWindow pan_window(TimeWindow window, double fraction, std::int64_t total_ns);

}  // namespace tclens::viz
