#include "app/gui/shell/workspace_settings.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>

#include "app/gui/shell/workspace.h"

namespace tclens::gui {
namespace {

constexpr const char* kType = "tclens";
constexpr const char* kEntry = "workspace";

void* open_entry(ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) {
    return std::strcmp(name, kEntry) == 0 ? handler->UserData : nullptr;
}

void read_line(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
    static_cast<Workspace*>(entry)->read_line(line);
}

void write_all(ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
    const auto* workspace = static_cast<const Workspace*>(handler->UserData);
    out->appendf("[%s][%s]\n%s\n", kType, kEntry, workspace->to_lines().c_str());
}

}  // namespace

void install_workspace_settings(Workspace& workspace) {
    ImGuiSettingsHandler handler;
    handler.TypeName = kType;
    handler.TypeHash = ImHashStr(kType);
    handler.ReadOpenFn = open_entry;
    handler.ReadLineFn = read_line;
    handler.WriteAllFn = write_all;
    handler.UserData = &workspace;
    ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);
}

}  // namespace tclens::gui
