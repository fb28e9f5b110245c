#include "app/gui/panels/job_controls.h"

#include <imgui.h>

#include "kernels/fault_injection.h"
#include "profiling/device_info.h"

namespace tclens::gui {
namespace {

// The job's line goes beside the buttons only where this many em of the pane are left.
constexpr float kMinLineBesideEm = 12.0f;

// The width of a button labelled `label` (what follows "##" is no text).
float button_width(const std::string& label) {
    return ImGui::CalcTextSize(label.c_str(), nullptr, true).x +
           2.0f * ImGui::GetStyle().FramePadding.x;
}

}  // namespace

namespace {

// The job may run on this process's GPU's behalf: the worker's GPU is used, or there is a GPU
// here, or an injected fault that strikes after the device checks (kernels/fault_injection.h)
// stands in for one, so that a machine without a GPU shows the fault as a GPU server would.
bool gpu_for_job(const JobControls& controls, const profiling::SystemReport* system) {
    return controls.worker_gpu || (system && system->has_gpu()) ||
           kernels::strikes_after_device_checks(kernels::injected_fault());
}

}  // namespace

JobLine job_line(const JobControls& controls, const JobSnapshot& job,
                 const profiling::SystemReport* system) {
    JobLine line;
    if (job.state == JobState::kRunning) {
        line.text = job.message.empty() ? "running" : job.message;
        line.tone = JobLineTone::kPlain;
        line.progress_bar = !controls.open_ended;
        line.fraction = job.fraction;
    } else if (job.state == JobState::kQueued) {
        line.text =
            "queued behind " + std::to_string(job.ahead) + (job.ahead == 1 ? " job" : " jobs");
    } else if (!gpu_for_job(controls, system) && !system) {
        line.text = "querying the GPU...";
    } else if (!gpu_for_job(controls, system)) {
        line.text = "no GPU: " + controls.gpu_use + " needs one";
        line.tone = JobLineTone::kNote;
        line.detail = system->no_gpu_reason;
    } else if (!controls.blocked.empty()) {
        line.text = controls.blocked;
    } else if (job.state == JobState::kFailed) {
        line.text = job.error;
        line.tone = JobLineTone::kError;
    }
    return line;
}

bool job_can_start(const JobControls& controls, const JobSnapshot& job,
                   const profiling::SystemReport* system) {
    return !job.active() && gpu_for_job(controls, system) && controls.blocked.empty();
}

bool draw_job_controls(const JobControls& controls, const JobHandle& job,
                       const profiling::SystemReport* system, const Theme& theme,
                       const std::function<void()>& between) {
    const JobSnapshot snapshot = job.snapshot();
    const bool can_start = job_can_start(controls, snapshot, system);
    // Placed after a panel's other controls on their row: the buttons go under them where both
    // do not fit before the pane's edge, rather than past it, cut off.
    const float buttons = button_width(controls.run_label) + ImGui::GetStyle().ItemSpacing.x +
                          button_width(controls.cancel_label);
    const bool after_other_controls = ImGui::GetCursorPosX() > ImGui::GetCursorStartPos().x + 1.0f;
    if (after_other_controls && ImGui::GetContentRegionAvail().x < buttons) ImGui::NewLine();
    if (!can_start) ImGui::BeginDisabled();
    const bool clicked = ImGui::Button(controls.run_label.c_str());
    if (!can_start) ImGui::EndDisabled();
    if (!controls.run_tooltip.empty() &&
        ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::SetTooltip("%s", controls.run_tooltip.c_str());
    }
    ImGui::SameLine();
    if (!snapshot.active()) ImGui::BeginDisabled();
    if (ImGui::Button(controls.cancel_label.c_str())) job.cancel();
    if (!snapshot.active()) ImGui::EndDisabled();
    if (between) {
        ImGui::SameLine();
        between();
    }
    const JobLine line = job_line(controls, snapshot, system);
    if (line.text.empty()) return clicked;
    // Beside the buttons where a few words fit, else under them: wrapped at the pane's edge with
    // no room left, the line would stand one letter a row, a column taller than the pane.
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < kMinLineBesideEm * ImGui::GetFontSize())
        ImGui::NewLine();
    if (line.progress_bar) {
        ImGui::ProgressBar(line.fraction, ImVec2(-1.0f, 0.0f), line.text.c_str());
    } else {
        ImGui::AlignTextToFramePadding();
        const ImVec4 colour = line.tone == JobLineTone::kNote    ? imgui_colour(theme.note)
                              : line.tone == JobLineTone::kError ? imgui_colour(theme.error)
                              : line.tone == JobLineTone::kDim
                                  ? ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)
                                  : ImGui::GetStyleColorVec4(ImGuiCol_Text);
        // Wrapped at the pane's edge: beside the buttons, a long line must not widen the pane.
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        ImGui::TextWrapped("%s", line.text.c_str());
        ImGui::PopStyleColor();
    }
    if (!line.detail.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", line.detail.c_str());
        ImGui::PopStyleColor();
    }
    return clicked;
}

}  // namespace tclens::gui
