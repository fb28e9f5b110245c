#include "app/gui/shell/shell_frame.h"

#include <imgui.h>

#include "app/gui/lecture/lecture_mode.h"
#include "app/gui/panels/panel_registry.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/shell/app_context.h"
#include "app/gui/shell/keys.h"
#include "tclens_version.h"

namespace tclens::gui {

ShellFrame::ShellFrame() : panels_(make_all_panels()) {}

std::string ShellFrame::apply_settings(const std::vector<std::string>& settings) {
    return apply_panel_settings(panels_, settings);
}

std::string ShellFrame::show_only(const std::string& id) {
    bool found = false;
    for (const auto& panel : panels_) found = found || panel->id() == id;
    if (!found) return "unknown view '" + id + "'; views: " + panel_ids_text();
    for (auto& panel : panels_) panel->visible = panel->id() == id;
    return "";
}

void ShellFrame::draw(AppContext& context) {
    handle_shortcuts();
    draw_main_menu();
    recordings_.draw(context);
    draw_panels(context);
    follow_panel_links(context);
    draw_help();
    draw_status_bar(context);
}

void ShellFrame::draw_main_menu() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        recordings_.draw_file_menu_items();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        for (auto& panel : panels_) {
            ImGui::MenuItem(std::string(panel->title()).c_str(), nullptr, &panel->visible);
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("Panels and shortcuts", "F1", &show_help_);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void ShellFrame::draw_help() {
    if (!show_help_) return;
    ImGui::SetNextWindowSize(ImVec2(520, 360), ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Help", &show_help_)) {
        ImGui::Text("tclens %s", TCLENS_VERSION);
        ImGui::TextUnformatted("Ctrl+Q quit    F1 this help    View menu: show or hide panels");
        for (const auto& panel : panels_) {
            if (ImGui::CollapsingHeader(std::string(panel->title()).c_str(),
                                        ImGuiTreeNodeFlags_DefaultOpen)) {
                ImGui::TextWrapped("%s", std::string(panel->help()).c_str());
            }
        }
    }
    ImGui::End();
}

// Bottom strip: the GPU on the left; the running job, its progress and Cancel on the right.
void ShellFrame::draw_status_bar(AppContext& context) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float height = ImGui::GetFrameHeightWithSpacing() + 4.0f;
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y - height));
    ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, height));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status", nullptr, flags)) {
        const auto report = context.system.latest();
        ImGui::TextUnformatted(report ? profiling::system_summary(*report).c_str()
                                      : "querying the GPU...");
        const JobStatus job = context.jobs.status();
        if (job.busy) {
            ImGui::SameLine(viewport->WorkSize.x * 0.6f);
            ImGui::Text("%s", job.title.c_str());
            ImGui::SameLine();
            ImGui::ProgressBar(job.fraction, ImVec2(160, 0), job.message.c_str());
            ImGui::SameLine();
            if (ImGui::SmallButton("Cancel")) context.jobs.cancel_current();
            if (job.queued > 0) {
                ImGui::SameLine();
                ImGui::Text("+%zu queued", job.queued);
            }
        } else if (!job.last_error.empty() || !link_error_.empty()) {
            ImGui::SameLine(viewport->WorkSize.x * 0.6f);
            ImGui::TextColored(
                imgui_colour(current_theme().error), "%s",
                job.last_error.empty() ? link_error_.c_str() : job.last_error.c_str());
        }
    }
    ImGui::End();
}

void ShellFrame::draw_panels(AppContext& context) {
    float x = 16.0f;
    for (auto& panel : panels_) {
        if (!panel->visible) continue;
        ImGui::SetNextWindowPos(ImVec2(x, 40.0f), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(560.0f, 680.0f), ImGuiCond_FirstUseEver);
        x += 580.0f;
        if (panel->id() == focus_panel_) {
            ImGui::SetNextWindowFocus();
            focus_panel_.clear();
        }
        if (ImGui::Begin(std::string(panel->title()).c_str(), &panel->visible)) {
            if (!log_text_path.empty()) {
                ImGui::LogToFile(-1, log_text_path.c_str());
                ImGui::LogText("== %s ==\n", std::string(panel->id()).c_str());
            }
            panel->draw(context);
            if (!log_text_path.empty()) ImGui::LogFinish();
        }
        ImGui::End();
    }
}

// Follows the links panels posted this frame: their targets show (and come to the front) from
// the next frame on.
void ShellFrame::follow_panel_links(AppContext& context) {
    for (const PanelLink& link : context.panel_links) {
        link_error_ = follow_panel_link(panels_, link);
        if (link_error_.empty()) focus_panel_ = link.panel;
    }
    context.panel_links.clear();
}

void ShellFrame::handle_shortcuts() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(keys::kQ)) quit_ = true;
    if (ImGui::IsKeyPressed(keys::kF1)) show_help_ = !show_help_;
}

}  // namespace tclens::gui
