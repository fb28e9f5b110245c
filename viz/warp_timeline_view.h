#pragma once
// A warp timeline (viz/warp_trace.h) as draw records (viz/draw_list.h): the Timeline panel paints
// them with ImDrawList, `tclens trace --svg` writes them as SVG.
//
// What is drawn, top to bottom:
//   - a title: kernel, size, blocks traced of blocks launched, the window shown;
//   - the legend: a swatch in category_colour(palette, phase id) and the words of each phase
//     kind the trace has (phase_words: "waits for a full stage", not "full_wait"), on more lines
//     where the next entry would pass the width; a phase id past
//     the palette's colours (whose colour repeats an earlier phase's) has a band of the background
//     across the middle third of its swatch and of its bars, so every two phases look different;
//   - per traced block, a header row "block B  SM S", then one row per warp that recorded
//     phases ("w0", "w1", ...), each phase a bar from its start to its end, at least 1 pixel
//     wide, clipped to the window [view_start_ns, view_end_ns);
//   - the time axis: ticks at round intervals, labelled in microseconds.
// Bars carry DrawRect::hit = the phase's index in trace.phases (hover); everything else -1.
#include <cstdint>

#include "viz/draw_list.h"
#include "viz/palette.h"
#include "viz/warp_trace.h"

namespace tclens::viz {

struct TimelineOptions {
    float width = 1200.0f;  // of the whole drawing, pixels
    float row_height = 14.0f;
    float text_size = 13.0f;
    // The window of time shown, ns; view_end_ns <= view_start_ns: the whole trace.
    std::int64_t view_start_ns = 0;
    std::int64_t view_end_ns = 0;
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

// Pixels left of the bars (warp labels); the bars span [kTimelineLabelWidth, width - 8).
inline constexpr float kTimelineLabelWidth = 64.0f;

DrawList warp_timeline(const WarpTrace& trace, const TimelineOptions& options);

// The trace's last end, ns (0 for none): the whole window's end.
std::int64_t trace_end_ns(const WarpTrace& trace);

}  // namespace tclens::viz
