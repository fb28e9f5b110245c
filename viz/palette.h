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
    // Number formats, in the order f32, tf32, f16, bf16, e4m3 (kernels::Precision's): told apart
    // by hue and lightness, none red and none green, so no two read as good and bad and every
    // pair stays apart for red-green colour blindness (deuteranopia, protanopia).
    std::vector<Rgba> precisions;
    // A change judged by what its metric counts as better (viz/compare_table.h): better, worse,
    // or a metric with no better direction. Blue and orange, not green and red, so the pair
    // stays apart for red-green colour blindness; the table's key names them in words.
    Rgba better;
    Rgba worse;
    Rgba unjudged;
};

// Mid-tone fills on a near-black canvas, matching the GUI's dark theme; light text.
const Palette& dark_palette();

// Black canvas, saturated colour-blind-safe fills (Okabe-Ito), white highlight: for projectors
// and for readers with colour-vision deficiencies.
const Palette& high_contrast_palette();

// categories[index mod size], for any index (negative ones too).
const Rgba& category_colour(const Palette& palette, int index);

// precisions[precision mod size], for any index (negative ones too).
const Rgba& precision_colour(const Palette& palette, int precision);

// Colours of the shared-memory bank views (viz/bank_view.h), a companion to a Palette.
struct BankPalette {
    std::string name;
    // 32 entries, banks[b] for bank b: a hue ramp once round the colour wheel, so that words in
    // one bank share a colour and neighbouring banks are neighbouring hues. Mid-tone enough
    // for labels in palette.text or palette.background (label_colour_on) to read on them.
    std::vector<Rgba> banks;
    // Conflict degree (distinct words asked of one bank in one phase): `idle` for 0, else
    // heat[conflict_bucket(degree)], from "conflict-free" (1) to "17-32 way".
    Rgba idle;
    std::vector<Rgba> heat;  // kConflictBuckets entries, increasingly alarming
};

// The buckets of BankPalette::heat: degree 1, 2, 3-4, 5-8, 9-16, 17-32.
constexpr int kConflictBuckets = 6;

// degree -> heat bucket: 1 -> 0, 2 -> 1, 3..4 -> 2, 5..8 -> 3, 9..16 -> 4, 17 and more -> 5
// (the next power of two's exponent, capped). Precondition: degree >= 1.
int conflict_bucket(int degree);

// The legend text of a bucket: "1", "2", "3-4", "5-8", "9-16", "17-32".
std::string conflict_bucket_label(int bucket);

// Goes with dark_palette(): muted hues; heat from teal (1) through yellow and red to violet.
const BankPalette& dark_bank_palette();

// Goes with high_contrast_palette(): saturated hues at full brightness, a brighter heat ramp.
const BankPalette& high_contrast_bank_palette();

// banks[bank mod size] (negative banks too).
const Rgba& bank_colour(const BankPalette& palette, int bank);

// idle for degree <= 0, else heat[conflict_bucket(degree)].
const Rgba& conflict_colour(const BankPalette& palette, int degree);

// Whichever of palette.text and palette.background reads better on `fill` (by luminance):
// the colour for a label drawn inside a filled cell.
Rgba label_colour_on(const Palette& palette, Rgba fill);

}  // namespace tclens::viz
