#pragma once
// What ImGui draws, as words (`tclens --text`, the tests that read a panel): `draw` runs with
// ImGui's logging on, and its text comes back under a line "== id ==", a blank line after it.

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

namespace tclens::gui {

template <typename Draw>
std::string drawn_text(const std::string& id, Draw&& draw) {
    ImGui::LogToBuffer();
    ImGui::LogText("== %s ==\n", id.c_str());
    draw();
    // LogFinish ends the log with a newline and clears the buffer: the text is taken first.
    ImGuiTextBuffer& log = GImGui->LogBuffer;
    std::string text(log.begin(), log.end());
    log.clear();
    ImGui::LogFinish();
    return text + "\n";
}

}  // namespace tclens::gui
