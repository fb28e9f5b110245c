#include "app/gui/panels/panel_settings.h"

#include <cstdio>

#include "app/gui/panels/panel_registry.h"
#include "app/parse_number.h"

namespace tclens::gui {
std::string apply_zoom_setting(std::string_view value, float lowest, float highest, float& zoom) {
    const auto number = parse_number<float>(value);
    if (!number || !(*number >= lowest && *number <= highest)) {
        char range[48];
        std::snprintf(range, sizeof range, "%g..%g", double(lowest), double(highest));
        return "zoom='" + std::string(value) + "': allowed: " + range;
    }
    zoom = *number;
    return "";
}

std::string apply_panel_settings(const std::vector<std::unique_ptr<Panel>>& panels,
                                 const std::vector<std::string>& assignments,
                                 std::string_view only_panel) {
    for (const std::string& assignment : assignments) {
        const auto equals = assignment.find('=');
        std::string_view target = assignment;
        std::string_view panel_id = only_panel;
        if (equals == std::string::npos || equals == 0) {
            return "--set '" + assignment + "': expected " +
                   (only_panel.empty() ? "PANEL.KEY=VALUE" : "KEY=VALUE");
        }
        std::string_view key = target.substr(0, equals);
        const std::string_view value = target.substr(equals + 1);
        if (only_panel.empty()) {
            const auto dot = key.find('.');
            if (dot == std::string_view::npos) {
                return "--set '" + assignment +
                       "': expected PANEL.KEY=VALUE (panels: " + panel_ids_text() + ")";
            }
            panel_id = key.substr(0, dot);
            key = key.substr(dot + 1);
        }
        Panel* panel = nullptr;
        for (const auto& candidate : panels) {
            if (candidate->id() == panel_id) panel = candidate.get();
        }
        if (!panel) {
            return "--set '" + assignment + "': no panel '" + std::string(panel_id) +
                   "' (panels: " + panel_ids_text() + ")";
        }
        if (std::string error = panel->apply_setting(key, value); !error.empty()) {
            return "--set " + error;
        }
    }
    return "";
}

std::string follow_panel_link(const std::vector<std::unique_ptr<Panel>>& panels,
                              const PanelLink& link) {
    for (const auto& panel : panels) {
        if (panel->id() != link.panel) continue;
        if (std::string error = apply_panel_settings(panels, link.settings, link.panel);
            !error.empty()) {
            return error;
        }
        return "";
    }
    return "no panel '" + link.panel + "' (panels: " + panel_ids_text() + ")";
}

}  // namespace tclens::gui
