#pragma once
// The --svg / --png options of the commands that draw (layout, tilemap): one drawing written to
// either file or both, through the viz writers (atomic: no half-written file).

#include <string>

#include "viz/draw_list.h"

namespace tclens::cli {

// Writes `draw` as SVG to `svg_path` and as PNG to `png_path` (each skipped when ""); stops at
// the first failure, prints it to stderr in one line and returns kExitFailure; else kExitOk.
int export_drawing(const viz::DrawList& draw, const std::string& svg_path,
                   const std::string& png_path);

}  // namespace tclens::cli
