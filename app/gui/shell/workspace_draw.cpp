#include "app/gui/shell/workspace_draw.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/views/keys.h"

namespace tclens::gui {
namespace {

constexpr const char* kSplitKey = "Ctrl+\\";
constexpr const char* kBelowKey = "Ctrl+Shift+\\";
constexpr std::size_t kKeyedViews = 9;  // Ctrl+1 .. Ctrl+9

// "Ctrl+3" for the third view; "" past the ninth.
std::string view_key(std::size_t index, bool shift = false) {
    if (index >= kKeyedViews) return "";
    return std::string(shift ? "Ctrl+Shift+" : "Ctrl+") + std::to_string(index + 1);
}

float row_width(const char* label, const char* key) {
    return ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x * 2 +
           ImGui::CalcTextSize(key).x;
}

// A full-width row: `label` left, `key` right in the disabled colour. Returns true when clicked.
bool rail_row(const char* label, const char* key, bool selected) {
    const float width = ImGui::GetContentRegionAvail().x;
    const bool clicked = ImGui::Selectable(label, selected, 0, ImVec2(width, 0));
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(key).x);
    ImGui::TextDisabled("%s", key);
    return clicked;
}

// Split below: turn it on below, or flip a running split.
void split_below(Workspace& workspace) {
    if (workspace.split() == Split::kOff) {
        workspace.set_orientation(Split::kBelow);
    } else {
        workspace.toggle_orientation();
    }
}

}  // namespace

float rail_width(const std::vector<std::unique_ptr<Panel>>& panels) {
    float widest = std::max(row_width("Split", kSplitKey), row_width("Below", kBelowKey));
    for (std::size_t i = 0; i < panels.size(); ++i) {
        widest = std::max(widest,
                          row_width(std::string(panels[i]->title()).c_str(), view_key(i).c_str()));
    }
    return std::ceil(widest + ImGui::GetStyle().WindowPadding.x * 2 +
                     ImGui::GetStyle().ItemSpacing.x);
}

float divider_thickness() { return std::round(ImGui::GetStyle().ItemSpacing.x); }

float min_pane_length() { return std::round(ImGui::GetFontSize() * 12); }

void handle_workspace_keys(Workspace& workspace,
                           const std::vector<std::unique_ptr<Panel>>& panels) {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || io.WantTextInput) return;
    for (std::size_t i = 0; i < panels.size() && i < kKeyedViews; ++i) {
        if (!ImGui::IsKeyPressed(keys::k1 + int(i), false)) continue;
        const std::string id(panels[i]->id());
        if (io.KeyShift) {
            workspace.show_second(id);
        } else {
            workspace.show(id);
        }
    }
    if (ImGui::IsKeyPressed(keys::kBackslash, false)) {
        if (io.KeyShift) {
            workspace.toggle_orientation();
        } else {
            workspace.toggle_split();
        }
    }
}

