#pragma once
// `--set` assignments for panels: "PANEL.KEY=VALUE" (or "KEY=VALUE" when one panel is meant,
// as for `tclens screenshot`), applied through Panel::apply_setting.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/jobs/panel_link.h"
#include "app/gui/panels/panel.h"

namespace tclens::gui {

// Applies each assignment in order. With `only_panel` non-empty, assignments are "KEY=VALUE"
// for that panel; otherwise "PANEL.KEY=VALUE". Returns "" or the first error, one line.
std::string apply_panel_settings(const std::vector<std::unique_ptr<Panel>>& panels,
                                 const std::vector<std::string>& assignments,
                                 std::string_view only_panel = {});

// A panel's "zoom" setting: `value`, a number in [lowest, highest], becomes `zoom`. Returns ""
// or one line naming the value and the range, e.g. "zoom='9': allowed: 0.25..3" (`zoom` then
// stays as it was).
std::string apply_zoom_setting(std::string_view value, float lowest, float highest, float& zoom);

// Applies link.settings to link.panel (the shell then shows it: Workspace::show_linked). Returns
// "" or the one-line error (unknown panel or bad setting; the settings before the bad one stay
// applied).
std::string follow_panel_link(const std::vector<std::unique_ptr<Panel>>& panels,
                              const PanelLink& link);

}  // namespace tclens::gui
