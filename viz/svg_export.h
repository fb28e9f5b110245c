#pragma once
// SVG export of a DrawList (painting contract in viz/draw_list.h).
//
// The document is width x height user units (= pixels). The background is one <path
// class="background">, so that <rect> elements map one to one, in order, onto
// DrawList::rects; each DrawText becomes one <text> in a monospace font. Text is XML-escaped.
// Numbers are written with at most two decimals, independent of the C locale.
#include <string>

#include "viz/draw_list.h"

namespace tclens::viz {

// The SVG document for `list`.
std::string to_svg(const DrawList& list);

// Writes to_svg(list) to `path` through a temporary file in the same folder and a rename.
// Returns "" on success, else one line naming the path and the reason; on failure no file
// (neither `path` nor the temporary) is left behind.
std::string write_svg(const DrawList& list, const std::string& path);

}  // namespace tclens::viz
