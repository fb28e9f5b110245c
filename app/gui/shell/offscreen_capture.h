#pragma once
// Renders one panel alone, or the whole app as a user sees it (menu, rail, main area, status
// bar: `--window`), into an offscreen framebuffer and writes it as a PNG (`tclens screenshot`):
// the same drawing code as on screen, without showing a window.

#include <string>
#include <string_view>
#include <vector>

#include "app/gui/views/lecture_mode.h"

namespace tclens::gui {

struct CaptureRequest {
    // The whole app (shell_frame.h) in its default workspace, changed by "workspace.KEY=VALUE"
    // settings; `view`, if set, alone in the main area; `settings` are "PANEL.KEY=VALUE". The
    // jobs the app starts with (the GPU query, on a machine without a GPU the shipped
    // recording) finish before the last frame, and frames go on past `frames` until the layout
    // has settled (workspace panes take the widths their views need). No settings file is read or
    // written.
    bool whole_window = false;
    std::string layout_json_path;  // the last frame's layout (layout_report.h; a view alone:
                                   // view_layout_report_json)
    std::string view;              // a panel id, e.g. "device"
    int width = 1280;
    int height = 800;
    std::string out_path;
    std::vector<std::string> settings;  // "KEY=VALUE" for the view (Panel::apply_setting)
                                        // ("PANEL.KEY=VALUE" with whole_window)
    int frames = 4;                     // frames drawn before the last one is read (layout settles)
    bool frame_stats = false;           // print frame-time statistics of those frames
    std::vector<std::string> open_paths;  // recordings to open first, in order (recording_io.h)
    // A tour's step (`--tour-step`), drawn as the app shows it: with no open_paths it opens what
    // the app opens at start (where there is no GPU, the shipped recording:
    // start_up_recording_path()), and with lecture.presentation the panel folds its controls
    // away (views/presentation.h) above the caption banner.
    bool tour_step = false;
    LectureSettings lecture;      // zoom and theme (lecture_mode.h); full screen does not apply
    float content_scale = 1.0f;   // as on a monitor of this content scale (not the monitor's own)
    std::string caption;          // "" for none, else shown in a tour banner at the bottom
    std::string caption_counter;  // beside the caption, e.g. "step 3 of 8"
};

// Returns an exit code; prints one line to stderr on failure (unknown view or setting: kExitUsage;
// no display: kExitNeedsResource; write failure, the PNG's or the layout's: kExitFailure). A
// recording that cannot be opened is one line and kExitFailure too, but the view is still
// rendered and written, without it.
int capture_view(const CaptureRequest& request);

}  // namespace tclens::gui
