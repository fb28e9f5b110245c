#pragma once
// What the user sees, as rectangles, for tests and docs (`tclens --layout-json F`, `tclens
// screenshot --window --layout-json F`): after a frame of the shell (shell_frame.h), as JSON,
//   {"display": {"width": W, "height": H, "font_pixels": F},
//    "workspace": {"view": ID, "split": "ID,beside" | "ID,below" | "off", "ratio": R,
//                  "floating": [ID, ...]},
//    "areas": {"rail": RECT, "main": RECT, "divider": RECT, "second": RECT},
//    "windows": [{"name": N, "role": ROLE, "rect": RECT, "inner": RECT,
//                 "content": [W, H], "cut": [X, Y],
//                 "children": [{"name": N, "rect": RECT, "cut": [X, Y]}, ...]}, ...],
//    "views": [{"window": N, "drawn": RECT, "visible": RECT, "text_pixels": P}, ...],
//    "values": [{"window": N, "text": T, "frame": RECT, "needed": W}, ...]}
// RECT is [x, y, width, height] in pixels; F the body text's height in pixels (lecture zoom and
// the monitor's content scale included). "areas" are layout_workspace()'s; "windows" are the
// ones the shell began (ShellFrame::windows(): menu, rail, main, second, divider, floating,
// status, help) as ImGui placed them: "rect" the whole window, "inner" its client area (less title
// bar and scroll bars), "content" the size of what was drawn in it (ImGui's ContentSize, from the
// frame before), "cut" how far that reaches past the inner area, padding included, to the right
// and below (ImGui's ScrollMax: more than 0 means something is cut off or must be scrolled to);
// "children" the child windows drawn in it (panes, lists, a view's drawing area), depth first,
// each with its own "cut".
// "views" are the drawings painted in the frame (draw_list_painter.h: the window, possibly a
// child such as "Fragments/view_1234", where the drawing went and what of the screen that window
// shows): a drawing not inside its "visible" rectangle is cut off. P is the height in pixels of
// the smallest text painted in the drawing (the Fragments cells' labels, a chart's ticks; 0 for
// none): what a hall must read.
// "values" are what the controls that report them (views/item_width.h: fields, combos, number
// steppers) showed: the text, the control's frame and the width the text needs there; a frame
// narrower than W cuts the value.

#include <string>

namespace tclens::gui {

class ShellFrame;

std::string layout_report_json(const ShellFrame& shell);

// The same for one view drawn alone (`tclens screenshot --view V` or `--tour-step N`): "display",
// "windows" with the view's window (role "view"), "views" and "values"; no workspace or areas.
std::string view_layout_report_json(const std::string& window_name);

// Writes layout_report_json to `path`; "" or the one-line error.
std::string write_layout_report(const ShellFrame& shell, const std::string& path);

}  // namespace tclens::gui
