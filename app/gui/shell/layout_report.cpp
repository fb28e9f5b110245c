#include "app/gui/shell/layout_report.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>

#include "app/gui/shell/shell_frame.h"
#include "viz/atomic_file.h"

namespace tclens::gui {
namespace {

using nlohmann::json;

json rect(const Rect& r) { return json::array({r.x, r.y, r.width, r.height}); }
json rect(const ImRect& r) { return json::array({r.Min.x, r.Min.y, r.GetWidth(), r.GetHeight()}); }

}  // namespace

std::string layout_report_json(const ShellFrame& shell) {
    const ImGuiIO& io = ImGui::GetIO();
    const Workspace& workspace = shell.workspace();
    json report;
    report["display"] = {{"width", io.DisplaySize.x}, {"height", io.DisplaySize.y}};
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
        const ImGuiWindow* window = ImGui::FindWindowByName(shown.name.c_str());
        if (!window) continue;
        windows.push_back({{"name", shown.name},
                           {"role", shown.role},
                           {"rect", rect(window->Rect())},
                           {"inner", rect(window->InnerRect)},
                           {"content", {window->ContentSize.x, window->ContentSize.y}},
                           {"cut", {window->ScrollMax.x, window->ScrollMax.y}}});
    }
    report["windows"] = std::move(windows);
    return report.dump(1) + "\n";
}

std::string write_layout_report(const ShellFrame& shell, const std::string& path) {
    return viz::write_bytes_atomically(path, layout_report_json(shell));
}

}  // namespace tclens::gui
