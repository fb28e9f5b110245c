#pragma once
// The one explicit list of panels, in View-menu order.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/panels/panel.h"

namespace tclens::gui {

std::vector<std::unique_ptr<Panel>> make_all_panels();

// The ids of `panels`, in order.
std::vector<std::string> panel_ids(const std::vector<std::unique_ptr<Panel>>& panels);

// The ids of make_all_panels(), comma-separated, for error messages and --help.
std::string panel_ids_text();

}  // namespace tclens::gui
