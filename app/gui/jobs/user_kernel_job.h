#pragma once
// Users' kernels in the GUI (docs/your-kernel.md): File > Open kernel..., a .cu dropped on the
// window, the Kernels panel's "yours" group and its Watch toggle, the Fragments panel's exercise
// overlay, the Source panel's source profile of a kernel of yours. Their code runs only in the
// worker process: every job here talks to it through AppContext::worker (app/worker/client.h), on
// the job runner's one thread, so no two calls overlap. A worker that crashes, hangs or faults
// fails the version (or exercise) with one line; the client starts a fresh worker at the next
// request; the GUI goes on drawing.
//
// Snapshots are immutable: each job copies the newest UserKernels, changes its copy and
// publishes it. Only the runner thread publishes, so no change is lost between two jobs.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/jobs/gui_worker.h"
#include "app/gui/jobs/job_runner.h"
#include "app/gui/jobs/panel_link.h"
#include "app/worker/client.h"
#include "app/worker/results.h"
#include "app/worker/watch_versions.h"
#include "kernels/gemm.h"

namespace tclens::gui {

struct AppContext;

// One kernel of yours and every version built of it (v1, v2, ...).
struct UserKernel {
    std::string ref;    // path.cu[:NAME][:TYPE], as opened
    std::string id;     // "yours.matmul_3" once a load told it; else the file's name
    std::string form;   // "host launcher", "directive kernel" (from the last load); "" before
    std::string title;  // the descriptor's title, "" before the first load
    std::vector<worker::WatchVersion> versions;  // in build order, number = index + 1
    // The newest good version (verified and timed); -1 when none. A version that fails to build
    // leaves it where it was: the last good one stays on screen.
    int last_good = -1;
    const worker::WatchVersion* newest() const {
        return versions.empty() ? nullptr : &versions.back();
    }
};

struct UserKernels {
    std::vector<UserKernel> kernels;  // in the order they were opened; a ref opened again keeps
                                      // its place and gets a new version
    int find(const std::string& ref) const;  // index, or -1
};

// What the last exercise run said (Fragments panel overlay).
struct ExerciseRun {
    std::string ref;
    std::string error;  // one line when there is no result (compile error, worker lost, no GPU)
    std::optional<worker::ExerciseResult> result;
};

// "" when `ref` is a kernel ref the worker can be asked about (kernels/user/kernel_ref.h: a .cu
// or .cuh path, optionally :NAME and :TYPE), else one line naming the value.
std::string check_user_kernel_ref(const std::string& ref);

// The instruction's layout id ("mma.m16n8k8.tf32") when the file `ref` names is a one-warp
// fragment exercise (form 3), read from its text by the pure discovery
// (kernels/user/discovery.h); "" when it cannot be read or is not one (the worker then says what
// is wrong with it).
std::string exercise_layout_of(const std::string& ref);

// Builds the next version of `ref` at `problem` in the worker: load (with its cubin's instruction
// mix), bench next to cuBLAS, and with `profile` a profile and a PM timeline
// (app/worker/version_build.h), and publishes it in context.user_kernels ("Build
// yours.x v3"). A new ref joins the list first, so it shows while it builds.
JobHandle request_user_kernel_build(AppContext& context, std::string ref,
                                    kernels::GemmProblem problem, bool profile = true);

// Runs the exercise `ref` in the worker and publishes it in context.exercise ("Exercise F").
JobHandle request_exercise(AppContext& context, std::string ref);

// Builds `ref` as its file is now in the worker (load, compiled with line info) and takes its
// source profile at `problem` there (the `source` request: PC sampling, per-instruction counts, its
// SASS on the lines of its own file), then publishes it in context.source_profile ("Source F").
// What fails (a compile error, no GPU, a worker lost) is published as the profile's error, one
// line, under the id the ref names (user_source_id).
JobHandle request_user_source_profile(AppContext& context, std::string ref,
                                      kernels::GemmProblem problem);

// The id a source profile of `ref` carries: the worker's id for it ("yours.matmul_3",
// kernels/user/kernel_ref.h), or `ref` itself when it is no kernel ref.
std::string user_source_id(const std::string& ref);

// Where File > Open kernel... and a .cu dropped on the window send `ref`: an exercise to the
// Fragments panel ("exercise=REF": it runs it and overlays the result on the instruction's
// layout), any other kernel to the Kernels panel ("open=REF": it builds it at its sizes in the
// "yours" group). The panels post the jobs. Returns false with `error` one line when the ref is
// no kernel ref (nothing to open).
bool user_kernel_link(const std::string& ref, PanelLink& link, std::string& error);

}  // namespace tclens::gui
