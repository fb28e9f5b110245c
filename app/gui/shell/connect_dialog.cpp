#include "app/gui/shell/connect_dialog.h"

#include <imgui.h>

#include <cstdio>

#include "app/gui/jobs/app_context.h"
#include "app/gui/shell/recent_hosts.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/theme.h"

namespace tclens::gui {
namespace {

constexpr const char* kConnectPopup = "Connect to GPU server";

// Where the worker runs now, for people: "gpu1 (ssh)" or "this machine".
std::string worker_place(const worker::ClientOptions& options) {
    return options.remote ? options.remote->destination() + " (ssh)" : "this machine";
}

}  // namespace

ConnectDialog::ConnectDialog() : recent_(read_recent_hosts()) {}

void ConnectDialog::draw_menu_item() {
    if (ImGui::MenuItem("Connect to GPU server...")) open_requested_ = true;
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "run the GPU work on another machine through ssh ([user@]host[:path to tclens]), or "
            "on this one again");
    }
}

std::string ConnectDialog::connect_to(const std::string& host) {
    const auto target = worker::parse_remote_target(host);
    if (!target) return target.error();
    worker::ClientOptions options;
    options.remote = *target;
    pending_ = std::move(options);
    remember_host(recent_, host);
    return "";
}

void ConnectDialog::connect_here() { pending_ = worker::ClientOptions{}; }

void ConnectDialog::draw(AppContext& context) {
    switch_when_idle(context);
    draw_dialog(context);
}

void ConnectDialog::switch_when_idle(AppContext& context) {
    if (!pending_) return;
    const JobStatus jobs = context.jobs.status();
    if (jobs.busy || jobs.queued > 0) {
        context.jobs.cancel_all();  // again each frame: a job posted meanwhile goes too
        return;
    }
    pending_->time_limit_s = context.worker_options.time_limit_s;
    request_worker_switch(context, std::move(*pending_));
    pending_.reset();
}

void ConnectDialog::draw_dialog(AppContext& context) {
    if (open_requested_) {
        ImGui::OpenPopup(kConnectPopup);
        open_requested_ = false;
        error_.clear();
    }
    ImGui::SetNextWindowSize(ImVec2(em_width(43), 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(kConnectPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::Text("The GPU work runs on %s.", worker_place(context.worker_options).c_str());
    ImGui::TextUnformatted(
        "GPU server, [user@]host[:path to tclens] (through your ssh; docs/remote.md):");
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    next_item_width(40);
    bool confirmed = ImGui::InputText("##host", host_.data(), host_.size(),
                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (!error_.empty())
        ImGui::TextColored(imgui_colour(current_theme().error), "%s", error_.c_str());
    if (!recent_.empty()) {
        ImGui::TextDisabled("recent:");
        for (const std::string& host : recent_) {
            if (ImGui::Selectable(host.c_str())) {
                std::snprintf(host_.data(), host_.size(), "%s", host.c_str());
                confirmed = true;
            }
        }
    }
    confirmed = ImGui::Button("Connect") || confirmed;
    ImGui::SameLine();
    const bool here = ImGui::Button("This machine");
    ImGui::SameLine();
    const bool again = ImGui::Button("Reconnect");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("a fresh worker where it runs now");
    ImGui::SameLine();
    const bool cancelled = ImGui::Button("Cancel") || ImGui::IsKeyPressed(keys::kEscape);
    if (confirmed) error_ = connect_to(host_.data());
    if (here) connect_here();
    if (again) pending_ = context.worker_options;
    if ((confirmed && error_.empty()) || here || again || cancelled) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace tclens::gui
