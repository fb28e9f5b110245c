#include "app/gui/panels/device_panel.h"

#include <imgui.h>

#include "app/gui/jobs/app_context.h"
#include "app/gui/views/device_view.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/recording_view.h"

namespace tclens::gui {
namespace {

// The open recording's device under a "<file>: recorded on <GPU>, <date> (...)" header (the full
// path in its tooltip), with what the recording measured on it: the arithmetic peaks and the DRAM
// bandwidth.
void draw_recorded_device(const OpenRecording& open, const viz::Palette& palette) {
    const profiling::Recording& recording = open.recording;
    ImGui::Separator();
    ImGui::TextUnformatted(recording_origin(open.path, recording).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", open.path.c_str());
    for (const kernels::PeakMeasurement& peak : recording.peaks) {
        ImGui::Text("measured peak %-4s %7.1f TFLOP/s (%s)",
                    kernels::precision_name(peak.precision), peak.tflops, peak.instruction.c_str());
    }
    if (!recording.peak_error.empty()) {
        ImGui::TextDisabled("peaks not measured: %s", recording.peak_error.c_str());
    }
    if (recording.dram_bandwidth.bytes_per_s > 0) {
        ImGui::Text("measured DRAM bandwidth %.2f TB/s (%s)",
                    recording.dram_bandwidth.bytes_per_s / 1e12,
                    recording.dram_bandwidth.method.c_str());
    }
    paint_draw_list(device_view(recording.system, palette), 1.0f);
}

}  // namespace

// The Help menu's text of the panel.
constexpr const char* kDevicePanelHelp =
    "The GPU tclens runs on: SM count and clocks bound peak throughput; shared memory "
    "and registers per block and per SM bound tile sizes and occupancy; L2 size decides "
    "how large benchmark buffers must be to defeat caching; DRAM bandwidth is the "
    "theoretical figure (2 x memory clock x bus width), measured figures come from "
    "benchmarks. With a recording open, its GPU follows, with the peaks and DRAM "
    "bandwidth measured when it was recorded.";

DevicePanel::DevicePanel() : Panel("device", "Device", kDevicePanelHelp) {}

void DevicePanel::draw_contents(AppContext& context) {
    const auto report = context.system.latest();
    if (!report) {
        ImGui::TextUnformatted("Querying the GPU...");
        return;
    }
    // The facts as draw records, so the Export buttons write exactly what is painted.
    const viz::DrawList view = device_view(*report, theme().palette);
    draw_export_buttons(view, "device", export_message_);
    if (!export_message_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_message_.c_str());
    }
    ImGui::BeginChild("facts", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    paint_draw_list(view, 1.0f);
    if (const auto recording = context.recording.latest())
        draw_recorded_device(*recording, theme().palette);
    ImGui::EndChild();
}

}  // namespace tclens::gui
