#pragma once
// The colours of one GUI theme, for everything a panel draws besides ImGui's own widgets: the
// palettes its views are built with (viz/palette.h) and the colours of its status text. Lecture
// mode picks the current theme (lecture_mode.h: current_theme()); the panel base hands it to
// every panel (panel.h: Panel::theme()), so no panel picks colours of its own.

#include "viz/palette.h"

struct ImVec4;

namespace tclens::gui {

struct Theme {
    const viz::Palette& palette;    // canvases, categories, the hover/pin highlight
    const viz::BankPalette& banks;  // the Banks panel's bank hues and conflict heat
    viz::Rgba error;                // what failed or was refused: "FAIL", a bad size, an error
    viz::Rgba ok;                   // what was checked and holds: "ok", verified, live
    viz::Rgba note;                 // worth a look but not an error: skipped, paused, queued
};

// ImGui's dark look: viz::dark_palette() and dark_bank_palette(); red, green and amber text.
const Theme& dark_theme();

// Lecture mode's high contrast: viz::high_contrast_palette() and high_contrast_bank_palette();
// text in the Okabe-Ito vermillion, bluish green and yellow, readable on black.
const Theme& high_contrast_theme();

// `colour` as ImGui's float RGBA, for ImGui::TextColored and PushStyleColor.
ImVec4 imgui_colour(viz::Rgba colour);

}  // namespace tclens::gui
