#include "app/gui/panels/device_panel.h"

#include <imgui.h>

#include "app/gui/app_context.h"

namespace tclens::gui {

std::string_view DevicePanel::help() const {
    return "The GPU tclens runs on: SM count and clocks bound peak throughput; shared memory "
           "and registers per block and per SM bound tile sizes and occupancy; L2 size decides "
           "how large benchmark buffers must be to defeat caching; DRAM bandwidth is the "
           "theoretical figure (2 x memory clock x bus width), measured figures come from "
           "benchmarks.";
}

void DevicePanel::draw(AppContext& context) {
    const auto report = context.system.latest();
    if (!report) {
        ImGui::TextUnformatted("Querying the GPU...");
        return;
    }
    ImGui::TextUnformatted(profiling::versions_summary(*report).c_str());
    if (!report->has_gpu()) {
        ImGui::Separator();
        ImGui::TextUnformatted(profiling::system_summary(*report).c_str());
        ImGui::TextWrapped("Reason: %s", report->no_gpu_reason.c_str());
        ImGui::TextWrapped("Fragment layouts, shared-memory bank models and recordings work "
                           "without a GPU; running kernels and profiling need one.");
        return;
    }
    for (const auto& device : report->devices) {
        ImGui::PushID(device.index);
        ImGui::Separator();
        ImGui::Text("GPU %d", device.index);
        const ImGuiTableFlags flags =
            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
        if (ImGui::BeginTable("facts", 2, flags)) {
            for (const auto& [label, value] : profiling::describe_device(device)) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextUnformatted(label.c_str());
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(value.c_str());
            }
            ImGui::EndTable();
        }
        ImGui::PopID();
    }
}

}  // namespace tclens::gui
