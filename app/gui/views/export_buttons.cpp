#include "app/gui/views/export_buttons.h"

#include <imgui.h>

#include "viz/png_writer.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::gui {

void draw_export_buttons(const viz::DrawList& draw, const std::string& base_name,
                         std::string& message) {
    if (ImGui::Button("Export SVG")) {
        const std::string path = base_name + ".svg";
        const std::string error = viz::write_svg(draw, path);
        message = error.empty() ? "wrote " + path : error;
    }
    ImGui::SameLine();
    if (ImGui::Button("Export PNG")) {
        const std::string path = base_name + ".png";
        const std::string error = viz::write_png(viz::rasterize(draw), path);
        message = error.empty() ? "wrote " + path : error;
    }
}

}  // namespace tclens::gui
