#pragma once
// When the whole window has settled: no job of the app is running or queued and the workspace
// layout (WorkspaceLayout, workspace.h) has stayed the same for kQuietFrames frames in a row. Used
// where a frame is read as the one a user ends up seeing (`tclens screenshot --window`, `tclens
// --layout-json`).
//
// Why four: a job that finishes during frame k-1 shows in the view's contents in frame k; ImGui
// measures that content at the end of frame k, the shell takes it as the view's needed width in
// frame k+1 (shell_frame.cpp) and lays the panes out anew in frame k+2. So the layout may still
// change three frames after the jobs went idle.

#include <chrono>
#include <optional>

#include "app/gui/shell/workspace.h"

namespace tclens::gui {

class LayoutSettle {
  public:
    static constexpr int kQuietFrames = 4;
    // Settling waits at most this long past the frames asked for (a job that never ends). In
    // seconds, not frames: without vsync (Xvfb) 60 frames pass in a tenth of a second, less than
    // a loaded machine takes to open the shipped recording.
    static constexpr double kMaxExtraSeconds = 20.0;

    // After each frame: whether the app's jobs were idle and the layout it drew.
    void saw(bool jobs_idle, const WorkspaceLayout& layout) {
        quiet_ = jobs_idle && layout == last_ ? quiet_ + 1 : 0;
        last_ = layout;
    }
    bool settled() const { return quiet_ >= kQuietFrames; }
    // Once the frames asked for are drawn, each frame: whether settling may go on waiting (for
    // kMaxExtraSeconds from the first call).
    bool may_wait() {
        const auto now = std::chrono::steady_clock::now();
        if (!waiting_since_) waiting_since_ = now;
        return std::chrono::duration<double>(now - *waiting_since_).count() < kMaxExtraSeconds;
    }

  private:
    std::optional<std::chrono::steady_clock::time_point> waiting_since_;
    WorkspaceLayout last_;
    int quiet_ = 0;
};

}  // namespace tclens::gui
