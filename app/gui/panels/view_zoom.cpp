#include "app/gui/panels/view_zoom.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/item_width.h"

namespace tclens::gui {
namespace {

// Fit may go below the slider's lowest factor: a large drawing in a small window still fits.
constexpr float kFitLowest = 0.02f;  // wgmma.m64nNk16 draws ~2000 px tall

}  // namespace

std::string ViewZoom::apply_setting(std::string_view value) {
    if (value == "fit") {
        fit_ = true;
        return "";
    }
    const std::string error = apply_zoom_setting(value, lowest_, highest_, factor_);
    if (!error.empty()) return error + " or fit";
    fit_ = false;
    return "";
}

float ViewZoom::for_drawing(const viz::DrawList& draw) {
    if (fit_) factor_ = fit_zoom(draw, kFitLowest, highest_);
    return factor_;
}

void ViewZoom::draw_control() {
    next_item_width(0, "10.00x");
    if (fit_) ImGui::BeginDisabled();
    ImGui::SliderFloat("##zoom", &factor_, std::min(lowest_, factor_), highest_, "%.2fx");
    char shown[32];
    std::snprintf(shown, sizeof shown, "%.2fx", factor_);
    note_shown_value(shown, ItemKind::kField);
    if (fit_) ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Checkbox("fit", &fit_);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("scale the drawing to fill the space it has (View > Fit view, Ctrl+F)");
    }
}

}  // namespace tclens::gui
