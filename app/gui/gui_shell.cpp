#include "app/gui/gui_shell.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "app/exit_codes.h"
#include "app/gui/app_context.h"
#include "app/gui/frame_stats.h"
#include "app/gui/gui_runtime.h"
#include "app/gui/panel_registry.h"
#include "app/gui/panel_settings.h"
#include "tclens_version.h"

namespace tclens::gui {
namespace {

// $XDG_CONFIG_HOME/tclens/imgui.ini (or ~/.config/...); "" when there is no writable home.
std::string settings_path() {
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".config";
    } else {
        return "";
    }
    std::error_code ignored;
    std::filesystem::create_directories(base / "tclens", ignored);
    return ignored ? "" : (base / "tclens" / "imgui.ini").string();
}

struct ShellState {
    bool quit = false;
    bool show_help = false;
    std::string focus_panel;  // id of the panel to bring to the front next frame (a link's)
    std::string link_error;   // the last panel link that could not be followed, one line
};

void draw_main_menu(std::vector<std::unique_ptr<Panel>>& panels, ShellState& state) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        for (auto& panel : panels) {
            ImGui::MenuItem(std::string(panel->title()).c_str(), nullptr, &panel->visible);
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("Panels and shortcuts", "F1", &state.show_help);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void draw_help(const std::vector<std::unique_ptr<Panel>>& panels, ShellState& state) {
    if (!state.show_help) return;
    ImGui::SetNextWindowSize(ImVec2(520, 360), ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Help", &state.show_help)) {
        ImGui::Text("tclens %s", TCLENS_VERSION);
        ImGui::TextUnformatted("Ctrl+Q quit    F1 this help    View menu: show or hide panels");
        for (const auto& panel : panels) {
            if (ImGui::CollapsingHeader(std::string(panel->title()).c_str(),
                                        ImGuiTreeNodeFlags_DefaultOpen)) {
                ImGui::TextWrapped("%s", std::string(panel->help()).c_str());
            }
        }
    }
    ImGui::End();
}

// Bottom strip: the GPU on the left; the running job, its progress and Cancel on the right.
void draw_status_bar(AppContext& context, const ShellState& state) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float height = ImGui::GetFrameHeightWithSpacing() + 4.0f;
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y - height));
    ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, height));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status", nullptr, flags)) {
        const auto report = context.system.latest();
        ImGui::TextUnformatted(report ? profiling::system_summary(*report).c_str()
                                      : "querying the GPU...");
        const JobStatus job = context.jobs.status();
        if (job.busy) {
            ImGui::SameLine(viewport->WorkSize.x * 0.6f);
            ImGui::Text("%s", job.title.c_str());
            ImGui::SameLine();
            ImGui::ProgressBar(job.fraction, ImVec2(160, 0), job.message.c_str());
            ImGui::SameLine();
            if (ImGui::SmallButton("Cancel")) context.jobs.cancel_current();
            if (job.queued > 0) {
                ImGui::SameLine();
                ImGui::Text("+%zu queued", job.queued);
            }
        } else if (!job.last_error.empty() || !state.link_error.empty()) {
            ImGui::SameLine(viewport->WorkSize.x * 0.6f);
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s",
                               job.last_error.empty() ? state.link_error.c_str()
                                                      : job.last_error.c_str());
        }
    }
    ImGui::End();
}

void draw_panels(std::vector<std::unique_ptr<Panel>>& panels, AppContext& context,
                 ShellState& state) {
    float x = 16.0f;
    for (auto& panel : panels) {
        if (!panel->visible) continue;
        ImGui::SetNextWindowPos(ImVec2(x, 40.0f), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(560.0f, 680.0f), ImGuiCond_FirstUseEver);
        x += 580.0f;
        if (panel->id() == state.focus_panel) {
            ImGui::SetNextWindowFocus();
            state.focus_panel.clear();
        }
        if (ImGui::Begin(std::string(panel->title()).c_str(), &panel->visible)) {
            panel->draw(context);
        }
        ImGui::End();
    }
}

// Follows the links panels posted this frame: their targets show (and come to the front) from
// the next frame on.
void follow_panel_links(std::vector<std::unique_ptr<Panel>>& panels, AppContext& context,
                        ShellState& state) {
    for (const PanelLink& link : context.panel_links) {
        state.link_error = follow_panel_link(panels, link);
        if (state.link_error.empty()) state.focus_panel = link.panel;
    }
    context.panel_links.clear();
}

void handle_shortcuts(ShellState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q)) state.quit = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F1)) state.show_help = !state.show_help;
}

}  // namespace

int run_gui_shell(const GuiShellOptions& options) {
    auto panels = make_all_panels();
    std::string error = apply_panel_settings(panels, options.settings);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitUsage;
    }
    GuiRuntimeOptions window_options;
    window_options.ini_path = settings_path();
    auto runtime = GuiRuntime::open(window_options, error);
    if (!runtime) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitNeedsResource;
    }
    if (options.frame_stats) glfwSwapInterval(0);
    AppContext context;
    request_system_query(context);
    ShellState state;
    FrameStats stats;

    for (int frame = 0; !state.quit && !glfwWindowShouldClose(runtime->window()); ++frame) {
        if (options.frames > 0 && frame >= options.frames) break;
        stats.begin_frame();
        glfwPollEvents();
        runtime->begin_frame();
        handle_shortcuts(state);
        draw_main_menu(panels, state);
        draw_panels(panels, context, state);
        follow_panel_links(panels, context, state);
        draw_help(panels, state);
        draw_status_bar(context, state);

        int width = 0, height = 0;
        glfwGetFramebufferSize(runtime->window(), &width, &height);
        glViewport(0, 0, width, height);
        glClearColor(0.10f, 0.11f, 0.13f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        runtime->render_frame();
        glfwSwapBuffers(runtime->window());
        if (options.frame_stats) stats.end_frame();
    }
    context.jobs.cancel_all();
    if (options.frame_stats) std::printf("%s\n", stats.summary().c_str());
    return kExitOk;
}

}  // namespace tclens::gui