void draw_workspace_menu_items(Workspace& workspace,
                               const std::vector<std::unique_ptr<Panel>>& panels) {
    for (std::size_t i = 0; i < panels.size(); ++i) {
        const std::string id(panels[i]->id());
        if (ImGui::MenuItem(std::string(panels[i]->title()).c_str(), view_key(i).c_str(),
                            workspace.main_view() == id)) {
            workspace.show(id);
        }
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Split", kSplitKey, workspace.split() != Split::kOff)) {
        workspace.toggle_split();
    }
    if (ImGui::MenuItem("Split below", kBelowKey, workspace.split() == Split::kBelow)) {
        split_below(workspace);
    }
    if (ImGui::BeginMenu("Pop out")) {
        for (const auto& panel : panels) {
            const std::string id(panel->id());
            if (ImGui::MenuItem(std::string(panel->title()).c_str(), nullptr,
                                workspace.is_floating(id))) {
                if (workspace.is_floating(id)) {
                    workspace.show(id);
                } else {
                    workspace.pop_out(id);
                }
            }
        }
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Reset layout")) workspace.reset();
}

void draw_rail(Workspace& workspace, const std::vector<std::unique_ptr<Panel>>& panels,
               const Rect& rail) {
    ImGui::SetNextWindowPos(ImVec2(rail.x, rail.y));
    ImGui::SetNextWindowSize(ImVec2(rail.width, rail.height));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin(kRailWindow, nullptr, flags)) {
        const ImVec4 header = ImGui::GetStyleColorVec4(ImGuiCol_Header);
        for (std::size_t i = 0; i < panels.size(); ++i) {
            const std::string id(panels[i]->id());
            const std::string title(panels[i]->title());
            const bool second = workspace.second_view() == id;
            const bool floating = workspace.is_floating(id);
            ImGui::PushID(int(i));
            int colours = 0;
            if (second) {
                ImGui::PushStyleColor(ImGuiCol_Header,
                                      ImVec4(header.x, header.y, header.z, header.w * 0.45f));
                ++colours;
            }
            if (floating) {
                ImGui::PushStyleColor(ImGuiCol_Text,
                                      ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
                ++colours;
            }
            if (rail_row(title.c_str(), view_key(i).c_str(),
                         workspace.main_view() == id || second)) {
                workspace.show(id);
            }
            ImGui::PopStyleColor(colours);
            if (ImGui::IsItemHovered()) {
                ImGui::SetTooltip("%s%s: here; %s: beside or below; right-click: more",
                                  floating ? "In its own window. " : "", view_key(i).c_str(),
                                  view_key(i, true).c_str());
            }
            if (ImGui::BeginPopupContextItem("##view")) {
                if (ImGui::MenuItem("Show here", view_key(i).c_str())) workspace.show(id);
                if (ImGui::MenuItem("Show beside or below", view_key(i, true).c_str())) {
                    workspace.show_second(id);
                }
                if (floating ? ImGui::MenuItem("Back from its window")
                             : ImGui::MenuItem("Pop out into a window")) {
                    floating ? workspace.show(id) : workspace.pop_out(id);
                }
                ImGui::EndPopup();
            }
            ImGui::PopID();
        }
        ImGui::Separator();
        if (rail_row("Split", kSplitKey, workspace.split() != Split::kOff)) {
            workspace.toggle_split();
        }
        if (rail_row("Below", kBelowKey, workspace.split() == Split::kBelow)) {
            split_below(workspace);
        }
    }
    ImGui::End();
}

void draw_divider(Workspace& workspace, const WorkspaceLayout& layout) {
    const Split split = layout.split;
    const Rect& divider = layout.divider;
    if (split == Split::kOff || divider.width <= 0 || divider.height <= 0) return;
    const bool beside = split == Split::kBeside;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    ImGui::SetNextWindowPos(ImVec2(divider.x, divider.y));
    ImGui::SetNextWindowSize(ImVec2(divider.width, divider.height));
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse |
        ImGuiWindowFlags_NoBackground;
    if (ImGui::Begin(kDividerWindow, nullptr, flags)) {
        ImGui::InvisibleButton("##drag", ImVec2(divider.width, divider.height));
        const bool active = ImGui::IsItemActive();
        if (active || ImGui::IsItemHovered()) {
            ImGui::SetMouseCursor(beside ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
        }
        if (active) {
            const ImVec2 delta = ImGui::GetIO().MouseDelta;
            const float span = beside ? layout.main.width + layout.second.width
                                      : layout.main.height + layout.second.height;
            if (span > 0)
                workspace.set_ratio(workspace.ratio() + (beside ? delta.x : delta.y) / span);
        }
        const ImU32 colour =
            ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : ImGuiCol_Separator);
        const float cx = divider.x + divider.width * 0.5f, cy = divider.y + divider.height * 0.5f;
        ImGui::GetWindowDrawList()->AddLine(
            beside ? ImVec2(cx, divider.y) : ImVec2(divider.x, cy),
            beside ? ImVec2(cx, divider.bottom()) : ImVec2(divider.right(), cy), colour,
            active ? 3.0f : 1.0f);
    }
    ImGui::End();
    ImGui::PopStyleVar(3);
}

}  // namespace tclens::gui
