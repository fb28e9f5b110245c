#pragma once
// The workspace (workspace.h) in ImGui's settings file, beside the windows' places: a section
//   [tclens][workspace]
//   view=fragments
//   split=banks,beside
//   ratio=0.500
//   floating=none
//   window=none
// read with Workspace::read_line (a line it refuses is skipped) and written with
// Workspace::to_lines whenever ImGui saves the file (every few seconds after a window moved,
// and when the context is destroyed).

namespace tclens::gui {

class Workspace;

// Registers the section's handler on the current ImGui context, reading into and writing from
// `workspace`, which must outlive the context. Call before the settings file is loaded.
void install_workspace_settings(Workspace& workspace);

}  // namespace tclens::gui
