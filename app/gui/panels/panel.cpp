#include "app/gui/panels/panel.h"

#include <imgui.h>

#include "app/gui/jobs/app_context.h"
#include "app/gui/views/lecture_mode.h"

namespace tclens::gui {

Panel::Panel(std::string_view id, std::string_view title, std::string_view help)
    : id_(id), title_(title), help_(help), theme_(&current_theme()) {}

void Panel::draw(AppContext& context) {
    if (const Theme& now = current_theme(); &now != theme_) {
        theme_ = &now;
        theme_changed();
    }
    draw_contents(context);
}

bool panel_reads_arrow_keys(const AppContext& context) {
    return ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) &&
           !ImGui::GetIO().WantTextInput && !context.tour_playing;
}

void label(const char* text) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(text);
    ImGui::SameLine();
}

}  // namespace tclens::gui
