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

#include "app/gui/shell/workspace.h"

namespace tclens::gui {

class LayoutSettle {
  public:
    static constexpr int kQuietFrames = 4;
    static constexpr int kMaxExtraFrames = 60;  // settling never adds more frames than this

    // After each frame: whether the app's jobs were idle and the layout it drew.
    void saw(bool jobs_idle, const WorkspaceLayout& layout) {
        quiet_ = jobs_idle && layout == last_ ? quiet_ + 1 : 0;
        last_ = layout;
    }
    bool settled() const { return quiet_ >= kQuietFrames; }

  private:
    WorkspaceLayout last_;
    int quiet_ = 0;
};

}  // namespace tclens::gui
