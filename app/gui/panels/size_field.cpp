#include "app/gui/panels/size_field.h"

#include <imgui.h>

#include <cstdio>

#include "app/gui/views/item_width.h"
#include "kernels/problem_text.h"

namespace tclens::gui {

// The default first, so that a problem is always there to run, whatever `text` is.
SizeField::SizeField(const std::string& text) {
    take(kDefaultText);
    take(text);
}

void SizeField::take(const std::string& text) {
    std::snprintf(buffer_.data(), buffer_.size(), "%s", text.c_str());
    const auto problem = kernels::parse_problem(buffer_.data());
    error_ = problem ? "" : kernels::problem_error(buffer_.data());
    if (problem) problem_ = *problem;
}

std::string SizeField::apply_setting(const std::string& text) {
    if (!kernels::parse_problem(text)) return "mnk='" + text + "': " + kernels::problem_error(text);
    take(text);
    return "";
}

void SizeField::draw() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("size");
    ImGui::SameLine();
    next_item_width(9, buffer_.data());
    if (ImGui::InputText("##size", buffer_.data(), buffer_.size())) take(buffer_.data());
    note_shown_value(buffer_.data(), ItemKind::kField);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("MxNxK, e.g. 4096x4096x4096");
}

}  // namespace tclens::gui
