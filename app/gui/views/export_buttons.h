#pragma once
// "Export SVG" and "Export PNG" buttons for any view built as viz draw records: the file shows
// exactly what the panel paints (viz/svg_export, viz/raster).

#include <string>

#include "viz/draw_list.h"

namespace tclens::gui {

// Draws the two buttons on one line; a click writes `base_name`.svg or .png into the current
// folder and sets `message` to "wrote F" or the one-line error.
void draw_export_buttons(const viz::DrawList& draw, const std::string& base_name,
                         std::string& message);

}  // namespace tclens::gui
