#pragma once
// The workspace (workspace.h) on screen, with ImGui: the rail that lists every view with its
// key, the divider between split views, the View menu's arrangement items and the workspace's
// keys. The shell (shell_frame.cpp) lays the workspace out with layout_workspace() and begins
// the panels' windows in the rectangles it gets.
//
// Keys (not while a text field has the keyboard):
//   Ctrl+1..9        the view with that number fills the main pane (rail order)
//   Ctrl+Shift+1..9  that view in the second pane (split on)
//   Ctrl+\           split on / off
//   Ctrl+Shift+\     second view beside <-> below

#include <memory>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/shell/workspace.h"

namespace tclens::gui {

// The rail's width at the current font and style: its widest row (a view's title and key, or
// the split rows) and padding.
float rail_width(const std::vector<std::unique_ptr<Panel>>& panels);
// The divider's thickness and the least a pane keeps along the split, at the current style.
float divider_thickness();
float min_pane_length();

// The keys above; panels[i] is the view of Ctrl+(i+1).
void handle_workspace_keys(Workspace& workspace, const std::vector<std::unique_ptr<Panel>>& panels);

// Inside the open View menu: every view with its key (checked: in the main pane), Split,
// Split below, Pop out (a submenu of views), Reset layout.
void draw_workspace_menu_items(Workspace& workspace,
                               const std::vector<std::unique_ptr<Panel>>& panels);

// The rail, a window named kRailWindow at `rail`: a row per view (title, key; the main view
// selected, the second one dimmer, a floating one greyed), a right-click menu per row (show
// here, show as second view, pop out or back), then the Split and Below rows.
inline constexpr const char* kRailWindow = "##rail";
void draw_rail(Workspace& workspace, const std::vector<std::unique_ptr<Panel>>& panels,
               const Rect& rail);

// The divider, a window named kDividerWindow at `layout.divider` (nothing without a split):
// a line along it (across layout.split); dragging it moves the split ratio.
inline constexpr const char* kDividerWindow = "##divider";
void draw_divider(Workspace& workspace, const WorkspaceLayout& layout);

}  // namespace tclens::gui
