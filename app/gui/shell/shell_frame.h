#pragma once
// One frame of the app's user interface, whatever shows it: main menu, one window per visible
// panel, links between panels, help, status bar and shortcuts. Pure ImGui: the windowed shell
// (gui_shell.h) and the headless runtime (headless_shell.h) both call it between NewFrame and
// Render.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/shell/recording_io.h"

namespace tclens::gui {

struct AppContext;

class ShellFrame {
  public:
    ShellFrame();
    // Applies "PANEL.KEY=VALUE" settings; returns "" or one line naming the bad one.
    std::string apply_settings(const std::vector<std::string>& settings);
    // Shows only the panel `id` (and hides the others); returns "" or one line listing the ids.
    std::string show_only(const std::string& id);

    void draw(AppContext& context);
    bool quit_requested() const { return quit_; }

    const std::vector<std::unique_ptr<Panel>>& panels() const { return panels_; }
    // Open and save recordings: the File menu's items, `--open`, dropped files.
    RecordingIo& recordings() { return recordings_; }

    // While set, the text every visible panel draws is appended to this ImGui log file
    // (ImGui::LogToFile) during the next draw(); used by the headless runtime's --dump-text.
    std::string log_text_path;

  private:
    void draw_main_menu();
    void draw_help();
    void draw_status_bar(AppContext& context);
    void draw_panels(AppContext& context);
    void follow_panel_links(AppContext& context);
    void handle_shortcuts();

    std::vector<std::unique_ptr<Panel>> panels_;
    bool quit_ = false;
    bool show_help_ = false;
    std::string focus_panel_;  // id of the panel to bring to the front next frame (a link's)
    std::string link_error_;   // the last panel link that could not be followed, one line
    RecordingIo recordings_;
};

}  // namespace tclens::gui
