#pragma once
// A request to show another panel set up a certain way, e.g. the Kernels panel's
// {"fragments", {"layout=ldmatrix.x4"}}: the same assignments `--set` makes. Posted to
// AppContext::panel_links by panels, views and jobs; the shell follows it (panel_settings.h:
// follow_panel_link, then Workspace::show_linked).

#include <string>
#include <vector>

namespace tclens::gui {

struct PanelLink {
    std::string panel;                  // a panel id
    std::vector<std::string> settings;  // "KEY=VALUE" for that panel, applied in order
};

}  // namespace tclens::gui
