#include "app/gui/shell/layout_report.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>

#include "app/gui/shell/shell_frame.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/item_width.h"
#include "common/atomic_file.h"

namespace tclens::gui {
namespace {

using nlohmann::json;

json rect(const Rect& r) { return json::array({r.x, r.y, r.width, r.height}); }
json rect(const ImRect& r) { return json::array({r.Min.x, r.Min.y, r.GetWidth(), r.GetHeight()}); }

// The child windows drawn in `window` this frame (panes, lists), depth first.
json children_json(const ImGuiWindow& window) {
    json children = json::array();
    for (const ImGuiWindow* child : window.DC.ChildWindows) {
        if (!child->WasActive) continue;
        children.push_back({{"name", child->Name},
                            {"rect", rect(child->Rect())},
                            {"cut", {child->ScrollMax.x, child->ScrollMax.y}}});
        for (json& grandchild : children_json(*child)) children.push_back(std::move(grandchild));
    }
    return children;
}

// The window named `name` as ImGui placed it, or null when it was not drawn.
json window_json(const std::string& name, const std::string& role) {
    const ImGuiWindow* window = ImGui::FindWindowByName(name.c_str());
    if (!window) return json();
    return {{"name", name},
            {"role", role},
            {"rect", rect(window->Rect())},
            {"inner", rect(window->InnerRect)},
            {"content", {window->ContentSize.x, window->ContentSize.y}},
            {"cut", {window->ScrollMax.x, window->ScrollMax.y}},
            {"children", children_json(*window)}};
}

// The drawings painted in the last frame (draw_list_painter.h).
json views_json() {
    json views = json::array();
    for (const PaintedView& view : painted_views()) {
        views.push_back(
            {{"window", view.window},
             {"drawn", json::array({view.drawn[0], view.drawn[1], view.drawn[2], view.drawn[3]})},
             {"visible",
              json::array({view.visible[0], view.visible[1], view.visible[2], view.visible[3]})},
             {"text_pixels", view.smallest_text}});
    }
    return views;
}

// The values controls showed in the last frame (item_width.h).
json values_json() {
    json values = json::array();
    for (const ShownValue& value : shown_values()) {
        values.push_back({{"window", value.window},
                          {"text", value.text},
                          {"frame", json::array({value.frame[0], value.frame[1], value.frame[2],
                                                 value.frame[3]})},
                          {"needed", value.needed}});
    }
    return values;
}

// The display's size and the body text's height in pixels (ImGui's current font size: lecture
// zoom and content scale included).
json display_json() {
    const ImGuiIO& io = ImGui::GetIO();
    return {{"width", io.DisplaySize.x},
            {"height", io.DisplaySize.y},
            {"font_pixels", ImGui::GetFontSize()}};
}

}  // namespace

std::string layout_report_json(const ShellFrame& shell) {
    const Workspace& workspace = shell.workspace();
    json report;
    report["display"] = display_json();
    report["workspace"] = {
        {"view", workspace.main_view()},
        {"split", workspace.split() == Split::kOff
                      ? std::string("off")
                      : workspace.second_view() + "," + split_name(workspace.split())},
        {"ratio", workspace.ratio()},
        {"floating", workspace.floating()}};
    const WorkspaceLayout& layout = shell.layout();
    report["areas"] = {{"rail", rect(layout.rail)},
                       {"main", rect(layout.main)},
                       {"divider", rect(layout.divider)},
                       {"second", rect(layout.second)}};
    json windows = json::array();
    for (const ShellWindow& shown : shell.windows()) {
        json window = window_json(shown.name, shown.role);
        if (!window.is_null()) windows.push_back(std::move(window));
    }
    report["windows"] = std::move(windows);
    report["views"] = views_json();
    report["values"] = values_json();
    return report.dump(1) + "\n";
}

std::string view_layout_report_json(const std::string& window_name) {
    json report;
    report["display"] = display_json();
    json windows = json::array();
    json window = window_json(window_name, "view");
    if (!window.is_null()) windows.push_back(std::move(window));
    report["windows"] = std::move(windows);
    report["views"] = views_json();
    report["values"] = values_json();
    return report.dump(1) + "\n";
}

std::string write_layout_report(const ShellFrame& shell, const std::string& path) {
    return common::write_bytes_atomically(path, layout_report_json(shell));
}

}  // namespace tclens::gui
