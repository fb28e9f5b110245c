// viz/time_window.h: the Timeline panel's zoom and pan stay inside the trace and keep the
// anchored time in place.
#include "viz/time_window.h"

#include <gtest/gtest.h>

namespace tclens::viz {
namespace {

void expect_window(TimeWindow w, std::int64_t start, std::int64_t end) {
    EXPECT_EQ(w.start_ns, start);
    EXPECT_EQ(w.end_ns, end);
}

TEST(TimeWindow, EmptyMeansTheWholeTrace) {
    expect_window(clamp_window({}, 1000), 0, 1000);
    expect_window(clamp_window({500, 400}, 1000), 0, 1000);
}

TEST(TimeWindow, TheHeaderExamples) {
    expect_window(zoom_window({0, 1000}, 2.0, 0.5, 1000), 250, 750);
    expect_window(pan_window({250, 750}, 0.5, 1000), 500, 1000);
}

TEST(TimeWindow, ZoomKeepsTheAnchoredTimeInPlace) {
    // Anchor at 0.2 of [0, 1000) is t = 200; after zooming in 4x it is still at 0.2.
    const TimeWindow w = zoom_window({0, 1000}, 4.0, 0.2, 1000);
    expect_window(w, 150, 400);
    // Zooming out again returns to the whole trace.
    expect_window(zoom_window(w, 0.25, 0.2, 1000), 0, 1000);
}

TEST(TimeWindow, NeverLeavesTheTraceNorNarrowsPastTheMinimum) {
    expect_window(pan_window({0, 500}, -3.0, 1000), 0, 500);
    expect_window(pan_window({0, 500}, 3.0, 1000), 500, 1000);
    expect_window(zoom_window({0, 1000}, 0.1, 0.9, 1000), 0, 1000);  // out past the whole
    const TimeWindow narrow = zoom_window({0, 1000}, 1e6, 0.5, 1000);
    EXPECT_EQ(narrow.end_ns - narrow.start_ns, kMinWindowNs);
    EXPECT_LE(narrow.start_ns, 500);
    EXPECT_GE(narrow.end_ns, 500);
    expect_window(clamp_window({900, 1400}, 1000), 500, 1000);  // shifted, width kept
    expect_window(clamp_window({0, 10}, 40), 0, 40);  // shorter than the minimum: the whole
}

}  // namespace
}  // namespace tclens::viz
