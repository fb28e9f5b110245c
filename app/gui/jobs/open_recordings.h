#pragma once
// The recordings open in the GUI (AppContext::recording and ::recordings): opening one (on the
// calling thread or on the job runner), closing one, publishing one just written. The job runner
// opens and saves, the UI thread closes: each read-modify-write of context.recordings holds one
// lock.

#include <atomic>
#include <memory>
#include <string>

#include "app/gui/jobs/job_runner.h"
#include "profiling/device_info.h"

namespace tclens::gui {

struct AppContext;
struct OpenRecording;

// The recording the app ships: recordings/h200.json.gz in the assets folder (app/asset_paths.h:
// the installed share/tclens/, the checkout's assets/); "" when there is none.
std::string shipped_recording_path();

// The recording the app opens by itself at start, once the GPU query answered `has_gpu`: the
// shipped one where there is no GPU and no recording was asked for; "" for none.
std::string start_up_recording_path(bool has_gpu, bool asked_for);

// start_up_recording_path for each answer of the GPU query (AppContext::system) until a recording
// is open or one was asked for. A worker switch (File > Connect) cancels the jobs, an open of the
// shipped recording among them, and asks again: its answer is weighed anew.
class StartUpRecording {
  public:
    // The path to open now: "" while `system` is null (not answered) or was weighed before, or
    // when `open_or_asked_for`.
    std::string weigh(const std::shared_ptr<const profiling::SystemReport>& system,
                      bool open_or_asked_for);

  private:
    std::shared_ptr<const profiling::SystemReport> weighed_;
};

// `opened` joins context.recordings (in the place of one of the same path) and becomes
// context.recording.
void publish_open_recording(AppContext& context, std::shared_ptr<const OpenRecording> opened);

// Loads `path` on the calling thread and, when it is a recording, publishes it as
// context.recording and among context.recordings (replacing a recording of the same path).
// Returns "" or the one-line error (profiling::load_recording's; "...: cancelled" once `cancel`
// turned true).
std::string open_recording_now(AppContext& context, const std::string& path,
                               const std::atomic<bool>* cancel = nullptr);

// Takes the recording of `path` out of context.recordings; when it was context.recording, the
// newest of those left (or none) takes its place. Nothing when no open recording has that path.
void close_recording(AppContext& context, const std::string& path);

// open_recording_now on the job runner; a failure becomes the job's error. With
// `echo_to_stderr` the error is also printed (`tclens --open F` started from a terminal).
JobHandle request_open_recording(AppContext& context, std::string path,
                                 bool echo_to_stderr = false);

}  // namespace tclens::gui
