#include "app/gui/shell/welcome_strip.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>

#include "app/gui/shell/config_folder.h"
#include "app/gui/shell/drawn_text.h"
#include "app/gui/views/presentation.h"
#include "common/atomic_file.h"

namespace tclens::gui {
namespace {

constexpr const char* kLead = "New here?";
constexpr const char* kTour = "Start the tour";
constexpr const char* kExplain = "What am I looking at?";
constexpr const char* kOpen = "Open a recording or a kernel...";

}  // namespace

WelcomeMemory::WelcomeMemory() : path_(config_file_path(kFileName)) {
    std::error_code ignored;
    dismissed_ = path_.empty() || std::filesystem::exists(path_, ignored);
}

std::string WelcomeMemory::dismiss() {
    dismissed_ = true;
    return common::write_bytes_atomically(
        path_, "The welcome strip was dismissed; delete this file to see it again.\n");
}

std::optional<WelcomeChoice> WelcomeStrip::draw(bool hidden, std::string* captured) {
    // The presentation layout's folded controls take the menu bar away, and the strip with it.
    if (memory_.dismissed() || hidden || controls_folded() || !ImGui::BeginMainMenuBar()) {
        return std::nullopt;
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto width_of = [&](const char* label) {
        return ImGui::CalcTextSize(label).x + 2 * style.ItemSpacing.x;
    };
    const float width = width_of(kLead) + width_of(kTour) + width_of(kExplain) + width_of(kOpen) +
                        width_of("x") + style.ItemSpacing.x;
    // Right-aligned after the menus, or right after them where the bar is too narrow.
    const float right = ImGui::GetWindowContentRegionMax().x;
    if (right - width > ImGui::GetCursorPosX()) ImGui::SetCursorPosX(right - width);
    std::optional<WelcomeChoice> choice;
    const auto items = [&] {
        ImGui::TextDisabled("%s", kLead);
        if (ImGui::MenuItem(kTour)) choice = WelcomeChoice::kStartTour;
        if (ImGui::MenuItem(kExplain)) choice = WelcomeChoice::kExplainView;
        if (ImGui::BeginMenu(kOpen)) {
            if (ImGui::MenuItem("Open recording...")) choice = WelcomeChoice::kOpenRecording;
            if (ImGui::MenuItem("Open kernel...")) choice = WelcomeChoice::kOpenKernel;
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("x")) choice = WelcomeChoice::kDismiss;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide this for good");
    };
    if (captured != nullptr) {
        *captured += drawn_text("welcome", items);
    } else {
        items();
    }
    ImGui::EndMainMenuBar();
    if (choice) {
        if (const std::string error = memory_.dismiss(); !error.empty()) {
            std::fprintf(stderr, "tclens: the welcome strip stays away this run only: %s\n",
                         error.c_str());
        }
    }
    return choice;
}

}  // namespace tclens::gui
