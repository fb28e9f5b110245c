#pragma once
// The app without a window: Dear ImGui's "null backend". Every frame runs the same ShellFrame
// as the windowed app (panels, jobs, snapshots, links) and builds every draw list, but nothing
// is rasterised and no display, GLFW or OpenGL is needed. Used on GPU servers to measure what
// the GUI does with a GPU behind it (live profile update rate, frame cost, memory over a soak)
// and to read back what the panels show (their text, through ImGui's logging).
//
// Frame cost here is NewFrame -> Render on the CPU: layout and draw-list building, which is
// all of a frame's work except the OpenGL upload and rasterisation of the draw lists.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/shell/frame_stats.h"

namespace tclens::gui {

struct HeadlessOptions {
    int width = 1440;
    int height = 900;
    std::vector<std::string> settings;  // "PANEL.KEY=VALUE", applied before the first frame
    std::string view;  // "" keeps the default workspace; else this view alone fills the main area
    std::vector<std::string> open_paths;  // recordings to open at start, as `tclens --open`
    // Stop after this many frames (0: no frame limit). With text_path, the frames go on past it
    // (at most 60 s more) until the app's jobs are idle and the layout has settled
    // (layout_settle.h), so the text is what a user ends up seeing.
    int frames = 0;
    double seconds = 0;  // stop after this wall time (0: no time limit)
    // Stop once the Profile panel's live job has published this many updates (0: no limit).
    std::uint64_t until_live_updates = 0;
    // Stop after the first frame whose panel text holds this ("" : no such limit).
    std::string until_text;
    double fps = 60;  // frames are paced to this rate, as vsync would (0: as fast as possible)
    std::string text_path;      // the last frame's panel text is written here ("" : not written)
    double sample_every_s = 5;  // period of HeadlessReport::samples
};

struct HeadlessSample {
    double t_s = 0;                  // since the first frame
    std::uint64_t frames = 0;        // so far
    double frame_p95_ms = 0;         // over the frames since the previous sample
    std::uint64_t live_updates = 0;  // LiveProfile::updates of the newest snapshot
    std::size_t rss_bytes = 0;       // resident memory of the process
};

struct HeadlessReport {
    FrameStats::Times frame_times;  // after the warm-up frames
    std::uint64_t frames = 0;
    double wall_s = 0;
    std::size_t vertices_last_frame = 0;  // of all draw lists: the UI was really built
    // Live profile as the frames saw it: distinct snapshots a frame picked up, and their rate
    // between the first and the last one seen.
    std::uint64_t live_snapshots_seen = 0;
    double live_seen_per_s = 0;
    std::uint64_t live_updates = 0;     // LiveProfile::updates of the newest snapshot
    double live_job_updates_per_s = 0;  // LiveProfile::updates_per_s of the newest snapshot
    std::string live_error;             // LiveProfile::error of the newest snapshot
    // Metrics mode: per kernel of the newest snapshot, (id, its updates), in request order.
    std::vector<std::pair<std::string, std::uint64_t>> live_kernel_updates;
    std::size_t rss_after_warm_up_bytes = 0;  // at the end of the first sample period
    std::size_t rss_end_bytes = 0;
    std::vector<HeadlessSample> samples;
};

// Runs frames until a limit in `options` is reached or the shell asks to quit; until_text alone
// is no limit (it needs --frames, --seconds or --until-live-updates beside it). Returns an exit
// code: kExitUsage with `error` one line for a bad setting or view (or no limit at all),
// kExitFailure when the text file cannot be written, else kExitOk with `report` filled.
int run_headless(const HeadlessOptions& options, HeadlessReport& report, std::string& error);

// Resident memory of this process in bytes (/proc/self/statm); 0 when unknown.
std::size_t resident_bytes();

}  // namespace tclens::gui
