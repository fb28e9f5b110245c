#pragma once
// One frame of the app's user interface, whatever shows it: main menu, the workspace (a rail of
// views at the left, one view or two split in the main area, views popped out into windows of
// their own: workspace.h), links between panels, help, status bar and shortcuts. Pure ImGui: the
// windowed shell (gui_shell.h), the headless runtime (headless_shell.h) and `tclens screenshot
// --window` all call it between NewFrame and Render.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/shell/connect_dialog.h"
#include "app/gui/shell/kernel_open.h"
#include "app/gui/shell/recording_io.h"
#include "app/gui/shell/workspace.h"

namespace tclens::gui {

struct AppContext;

// Height of the status bar at the bottom of the window, at the current font and style; 0 while
// the presentation layout folds it away (controls_folded(), views/presentation.h).
float status_bar_height();

// Pixels of the workspace's area kept free for a tour's caption (tour_overlay.h): a band along
// the bottom, above the status bar, or a column at the right.
struct CaptionReserve {
    float bottom = 0;
    float right = 0;
};

// What each window the shell began this frame is for, by ImGui window name: "menu", "rail",
// "main", "second", "divider", "floating", "status", "help" (F1; layout_report.h lists them).
struct ShellWindow {
    std::string name;
    std::string role;
};

class ShellFrame {
  public:
    ShellFrame();
    // Applies "PANEL.KEY=VALUE" and "workspace.KEY=VALUE" settings (Workspace::apply_setting),
    // and "connect.to=[user@]host[:path]" (File > Connect to GPU server...'s Connect; no host:
    // This machine); returns "" or one line naming the bad one.
    std::string apply_settings(const std::vector<std::string>& settings);
    // Shows only the panel `id`, filling the main area; returns "" or one line listing the ids.
    std::string show_only(const std::string& id);

    // Inside the frame, before the tour's update() and draw(): the presentation layout
    // (views/presentation.h) on or off, and whether its controls are folded this frame: they come
    // back while the mouse is on the strip at the top of the window (one frame height), and stay
    // while it is on them (above the main view's drawing), a popup of theirs is open or an item
    // is active.
    void update_presentation(bool on);
    bool presentation() const { return presentation_; }

    // `reserve`: pixels kept free this frame for a tour's caption; the main area ends before
    // them.
    void draw(AppContext& context, CaptionReserve reserve = {});
    bool quit_requested() const { return quit_; }

    const std::vector<std::unique_ptr<Panel>>& panels() const { return panels_; }
    Workspace& workspace() { return workspace_; }
    const Workspace& workspace() const { return workspace_; }
    // Where the workspace's parts went in the last frame (layout_workspace() with the widths the
    // views were seen to need), and the windows begun in it.
    const WorkspaceLayout& layout() const { return layout_; }
    const std::vector<ShellWindow>& windows() const { return windows_; }
    // Open and save recordings: the File menu's items, `--open`, dropped files.
    RecordingIo& recordings() { return recordings_; }
    // What the welcome strip's choices open (welcome_strip.h): F1's help with the shown view's
    // part first, and File > Open kernel...'s dialog.
    void show_help();
    void request_open_kernel() { kernel_open_.request_open(); }
    // A kernel of yours (a dropped .cu): shown in the view user_kernel_link picks, which runs it
    // in the worker. A bad ref is the status bar's line.
    void open_kernel(const std::string& ref);

    // While true, each draw() keeps the text every shown panel draws (ImGui's logging), each
    // panel's under a line "== <id> ==": captured_text(). Used by the headless runtime's --text
    // and --until-text.
    bool capture_text = false;
    const std::string& captured_text() const { return captured_text_; }

  private:
    void draw_main_menu();
    void draw_help();
    void draw_status_bar(AppContext& context);
    void draw_status_line(AppContext& context);
    // draw(), its text kept under "== id ==" while capture_text is on.
    void draw_captured(const std::string& id, const std::function<void()>& draw);
    void draw_workspace(AppContext& context, CaptionReserve reserve);
    void draw_panel(AppContext& context, Panel& panel, const std::string& role);
    void follow_link(const PanelLink& link, const std::string& source);
    void follow_panel_links(AppContext& context, std::size_t first, const std::string& source);
    void handle_shortcuts();
    // The drawing zooms of the views in the main area (main view, then the split one), for
    // View > Fit view and Ctrl+F: fit turns on for all of them unless the main view's is on.
    std::vector<ViewZoom*> shown_view_zooms();
    void toggle_fit();

    std::vector<std::unique_ptr<Panel>> panels_;
    Workspace workspace_;
    WorkspaceLayout layout_;
    std::string captured_text_;
    std::vector<ShellWindow> windows_;
    // Views drawn in a pane last frame: one that floats now has just been popped out.
    std::set<std::string> docked_last_frame_;
    struct Place {
        float x, y, width, height;
    };
    std::map<std::string, Place> floating_places_;  // each floating view's window, as last seen
    // The width each view was seen to need in a pane (its window's width plus what was cut off
    // at the right, measured while the pane kept its size), at the font size it was measured at.
    std::map<std::string, float> needed_widths_;
    std::map<std::string, std::pair<float, float>> pane_sizes_;  // each pane's last size
    float needs_font_size_ = 0;
    bool quit_ = false;
    bool show_help_ = false;
    bool presentation_ = false;
    bool revealed_ = false;    // the presentation layout's controls, brought back by the mouse
    std::string focus_panel_;  // id of the panel to bring to the front next frame (a link's)
    std::string link_error_;   // the last panel link that could not be followed, one line
    RecordingIo recordings_;
    KernelOpenDialog kernel_open_;
    ConnectDialog connect_;
};

}  // namespace tclens::gui
