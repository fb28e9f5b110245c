#pragma once
// Where the app keeps what it remembers between runs: $XDG_CONFIG_HOME/tclens/ (or
// ~/.config/tclens/). It holds imgui.ini (window places and, in its [tclens][workspace] section,
// the workspace: workspace.h) and recent_recordings (recording_io.h).

#include <string>

namespace tclens::gui {

// The path of `name` in that folder, which is created when missing; "" when there is no home
// ($XDG_CONFIG_HOME and $HOME unset or empty) or the folder cannot be made.
std::string config_file_path(const std::string& name);

}  // namespace tclens::gui
