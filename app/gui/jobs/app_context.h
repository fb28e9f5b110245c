#pragma once
// What every panel may read or post to: the job runner, the published snapshots and links to
// other panels.
// Panels never call CUDA or CUPTI themselves; they post jobs that publish snapshots here.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/bank_measure_job.h"
#include "app/gui/jobs/bench_job.h"
#include "app/gui/jobs/job_runner.h"
#include "app/gui/jobs/layout_verify_job.h"
#include "app/gui/jobs/panel_link.h"
#include "app/gui/jobs/profile_job.h"
#include "app/gui/jobs/published.h"
#include "app/gui/jobs/trace_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/worker/client.h"
#include "profiling/device_info.h"
#include "profiling/recording.h"
#include "profiling/source/source_profile.h"

namespace tclens::gui {

// A recording opened in the GUI (File > Open, drag and drop, `tclens --open FILE`, or the
// shipped one at start on a machine without a GPU).
struct OpenRecording {
    std::string path;
    profiling::Recording recording;
};

// Every recording open at once, in the order they were opened (a file opened again takes its
// old place): Compare and the Kernels panel's chart hold runs of each. The newest opened is
// also AppContext::recording, the one the other panels show.
struct OpenRecordings {
    std::vector<std::shared_ptr<const OpenRecording>> list;
};

// Where kernels of yours run: the worker that answered last (its host and GPUs) and, when the
// last build could not run there (no GPU on that host, no worker starts), why, in one line.
struct WorkerStatus {
    worker::HelloResult hello;  // pid 0: no worker answered
    std::string unavailable;    // "" or the worker's line, e.g. "no GPU on gpu1: ..."
};

struct AppContext {
    Published<profiling::SystemReport> system;    // the worker's GPUs; nullptr until its hello
    Published<worker::HelloResult> worker_hello;  // its whole hello; nullptr until one answered
    Published<LayoutVerification> layout_verification;  // the last "Verify on GPU" result
    Published<BankMeasurements> bank_measurements;      // the last Banks "Measure on GPU" result
    Published<BenchResults> bench_results;              // the last Kernels "Run" result
    Published<LiveProfile> live_profile;   // the Profile panel's live job, newest update
    Published<OpenRecording> recording;    // the newest open recording; nullptr when none is open
    Published<OpenRecordings> recordings;  // every open recording; nullptr until one opened
    Published<profiling::SourceProfile> source_profile;  // the Source panel's last GPU profile
    Published<LiveTraces> live_traces;      // the Timeline panel's traces taken in the worker
    Published<UserKernels> user_kernels;    // kernels of yours and their versions; nullptr: none
    Published<ExerciseRun> exercise;        // the last fragment exercise run; nullptr: none
    Published<WorkerStatus> worker_status;  // after the first build of a kernel of yours
    // The worker process that runs every GPU job (app/worker/client.h): made by the first job
    // that needs it, used only on the job runner's thread (gui_worker.h), with these options
    // (set before the first frame: `--remote` runs it on another host; changed by
    // request_worker_switch only, on the UI thread while no job runs or waits, so a job always
    // reads the options it was posted under).
    std::unique_ptr<worker::WorkerClient> worker;
    worker::ClientOptions worker_options;
    // Links to other panels posted during a frame ("open this layout in Fragments"); UI thread
    // only. The shell follows them after the panel that posted them and clears the list.
    std::vector<PanelLink> panel_links;
    // A tour is playing (shell/tour_overlay.h): the keys that step it (arrows, Page Up/Down,
    // Home, End, Space) are its own, so no panel reads them. UI thread; the shell sets it before
    // the panels draw.
    bool tour_playing = false;
    JobRunner jobs;  // last: destroyed first, so no job outlives the snapshots it publishes
};

// Posts the device query to the job runner: the GPUs of the machine the worker runs on, as its
// hello names them (this process asks no CUDA), and the hello itself (worker_hello: the
// instruction mixes of the worker's build). A worker that cannot start publishes a report
// without GPUs whose no_gpu_reason is its one line, and no hello.
void request_system_query(AppContext& context);

// File > Connect to GPU server... (shell/connect_dialog.h): the worker runs where `options` say
// from now on. Forgets the GPUs, the hello and the worker the app had (the status bar says
// "querying the GPU..."), ends the old worker on the job runner and asks the new one for its GPUs
// (request_system_query). UI thread; precondition: no job runs or waits (JobRunner::status).
void request_worker_switch(AppContext& context, worker::ClientOptions options);

}  // namespace tclens::gui
