#include "app/gui/shell/kernel_open.h"

#include <imgui.h>

#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/theme.h"

namespace tclens::gui {
namespace {

constexpr const char* kPopup = "Open kernel";

}  // namespace

void KernelOpenDialog::draw_menu_item() {
    if (ImGui::MenuItem("Open kernel...")) open_requested_ = true;
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "a .cu of yours (a host launcher, a kernel with a tclens: directive, or "
            "a one-warp fragment exercise), run in a worker process; or drop one "
            "on the window");
    }
}

std::optional<PanelLink> KernelOpenDialog::draw() {
    if (open_requested_) {
        ImGui::OpenPopup(kPopup);
        open_requested_ = false;
        error_.clear();
    }
    ImGui::SetNextWindowSize(ImVec2(em_width(43), 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(kPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return {};
    ImGui::TextUnformatted("Kernel file, path.cu[:NAME][:TYPE] (docs/your-kernel.md):");
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    next_item_width(40);
    bool confirmed = ImGui::InputText("##kernel", path_.data(), path_.size(),
                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (!error_.empty())
        ImGui::TextColored(imgui_colour(current_theme().error), "%s", error_.c_str());
    confirmed = ImGui::Button("Open") || confirmed;
    ImGui::SameLine();
    const bool cancelled = ImGui::Button("Cancel") || ImGui::IsKeyPressed(keys::kEscape);
    std::optional<PanelLink> opened;
    if (confirmed) {
        PanelLink link;
        if (user_kernel_link(path_.data(), link, error_)) opened = std::move(link);
    }
    if (opened || cancelled) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return opened;
}

}  // namespace tclens::gui
