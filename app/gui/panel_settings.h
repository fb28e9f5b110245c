#pragma once
// `--set` assignments for panels: "PANEL.KEY=VALUE" (or "KEY=VALUE" when one panel is meant,
// as for `tclens screenshot`), applied through Panel::apply_setting.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/panel.h"

namespace tclens::gui {

// Applies each assignment in order. With `only_panel` non-empty, assignments are "KEY=VALUE"
// for that panel; otherwise "PANEL.KEY=VALUE". Returns "" or the first error, one line.
std::string apply_panel_settings(const std::vector<std::unique_ptr<Panel>>& panels,
                                 const std::vector<std::string>& assignments,
                                 std::string_view only_panel = {});

}  // namespace tclens::gui
