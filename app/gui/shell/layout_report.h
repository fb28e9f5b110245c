#pragma once
// What the user sees, as rectangles, for tests and docs (`tclens --layout-json F`, `tclens
// screenshot --window --layout-json F`): after a frame of the shell (shell_frame.h), as JSON,
//   {"display": {"width": W, "height": H},
//    "workspace": {"view": ID, "split": "ID,beside" | "ID,below" | "off", "ratio": R,
//                  "floating": [ID, ...]},
//    "areas": {"rail": RECT, "main": RECT, "divider": RECT, "second": RECT},
//    "windows": [{"name": N, "role": ROLE, "rect": RECT, "inner": RECT,
//                 "content": [W, H], "cut": [X, Y]}, ...]}
// RECT is [x, y, width, height] in pixels. "areas" are layout_workspace()'s; "windows" are the
// ones the shell began (ShellFrame::windows(): menu, rail, main, second, divider, floating,
// status) as ImGui placed them: "rect" the whole window, "inner" its client area (less title bar
// and scroll bars), "content" the size of what was drawn in it (ImGui's ContentSize, from the
// frame before), "cut" how far that reaches past the inner area, padding included, to the right
// and below (ImGui's ScrollMax: more than 0 means something is cut off or must be scrolled to).

#include <string>

namespace tclens::gui {

class ShellFrame;

std::string layout_report_json(const ShellFrame& shell);

// Writes layout_report_json to `path`; "" or the one-line error.
std::string write_layout_report(const ShellFrame& shell, const std::string& path);

}  // namespace tclens::gui
