// viz/warp_timeline_view.h: the records the Timeline panel paints and `tclens trace --svg` writes:
// one row per warp under its block's header, one bar per phase in its phase's colour and at its
// time, the legend of the phases present, and the window clipping the bars.
#include "viz/warp_timeline_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace tclens::viz {
namespace {

WarpPhase phase(int block, int warp, int sm, TracePhase kind, std::int64_t start,
                std::int64_t end) {
    return {block, warp, sm, kind, 0, start, end, 0};
}

// Block 0 on SM 3: warp 0 loads then waits, warp 1 multiplies twice; block 1 on SM 5: warp 0
// stores. 1000 ns in all.
WarpTrace sample_trace() {
    WarpTrace t;
    t.kernel = "wgmma_ws.f16";
    t.m = t.n = t.k = 256;
    t.blocks_launched = 4;
    t.blocks_traced = 2;
    t.warps_per_block = 2;
    t.phases = {phase(0, 0, 3, TracePhase::kLoadIssue, 0, 100),
                phase(0, 0, 3, TracePhase::kEmptyWait, 100, 400),
                phase(0, 1, 3, TracePhase::kWgmma, 100, 300),
                phase(0, 1, 3, TracePhase::kWgmma, 500, 700),
                phase(1, 0, 5, TracePhase::kStore, 900, 1000)};
    return t;
}

const DrawRect* bar(const DrawList& draw, int hit) {
    for (const DrawRect& r : draw.rects) {
        if (r.hit == hit) return &r;
    }
    return nullptr;
}

bool has_text(const DrawList& draw, const std::string& text) {
    return std::any_of(draw.texts.begin(), draw.texts.end(),
                       [&](const DrawText& t) { return t.text == text; });
}

TEST(WarpTimelineView, OneBarPerPhaseInItsColourAndAtItsTime) {
    const WarpTrace trace = sample_trace();
    TimelineOptions options;
    options.width = 1000 + kTimelineLabelWidth + 8;  // 1 px per ns
    const DrawList draw = warp_timeline(trace, options);
    const Palette& palette = dark_palette();
    for (int i = 0; i < 5; ++i) {
        const DrawRect* r = bar(draw, i);
        ASSERT_NE(r, nullptr) << i;
        const WarpPhase& p = trace.phases[static_cast<std::size_t>(i)];
        EXPECT_EQ(r->fill, category_colour(palette, static_cast<int>(p.phase))) << i;
        EXPECT_FLOAT_EQ(r->x, kTimelineLabelWidth + static_cast<float>(p.start_ns)) << i;
        EXPECT_FLOAT_EQ(r->w, static_cast<float>(p.end_ns - p.start_ns)) << i;
    }
    // Rows: the two phases of warp 0 share one, warp 1 is below it, block 1's warp 0 lower still.
    EXPECT_EQ(bar(draw, 0)->y, bar(draw, 1)->y);
    EXPECT_EQ(bar(draw, 2)->y, bar(draw, 3)->y);
    EXPECT_GT(bar(draw, 2)->y, bar(draw, 0)->y);
    EXPECT_GT(bar(draw, 4)->y, bar(draw, 2)->y);
    EXPECT_TRUE(has_text(draw, "block 0  SM 3"));
    EXPECT_TRUE(has_text(draw, "block 1  SM 5"));
    EXPECT_TRUE(has_text(draw, "w1"));
    EXPECT_GT(draw.height, bar(draw, 4)->y + bar(draw, 4)->h);
}

TEST(WarpTimelineView, TheLegendNamesThePhasesPresentOnly) {
    const DrawList draw = warp_timeline(sample_trace(), {});
    // In words, never the raw ids.
    for (const char* words :
         {"issues loads", "waits for an empty stage", "multiplies (wgmma)", "stores C"}) {
        EXPECT_TRUE(has_text(draw, words)) << words;
    }
    for (const char* name : {"load_issue", "empty_wait", "wgmma", "store"}) {
        EXPECT_FALSE(has_text(draw, name)) << name;
    }
    for (const char* words : {"waits for a full stage", "waits for the block"}) {
        EXPECT_FALSE(has_text(draw, words)) << words;
    }
    // Each legend swatch is the colour of its phase.
    const Palette& palette = dark_palette();
    const auto swatches =
        std::count_if(draw.rects.begin(), draw.rects.end(), [&](const DrawRect& r) {
            return r.hit < 0 && r.w == r.h &&
                   r.fill == category_colour(palette, static_cast<int>(TracePhase::kWgmma));
        });
    EXPECT_EQ(swatches, 1);
}

TEST(WarpTimelineView, TheWindowClipsAndScalesTheBars) {
    const WarpTrace trace = sample_trace();
    TimelineOptions options;
    options.width = 500 + kTimelineLabelWidth + 8;
    options.view_start_ns = 200;
    options.view_end_ns = 700;  // 1 px per ns again
    const DrawList draw = warp_timeline(trace, options);
    EXPECT_EQ(bar(draw, 0), nullptr);     // load_issue [0, 100) is before the window
    EXPECT_EQ(bar(draw, 4), nullptr);     // store [900, 1000) after it
    const DrawRect* wait = bar(draw, 1);  // [100, 400) clipped to [200, 400)
    ASSERT_NE(wait, nullptr);
    EXPECT_FLOAT_EQ(wait->x, kTimelineLabelWidth);
    EXPECT_FLOAT_EQ(wait->w, 200.0f);
    const DrawRect* second = bar(draw, 3);  // [500, 700)
    ASSERT_NE(second, nullptr);
    EXPECT_FLOAT_EQ(second->x, kTimelineLabelWidth + 300.0f);
    // Even clipped away, block 1 keeps its row, so two traces drawn alike line up.
    EXPECT_TRUE(has_text(draw, "block 1  SM 5"));
}

TEST(WarpTimelineView, AShortPhaseIsStillOnePixelWide) {
    WarpTrace trace = sample_trace();
    trace.phases.push_back(phase(1, 0, 5, TracePhase::kEpilogue, 10, 10));
    normalise_trace(trace);
    const DrawList draw = warp_timeline(trace, {});
    for (const DrawRect& r : draw.rects) {
        if (r.hit >= 0) {
            EXPECT_GE(r.w, 1.0f);
        }
    }
    EXPECT_TRUE(has_text(draw, phase_words(TracePhase::kEpilogue)));
}

// How phase `hit`'s bar looks: its fill, and the fill of the band across it if it has one.
std::pair<Rgba, Rgba> bar_look(const DrawList& draw, int hit) {
    std::vector<Rgba> fills;
    for (const DrawRect& r : draw.rects) {
        if (r.hit == hit) fills.push_back(r.fill);
    }
    EXPECT_TRUE(fills.size() == 1 || fills.size() == 2) << hit;
    return {fills.at(0), fills.size() == 2 ? fills[1] : kTransparent};
}

// The high-contrast palette has 8 colours for 11 phases: the three whose colour repeats carry a
// band, so a stream-K trace's tile_schedule, fixup_wait and fixup_reduce do not pass for
// load_issue, full_wait and empty_wait.
TEST(WarpTimelineView, EveryPhaseLooksDifferentInEveryPalette) {
    WarpTrace trace = sample_trace();
    trace.phases.clear();
    for (int i = 0; i < kTracePhaseCount; ++i) {
        trace.phases.push_back(phase(0, i, 1, static_cast<TracePhase>(i), 100 * i, 100 * i + 50));
    }
    for (const Palette* palette : {&dark_palette(), &high_contrast_palette()}) {
        SCOPED_TRACE(palette->name);
        TimelineOptions options;
        options.palette = palette;
        const DrawList draw = warp_timeline(trace, options);
        for (int a = 0; a < kTracePhaseCount; ++a) {
            for (int b = a + 1; b < kTracePhaseCount; ++b) {
                const auto look_a = bar_look(draw, a), look_b = bar_look(draw, b);
                EXPECT_FALSE(look_a.first == look_b.first && look_a.second == look_b.second)
                    << phase_name(static_cast<TracePhase>(a)) << " and "
                    << phase_name(static_cast<TracePhase>(b));
            }
        }
    }
}

TEST(WarpTimelineView, TheWholeWindowEndsAtTheLastPhase) {
    EXPECT_EQ(trace_end_ns(sample_trace()), 1000);
    EXPECT_EQ(trace_end_ns(WarpTrace{}), 0);
}

}  // namespace
}  // namespace tclens::viz
