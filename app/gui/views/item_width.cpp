#include "app/gui/views/item_width.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "app/gui/views/frame_list.h"

namespace tclens::gui {
namespace {

// The values shown in this frame and the one before.
FrameList<ShownValue>& shown_frames() {
    static FrameList<ShownValue> frames;
    return frames;
}

}  // namespace

float em_width(float ems) { return ems * ImGui::GetFontSize(); }

float width_to_show(std::string_view text, ItemKind kind) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float text_width = ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
    if (kind == ItemKind::kLabel) return std::ceil(text_width);
    float width = text_width + 2 * style.FramePadding.x;
    if (kind == ItemKind::kCombo) width += ImGui::GetFrameHeight();
    if (kind == ItemKind::kStepper) {
        width += 2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
    }
    return std::ceil(width);
}

void next_item_width(float ems, std::string_view longest, ItemKind kind) {
    const float width = em_width(ems);
    ImGui::SetNextItemWidth(longest.empty() ? width
                                            : std::max(width, width_to_show(longest, kind)));
}

void same_line_if_fits(float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

std::string text_to_fit(std::string_view text, float width) {
    const auto text_width = [](std::string_view part) {
        return ImGui::CalcTextSize(part.data(), part.data() + part.size()).x;
    };
    if (text_width(text) <= width) return std::string(text);
    constexpr std::string_view kEllipsis = "...";
    const float room = width - text_width(kEllipsis);
    std::size_t keep = text.size();
    while (keep > 0 && text_width(text.substr(0, keep)) > room) --keep;
    while (keep > 0 && text[keep - 1] == ' ') --keep;  // "tiling..." rather than "tiling ..."
    return std::string(text.substr(0, keep)) + std::string(kEllipsis);
}

void note_shown_value(std::string_view shown, ItemKind kind, std::string_view label) {
    const ImVec2 min = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
    float width = size.x;
    label = label.substr(0, label.find("##"));  // ImGui shows the part before "##"
    if (!label.empty()) {
        width -= ImGui::CalcTextSize(label.data(), label.data() + label.size()).x +
                 ImGui::GetStyle().ItemInnerSpacing.x;
    }
    shown_frames().now().push_back({ImGui::GetCurrentWindow()->Name,
                                    std::string(shown),
                                    {min.x, min.y, width, size.y},
                                    width_to_show(shown, kind)});
}

void note_shown_text(std::string_view shown, float width) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    shown_frames().now().push_back({ImGui::GetCurrentWindow()->Name,
                                    std::string(shown),
                                    {at.x, at.y, width, ImGui::GetTextLineHeight()},
                                    width_to_show(shown, ItemKind::kLabel)});
}

const std::vector<ShownValue>& shown_values() { return shown_frames().shown(); }

}  // namespace tclens::gui
