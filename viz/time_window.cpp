#include "viz/time_window.h"

#include <algorithm>
#include <cmath>

namespace tclens::viz {

TimeWindow clamp_window(TimeWindow window, std::int64_t total_ns) {
    total_ns = std::max<std::int64_t>(total_ns, 1);
    if (window.end_ns <= window.start_ns) return {0, total_ns};
    const std::int64_t width = std::clamp<std::int64_t>(window.end_ns - window.start_ns,
                                                        std::min(kMinWindowNs, total_ns), total_ns);
    const std::int64_t start = std::clamp<std::int64_t>(window.start_ns, 0, total_ns - width);
    return {start, start + width};
}

TimeWindow zoom_window(TimeWindow window, double factor, double anchor, std::int64_t total_ns) {
    window = clamp_window(window, total_ns);
    if (!(factor > 0)) return window;
    anchor = std::clamp(anchor, 0.0, 1.0);
    const double width = static_cast<double>(window.end_ns - window.start_ns);
    const double at = window.start_ns + anchor * width;
    const double new_width = width / factor;
    const auto start = static_cast<std::int64_t>(std::llround(at - anchor * new_width));
    const auto end = static_cast<std::int64_t>(std::llround(at + (1.0 - anchor) * new_width));
    // Keep a legal width before clamp_window shifts it inside the trace.
    const std::int64_t min_width = std::min(kMinWindowNs, std::max<std::int64_t>(total_ns, 1));
    if (end - start < min_width) {
        const auto centre = static_cast<std::int64_t>(std::llround(at));
        return clamp_window({centre - min_width / 2, centre - min_width / 2 + min_width}, total_ns);
    }
    return clamp_window({start, end}, total_ns);
}

TimeWindow pan_window(TimeWindow window, double fraction, std::int64_t total_ns) {
    window = clamp_window(window, total_ns);
    const auto shift = static_cast<std::int64_t>(
        std::llround(fraction * static_cast<double>(window.end_ns - window.start_ns)));
    return clamp_window({window.start_ns + shift, window.end_ns + shift}, total_ns);
}

}  // namespace tclens::viz
