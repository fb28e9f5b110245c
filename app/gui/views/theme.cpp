#include "app/gui/views/theme.h"

#include <imgui.h>

namespace tclens::gui {

const Theme& dark_theme() {
    static const Theme theme{viz::dark_palette(), viz::dark_bank_palette(),
                             viz::Rgba{255, 89, 77, 255}, viz::Rgba{102, 230, 102, 255},
                             viz::Rgba{242, 204, 89, 255}};
    return theme;
}

const Theme& high_contrast_theme() {
    static const Theme theme{viz::high_contrast_palette(), viz::high_contrast_bank_palette(),
                             viz::Rgba{213, 94, 0, 255}, viz::Rgba{0, 158, 115, 255},
                             viz::Rgba{240, 228, 66, 255}};
    return theme;
}

ImVec4 imgui_colour(viz::Rgba colour) {
    return ImVec4(float(colour.r) / 255.0f, float(colour.g) / 255.0f, float(colour.b) / 255.0f,
                  float(colour.a) / 255.0f);
}

}  // namespace tclens::gui
