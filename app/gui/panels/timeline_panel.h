#pragma once
// Timeline panel: what every traced warp of a kernel did, and when. One row per warp,
// grouped by block and the SM it ran on, each phase (viz/trace_phase.h) a bar in its colour with
// a legend of the names; hover a bar for its phase, duration and K tile. Two traces (say rung 9's
// one warpgroup above rung 10's producer and consumers) are drawn one above the other on one time
// scale. Zoom and pan: mouse wheel (at the mouse), drag, and the keys = and - (zoom), comma and
// period (pan), 0 (whole trace). Under each trace its summary: time share of each phase kind and
// the tensor pipe's idle gaps between K tiles (viz/warp_trace_summary.h).
//
// Where a trace comes from, first match wins per slot: a trace file opened into it (`tclens trace
// --json`, setting open= / compare_open=, or the panel's Open field); one taken in the worker in
// this session (Trace on GPU, jobs/trace_job.h); the open recording's trace of the kernel
// (profiling/recording.h "traces"; an older recording says why it has none). The drawing is
// viz/warp_timeline_view's draw records.

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/jobs/bulk_read.h"
#include "app/gui/jobs/job_runner.h"
#include "app/gui/panels/panel.h"
#include "app/gui/panels/size_field.h"
#include "kernels/gemm.h"
#include "viz/time_window.h"
#include "viz/warp_trace.h"

namespace tclens::gui {

// Reads a trace file (viz/warp_trace_json.h) of at most 64 MiB. False, with `error` one line
// naming the path and what is wrong.
bool load_trace_file(const std::string& path, viz::WarpTrace& trace, std::string& error);

class TimelinePanel : public Panel {
  public:
    TimelinePanel();
    // kernel=ID (a kernel with trace points: rungs 8-12), compare=ID|none (the
    // trace drawn below), mnk=MxNxK, blocks=N (blocks traced, 1..1024; of a longer trace the
    // first N are drawn), open=FILE (a trace JSON
    // shown above, instead of the kernel's), compare_open=FILE (shown below), window=A..B (the
    // time shown, microseconds, e.g. 0..2.5; "all" for the whole trace), run=on (trace on the GPU
    // as soon as one is known), controls=on|off (off: the kernel, size and file rows are hidden,
    // for a lecture's screen).
    std::string apply_setting(std::string_view key, std::string_view value) override;

    // The time shown (empty: the whole trace), for the tests.
    viz::TimeWindow window() const { return window_; }

  private:
    // One of the two traces: the upper (0) or the lower (1).
    struct Slot {
        std::shared_ptr<const viz::WarpTrace> file;  // a trace file opened into it, else null
        std::string file_path;
    };
    struct Shown {
        std::shared_ptr<const viz::WarpTrace> trace;  // nullptr: nothing to show
        std::string source;                           // where it came from, or why there is none
    };

    void draw_contents(AppContext& context) override;
    void draw_controls(AppContext& context);
    void draw_file_row();
    // The trace of `slot`; while the open recording's traces are read (`bulk_ready` false), none
    // and the read's progress.
    Shown shown(AppContext& context, int slot, bool bulk_ready) const;
    // Paints one trace at the cursor and handles hover, wheel and drag on it.
    void draw_trace(const viz::WarpTrace& trace, std::int64_t total_ns);
    void draw_summary(const viz::WarpTrace& trace) const;
    void handle_keys(std::int64_t total_ns);
    std::string open_file(int slot, const std::string& path);
    const std::string& kernel_id(int slot) const;

    std::vector<std::string> traced_kernels_;  // ids of the kernels with trace points
    int kernel_ = 0;                           // index into traced_kernels_
    int compare_ = -1;                         // index into traced_kernels_; -1 none
    std::array<Slot, 2> slots_;
    SizeField size_;
    int blocks_ = 8;
    std::array<char, 1024> path_buffer_{};
    std::string file_error_;
    viz::TimeWindow window_;
    bool dragging_ = false;    // the left button went down on a trace and is still down
    float bars_width_ = 1.0f;  // on screen, pixels: what a drag's pixels are worth in time
    bool run_requested_ = false;
    bool controls_ = true;  // controls=off: only the traces, for a lecture's screen
    JobHandle job_;
    BulkRead bulk_read_;  // the open recording's traces, read on the job runner
};

}  // namespace tclens::gui
