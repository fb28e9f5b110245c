#pragma once
// The interactive app in its window: one frame of the shell (shell_frame.h) after another. The
// window opens at the monitor's work area, or the size remembered from the last run; the
// workspace (workspace.h) and the windows' places are remembered in the settings file
// (config_folder.h: imgui.ini).

#include <optional>
#include <string>
#include <vector>

#include "app/worker/remote_target.h"

namespace tclens::gui {

struct GuiShellOptions {
    int frames = 0;  // > 0: render this many frames, then exit 0 (tests, smoke checks)
    // > 0: run this long (wall clock), then exit 0 (soaks); with `frames`, whichever comes first.
    double seconds = 0;
    // "PANEL.KEY=VALUE" and "workspace.KEY=VALUE", applied before the first frame (the workspace
    // ones over the remembered workspace)
    std::vector<std::string> settings;
    // Print on exit: frame-time statistics (vsync off, so the frame's own cost is measured), then
    // "ran 2.004 s, the last frame began at 1.987 s" (the frame loop's wall time) and, when a tour
    // played, "tour: at step 2 of 3 after 5 step changes" (TourPlayer::changes(): its start and
    // every step since).
    bool frame_stats = false;
    // Recordings to open at start, in order (`tclens --open A --open B`): Compare holds runs of
    // each, the other panels show the last. An error, if any, also goes to stderr.
    std::vector<std::string> open_paths;
    // Start in lecture mode (`--lecture`: lecture_on_settings() in lecture_mode.h) with a tour.
    bool lecture = false;
    // The tour to start (`--tour FILE`); "" with `lecture` or tour_autoplay_s: the shipped one.
    std::string tour_path;
    double tour_autoplay_s = 0;  // > 0: next tour step every this many seconds, looping
    // > 0: exit 0 once the tour has made this many step changes (its start included), e.g. to
    // watch autoplay go round (tests); `seconds` still limits the run.
    unsigned long long until_tour_changes = 0;
    // Key chords (key_chord.h), "ctrl+2,ctrl+backslash": pressed one after another from the
    // third frame on, each held for one frame and released in the next.
    std::string press;
    // Pointer positions (pointer_moves.h), "640:2,640:650": the mouse pointer moved to each in
    // turn from the third frame on, one every second frame (alongside `press`).
    std::string mouse;
    // Where to write the last frame's layout report (layout_report.h); "" for none.
    std::string layout_json_path;
    // > 0: fonts and sizes follow this content scale instead of the monitor's (`--content-scale`).
    float content_scale = 0;
    // Where to write the text the shown panels drew in the last frame (ShellFrame::captured_text:
    // each panel's under "== ID ==", as `tclens headless --text` writes it); "" for none.
    std::string text_path;
    // `--remote [user@]host[:path]`: kernels of yours run in a worker on that host, through ssh
    // (docs/remote.md); the status bar names it.
    std::optional<worker::RemoteTarget> remote;
};

// Runs until the window closes; returns the process exit code. With no display it prints
// one line with the fix to stderr and returns kExitNeedsResource; a bad setting or key chord,
// kExitUsage; a layout report or text file that cannot be written, kExitFailure.
int run_gui_shell(const GuiShellOptions& options);

}  // namespace tclens::gui
