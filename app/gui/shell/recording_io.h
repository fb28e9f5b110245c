#pragma once
// Opening and saving recordings (profiling/recording.h) in the GUI: File > Open recording... and
// Save recording as... (a path popup: Dear ImGui 1.86 has no file dialog; the last 8 paths are
// remembered in $XDG_CONFIG_HOME/tclens/recent_recordings, or ~/.config/...), files dropped on
// the window, `tclens --open FILE`, and, on a machine without a GPU where nothing else was
// opened, the shipped recording at start.
//
// Opening, closing and publishing are jobs/open_recordings.h's. Loads and saves run on the job
// runner, so a large file never holds up a frame. A load publishes context.recording; a failure
// ends its job with one line, which the status bar shows (JobStatus::last_error: "Open recording:
// cannot open recording F: ..."), and the app goes on with whatever was open before.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "app/gui/jobs/open_recordings.h"

namespace tclens::gui {

struct AppContext;
struct OpenRecording;

// Writes gui::session_recording of the context's newest snapshots to `path` on the job runner
// (atomically) and publishes what was written as the open recording, under its new path.
JobHandle request_save_recording(AppContext& context, std::string path);

// The File menu's part in recordings, the path popups and the start-up recording. One per
// shell; UI thread only.
class RecordingIo {
  public:
    RecordingIo();  // reads the recent paths

    // Inside the open File menu: Open recording..., Save recording as..., Open recent.
    void draw_file_menu_items();
    // Opens the Open recording... popup from the next draw(), as the menu item does.
    void request_open() { open_requested_ = true; }
    // Once per frame, after the menu: the popups the menu asked for, and the shipped recording
    // once the GPU query has found no GPU and nothing was asked to open.
    void draw(AppContext& context);
    // Opens `path` (a dropped file, `--open`) and remembers it as recent.
    void open(AppContext& context, const std::string& path, bool echo_to_stderr = false);

    const std::vector<std::string>& recent() const { return recent_; }

  private:
    void remember(const std::string& path);
    void draw_path_popup(AppContext& context, bool saving);

    std::vector<std::string> recent_;                   // newest first; a path joins once it opened
    std::shared_ptr<const OpenRecording> last_opened_;  // context.recording as last seen
    std::string pending_open_;                          // picked in Open recent, opened in draw()
    std::array<char, 1024> path_buffer_{};
    bool open_requested_ = false;  // the menu asked for a popup this frame
    bool save_requested_ = false;
    bool can_save_ = false;       // session_recording has something (as of the last frame)
    bool asked_to_open_ = false;  // a recording was asked for: no start-up recording
    StartUpRecording start_up_;
};

}  // namespace tclens::gui
