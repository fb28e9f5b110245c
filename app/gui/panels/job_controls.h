#pragma once
// The one widget with which every panel runs its GPU job: a Run button, a Cancel button for the
// job the panel posted (its JobHandle), then one status line: the job's progress while it runs,
// "queued behind N jobs" while it waits, else why Run is off ("querying the GPU...", "no GPU:
// bench needs one" with the driver's reason under it, the panel's own reason), else how the
// last job failed. job_line() decides the line without ImGui, so it is tested as data.

#include <functional>
#include <string>

#include "app/gui/jobs/job_runner.h"
#include "app/gui/views/theme.h"

namespace tclens::profiling {
struct SystemReport;
}

namespace tclens::gui {

// What a panel's job controls say.
struct JobControls {
    std::string run_label = "Run";  // ImGui label: "Run 4 benchmarks###run" keeps one id
    std::string run_tooltip;        // shown on hover, "" for none
    std::string cancel_label = "Cancel";
    std::string gpu_use;  // what needs the GPU: "no GPU: <gpu_use> needs one"
    std::string blocked;  // the panel's own reason Run is off ("fix the sizes first"); "" if none
    bool open_ended = false;  // the job runs until cancelled: its message as text, no progress bar
    // The job runs on the worker's GPU (app/worker/client.h, maybe another machine over ssh), not
    // this process's: the rules about this process's GPU are skipped, and the worker says itself
    // when it has none.
    bool worker_gpu = false;
};

enum class JobLineTone { kPlain, kDim, kNote, kError };

// The status line after the buttons.
struct JobLine {
    std::string text;  // "" draws nothing
    JobLineTone tone = JobLineTone::kDim;
    bool progress_bar = false;  // `text` inside a bar filled to `fraction`
    float fraction = 0.0f;
    std::string detail;  // a dim line under it (why there is no GPU); "" for none
};

// The line for the panel's job `job` (a default JobSnapshot when it has posted none) on
// `system` (nullptr while the device query runs), first match wins:
//   running      -> its message ("running" when it has none), in a progress bar unless
//                   open-ended, where it is plain text
//   queued       -> "queued behind N job(s)", dim
//   no system    -> "querying the GPU...", dim         (not for controls.worker_gpu, nor
//                                                       under an injected fault that strikes
//                                                       after the device checks:
//                                                       kernels/fault_injection.h)
//   no GPU       -> "no GPU: <gpu_use> needs one", note, detail: the system's no_gpu_reason
//                                                       (not for those either)
//   blocked      -> controls.blocked, dim
//   failed       -> the job's error, error
//   otherwise    -> "" (done, cancelled or never run: the panel shows the results)
JobLine job_line(const JobControls& controls, const JobSnapshot& job,
                 const profiling::SystemReport* system);

// Run is on: no job of the panel's is queued or running, there is a GPU (or worker_gpu, or such
// an injected fault) and nothing blocks it.
bool job_can_start(const JobControls& controls, const JobSnapshot& job,
                   const profiling::SystemReport* system);

// Draws Run, the cancel button (on while `job` is queued or running; it calls job.cancel()),
// then `between` (a panel's extra buttons, may be empty), then job_line() in `theme`'s colours.
// After SameLine() beside a panel's other controls, the two buttons start a new row where they
// do not fit before the pane's edge.
// Returns true on the frame Run is clicked: the caller posts its job and keeps the handle.
bool draw_job_controls(const JobControls& controls, const JobHandle& job,
                       const profiling::SystemReport* system, const Theme& theme,
                       const std::function<void()>& between = {});

}  // namespace tclens::gui
