#pragma once
// Colour schemes for views. A view takes a Palette from its caller (the GUI's theme, a CLI
// flag) and never picks colours of its own, so every view can be drawn in any scheme.
#include <string>
#include <vector>

#include "viz/draw_list.h"

namespace tclens::viz {

struct Palette {
    std::string name;
    Rgba background;  // canvas
    Rgba text;        // titles and labels on the background
    Rgba grid;        // cell outlines and separators
    Rgba highlight;   // outline of whatever the user points at
    // Categorical fills (register, lane, ...), used as categories[index % size]. Neighbouring
    // entries are clearly different; never empty.
    std::vector<Rgba> categories;
};

// Mid-tone fills on a near-black canvas, matching the GUI's dark theme; light text.
const Palette& dark_palette();

// Black canvas, saturated colour-blind-safe fills (Okabe-Ito), white highlight: for projectors
// and for readers with colour-vision deficiencies.
const Palette& high_contrast_palette();

// categories[index mod size], for any index (negative ones too).
const Rgba& category_colour(const Palette& palette, int index);

// Whichever of palette.text and palette.background reads better on `fill` (by luminance):
// the colour for a label drawn inside a filled cell.
Rgba label_colour_on(const Palette& palette, Rgba fill);

}  // namespace tclens::viz
