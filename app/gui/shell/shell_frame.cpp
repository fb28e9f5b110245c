#include "app/gui/shell/shell_frame.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/panels/panel_registry.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/panels/view_zoom.h"
#include "app/gui/shell/drawn_text.h"
#include "app/gui/shell/workspace_draw.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/presentation.h"
#include "app/gui/views/recording_view.h"
#include "common/one_line.h"
#include "tclens_version.h"

namespace tclens::gui {
namespace {

constexpr const char* kStatusWindow = "##status";
constexpr const char* kMenuWindow = "##MainMenuBar";  // ImGui's name for the main menu bar

ImGuiWindowFlags docked_flags() {
    return ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
}

// The keys, one idea a line (F1's window wraps them).
constexpr const char* kShortcutLines[] = {
    "Ctrl+1..9 show a view; Ctrl+Shift+1..9 show it beside (or below)",
    "Ctrl+\\ split on/off; Ctrl+Shift+\\ beside/below; drag the divider to resize",
    "View menu: pop a view out into a window, Reset layout; Ctrl+F fit the drawing",
    "F11 lecture mode; Ctrl+= / Ctrl+- / Ctrl+0 zoom",
    "Presentation layout (lecture mode): hover the top edge for the menu and the controls",
    "In a tour: Right / PageDown / Space next, Left / PageUp previous, Home / End first / last, "
    "Esc leave",
    "Ctrl+Q quit; F1 help"};

// The top of the drawings painted in `title`'s window (or its children) in an earlier frame;
// `otherwise` when it painted none.
float drawing_top(const std::string& title, float otherwise) {
    float top = otherwise;
    bool found = false;
    for (const PaintedView& view : painted_views_before()) {
        if (view.window != title && view.window.rfind(title + "/", 0) != 0) continue;
        top = found ? std::min(top, view.visible[1]) : view.visible[1];
        found = true;
    }
    return top;
}

}  // namespace

// One row of frame-high widgets, with the frame padding above and below it.
float status_bar_height() {
    if (controls_folded()) return 0.0f;
    return ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.y;
}

ShellFrame::ShellFrame() : panels_(make_all_panels()), workspace_(panel_ids(panels_)) {}

std::string ShellFrame::apply_settings(const std::vector<std::string>& settings) {
    constexpr std::string_view kPrefix = "workspace.";
    constexpr std::string_view kConnect = "connect.to=";
    std::vector<std::string> panel_settings;
    for (const std::string& setting : settings) {
        const bool connect = setting.compare(0, kConnect.size(), kConnect) == 0;
        if (!connect && setting.compare(0, kPrefix.size(), kPrefix) != 0) {
            panel_settings.push_back(setting);
            continue;
        }
        // Panel settings before this one apply first, so an error names the first bad one.
        if (std::string error = apply_panel_settings(panels_, panel_settings); !error.empty()) {
            return error;
        }
        panel_settings.clear();
        if (connect) {
            const std::string host = setting.substr(kConnect.size());
            if (host.empty()) {
                connect_.connect_here();
            } else if (std::string error = connect_.connect_to(host); !error.empty()) {
                return "--set connect.to: " + error;
            }
            continue;
        }
        const auto equals = setting.find('=');
        if (equals == std::string::npos) return "--set '" + setting + "': expected KEY=VALUE";
        const std::string_view text = setting;
        if (std::string error = workspace_.apply_setting(
                text.substr(kPrefix.size(), equals - kPrefix.size()), text.substr(equals + 1));
            !error.empty()) {
            return "--set " + error;
        }
    }
    return apply_panel_settings(panels_, panel_settings);
}

std::string ShellFrame::show_only(const std::string& id) {
    if (std::string error = workspace_.apply_setting("view", id); !error.empty()) {
        return "unknown view '" + id + "'; views: " + panel_ids_text();
    }
    workspace_.apply_setting("split", "off");
    workspace_.apply_setting("floating", "none");
    return "";
}

void ShellFrame::update_presentation(bool on) {
    presentation_ = on;
    const ImGuiIO& io = ImGui::GetIO();
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const bool mouse = ImGui::IsMousePosValid();
    const float y = io.MousePos.y - viewport->Pos.y;
    const bool on_strip = mouse && y >= 0 && y < ImGui::GetFrameHeight();
    std::string main_title;
    for (const auto& panel : panels_) {
        if (panel->id() == workspace_.main_view()) main_title = std::string(panel->title());
    }
    const float controls_bottom =
        drawing_top(main_title, viewport->Pos.y + viewport->Size.y * 0.5f) - viewport->Pos.y;
    const bool on_controls = mouse && y >= 0 && y < controls_bottom;
    const bool busy =
        ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId) || ImGui::IsAnyItemActive();
    revealed_ = on && (on_strip || (revealed_ && (on_controls || busy)));
    set_controls_folded(on && !revealed_);
}

void ShellFrame::draw(AppContext& context, CaptionReserve reserve) {
    windows_.clear();
    captured_text_.clear();
    handle_shortcuts();
    draw_main_menu();
    recordings_.draw(context);
    if (const std::optional<PanelLink> link = kernel_open_.draw()) follow_link(*link, "");
    connect_.draw(context);
    draw_workspace(context, reserve);
    draw_help();
    if (!controls_folded()) draw_status_bar(context);
}

void ShellFrame::draw_main_menu() {
    if (controls_folded() || !ImGui::BeginMainMenuBar()) return;
    windows_.push_back({kMenuWindow, "menu"});
    if (ImGui::BeginMenu("File")) {
        recordings_.draw_file_menu_items();
        kernel_open_.draw_menu_item();
        connect_.draw_menu_item();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        draw_workspace_menu_items(workspace_, panels_);
        const std::vector<ViewZoom*> zooms = shown_view_zooms();
        const bool fitting = !zooms.empty() && zooms.front()->fit();
        if (ImGui::MenuItem("Fit view", "Ctrl+F", fitting, !zooms.empty())) toggle_fit();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
            ImGui::SetTooltip(zooms.empty() ? "the views shown have no drawing to fit (Ctrl+= / "
                                              "Ctrl+- zoom text and tables)"
                                            : "scale the drawing of the views shown to fill the "
                                              "space they have, at any window size and zoom");
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("Views and shortcuts", "F1", &show_help_);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void ShellFrame::show_help() { show_help_ = true; }

void ShellFrame::draw_help() {
    if (!show_help_) return;
    // In font units (within the display), and every line wraps: nothing is cut at any zoom.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(
        ImVec2(std::min(em_width(40), 0.9f * display.x), std::min(em_width(30), 0.8f * display.y)),
        ImGuiCond_FirstUseEver);
    windows_.push_back({"Help", "help"});
    if (ImGui::Begin("Help", &show_help_)) {
        ImGui::Text("tclens %s", TCLENS_VERSION);
        for (const char* line : kShortcutLines) ImGui::TextWrapped("%s", line);
        // The shown view's part first: what "What am I looking at?" asks for.
        std::vector<const Panel*> order;
        for (const auto& panel : panels_) {
            const bool shown = panel->id() == workspace_.main_view();
            order.insert(shown ? order.begin() : order.end(), panel.get());
        }
        for (const Panel* panel : order) {
            if (ImGui::CollapsingHeader(std::string(panel->title()).c_str(),
                                        ImGuiTreeNodeFlags_DefaultOpen)) {
                ImGui::TextWrapped("%s", std::string(panel->help()).c_str());
            }
        }
    }
    ImGui::End();
}

void ShellFrame::draw_captured(const std::string& id, const std::function<void()>& draw) {
    if (!capture_text) {
        draw();
        return;
    }
    captured_text_ += drawn_text(id, draw);
}

// Bottom strip: the open recording (when one is), the GPU; the running job, its progress and
// Cancel on the right.
void ShellFrame::draw_status_bar(AppContext& context) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float height = status_bar_height();
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y - height));
    ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, height));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    windows_.push_back({kStatusWindow, "status"});
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));  // not ImGui's 32 pixels
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x,
                                                            ImGui::GetStyle().FramePadding.y));
    const bool open = ImGui::Begin(kStatusWindow, nullptr, flags);
    ImGui::PopStyleVar(2);
    if (open) draw_captured("status", [&] { draw_status_line(context); });
    ImGui::End();
}

void ShellFrame::draw_status_line(AppContext& context) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    if (const auto shown = context.recording.latest()) {
        ImGui::TextColored(imgui_colour(current_theme().note), "%s |",
                           recording_status(shown->path, shown->recording).c_str());
        ImGui::SameLine();
    }
    const auto report = context.system.latest();
    std::string gpu = report ? profiling::system_summary(*report) : "querying the GPU...";
    if (const auto& remote = context.worker_options.remote) {
        // Every GPU job runs there: the host, then the GPU its worker's hello named, or why none.
        if (report && !report->has_gpu())
            gpu = "none (" + common::one_line(report->no_gpu_reason) + ")";
        gpu = "GPU on " + remote->destination() + " (ssh): " + gpu;
    }
    ImGui::TextUnformatted(gpu.c_str());
    const JobStatus job = context.jobs.status();
    if (job.busy) {
        ImGui::SameLine(viewport->WorkSize.x * 0.6f);
        ImGui::Text("%s", job.title.c_str());
        ImGui::SameLine();
        ImGui::ProgressBar(job.fraction, ImVec2(em_width(10), 0), job.message.c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) context.jobs.cancel_current();
        if (job.queued > 0) {
            ImGui::SameLine();
            ImGui::Text("+%zu queued", job.queued);
        }
    } else if (!job.last_error.empty() || !link_error_.empty()) {
        ImGui::SameLine(viewport->WorkSize.x * 0.6f);
        ImGui::TextColored(imgui_colour(current_theme().error), "%s",
                           job.last_error.empty() ? link_error_.c_str() : job.last_error.c_str());
    }
}

// The rail (none in the presentation layout), the panes and the divider in the space between the
// menu bar and the status bar (less `reserve`), then the floating views. What a frame changes in
// the workspace (a key, a click, a link) shows from the next frame on.
void ShellFrame::draw_workspace(AppContext& context, CaptionReserve reserve) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const Rect area{viewport->WorkPos.x, viewport->WorkPos.y,
                    std::max(0.0f, viewport->WorkSize.x - reserve.right),
                    std::max(0.0f, viewport->WorkSize.y - status_bar_height() - reserve.bottom)};
    const std::string main = workspace_.main_view(), second = workspace_.second_view();
    if (ImGui::GetFontSize() != needs_font_size_) {  // a zoom: measure again
        needed_widths_.clear();
        needs_font_size_ = ImGui::GetFontSize();
    }
    const auto needed = [this](const std::string& id) {
        const auto found = needed_widths_.find(id);
        return found == needed_widths_.end() ? 0.0f : found->second;
    };
    layout_ =
        layout_workspace(workspace_, area, presentation_ ? 0.0f : rail_width(panels_),
                         divider_thickness(), min_pane_length(), {needed(main), needed(second)});
    const std::vector<std::string> floating = workspace_.floating();

    if (!presentation_) {
        windows_.push_back({kRailWindow, "rail"});
        draw_rail(workspace_, panels_, layout_.rail);
    }
    if (workspace_.split() != Split::kOff) windows_.push_back({kDividerWindow, "divider"});
    draw_divider(workspace_, layout_);
    std::set<std::string> docked;
    for (const auto& panel : panels_) {
        const std::string id(panel->id());
        const bool in_main = id == main, in_second = id == second;
        if (!in_main && !in_second) continue;
        const Rect& pane = in_main ? layout_.main : layout_.second;
        ImGui::SetNextWindowPos(ImVec2(pane.x, pane.y));
        ImGui::SetNextWindowSize(ImVec2(pane.width, pane.height));
        draw_panel(context, *panel, in_main ? "main" : "second");
        docked.insert(id);
    }
    if (main.empty()) {
        ImGui::GetBackgroundDrawList()->AddText(
            ImVec2(layout_.main.x + 16, layout_.main.y + 16),
            ImGui::GetColorU32(ImGuiCol_TextDisabled),
            "Every view is in a window of its own: Ctrl+1..9 brings one back here.");
    }
    for (std::size_t i = 0; i < floating.size(); ++i) {
        const std::string& id = floating[i];
        auto panel = std::find_if(panels_.begin(), panels_.end(),
                                  [&](const auto& candidate) { return candidate->id() == id; });
        if (panel == panels_.end()) continue;
        // A view popped out this frame leaves its pane for its last floating place, else a
        // window over the middle of the panes, each next one a title bar lower and to the right;
        // at start ImGui's saved place wins.
        const auto place = floating_places_.find(id);
        const float panes_x = layout_.rail.right(), panes_width = area.right() - panes_x;
        const float cascade = float(i % 8) * ImGui::GetFrameHeightWithSpacing();
        const Place fallback{
            panes_x + panes_width * 0.2f + cascade, area.y + area.height * 0.1f + cascade,
            std::max(panes_width * 0.6f, 320.0f), std::max(area.height * 0.8f, 240.0f)};
        const Place& to = place != floating_places_.end() ? place->second : fallback;
        const ImGuiCond when =
            docked_last_frame_.count(id) ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
        ImGui::SetNextWindowPos(ImVec2(to.x, to.y), when);
        ImGui::SetNextWindowSize(ImVec2(to.width, to.height), when);
        draw_panel(context, **panel, "floating");
    }
    docked_last_frame_ = std::move(docked);
    if (!focus_panel_.empty() && !workspace_.is_shown(focus_panel_)) focus_panel_.clear();
}

// Begins the panel's window where SetNextWindowPos/Size put it, draws the panel, and follows the
// links it posted.
void ShellFrame::draw_panel(AppContext& context, Panel& panel, const std::string& role) {
    const std::string id(panel.id()), title(panel.title());
    const bool floating = role == "floating";
    if (id == focus_panel_) {
        ImGui::SetNextWindowFocus();
        focus_panel_.clear();
    }
    windows_.push_back({title, role});
    bool open = true;
    const std::size_t links_before = context.panel_links.size();
    // The presentation layout's panes have no title bar (the caption says what they show) and
    // half the padding (their own, not their children's): the drawing gets the pixels.
    const bool bare = presentation_ && !floating;
    if (bare) {
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                            ImVec2(ImGui::GetStyle().WindowPadding.x * 0.5f,
                                   ImGui::GetStyle().WindowPadding.y * 0.5f));
    }
    const bool shown =
        ImGui::Begin(title.c_str(), floating ? &open : nullptr,
                     floating ? ImGuiWindowFlags_None
                              : docked_flags() | (bare ? ImGuiWindowFlags_NoTitleBar : 0));
    if (bare) ImGui::PopStyleVar();
    if (shown) {
        const ImGuiWindow* window = ImGui::GetCurrentWindow();
        if (floating) {
            floating_places_[id] = {window->Pos.x, window->Pos.y, window->Size.x, window->Size.y};
        } else {
            // ImGui measured the contents in the frame before: a cut is real only at that size.
            const std::pair<float, float> size{window->Size.x, window->Size.y};
            if (pane_sizes_[id] == size && window->ScrollMax.x > 0.5f) {
                needed_widths_[id] = std::max(needed_widths_[id], size.first + window->ScrollMax.x);
            }
            pane_sizes_[id] = size;
        }
        draw_captured(id, [&] { panel.draw(context); });
    }
    ImGui::End();
    if (!open) workspace_.close_floating(id);
    follow_panel_links(context, links_before, id);
}

// Follows the links `source` posted this frame (from index `first` on): their targets are set up
// and shown (Workspace::show_linked) from the next frame on.
void ShellFrame::follow_panel_links(AppContext& context, std::size_t first,
                                    const std::string& source) {
    for (std::size_t i = first; i < context.panel_links.size(); ++i) {
        follow_link(context.panel_links[i], source);
    }
    context.panel_links.resize(std::min(context.panel_links.size(), first));
}

void ShellFrame::follow_link(const PanelLink& link, const std::string& source) {
    link_error_ = follow_panel_link(panels_, link);
    if (!link_error_.empty()) return;
    if (source.empty()) {
        workspace_.show(link.panel);
    } else {
        workspace_.show_linked(link.panel, source);
    }
    focus_panel_ = link.panel;
}

void ShellFrame::open_kernel(const std::string& ref) {
    PanelLink link;
    if (user_kernel_link(ref, link, link_error_)) follow_link(link, "");
}

void ShellFrame::handle_shortcuts() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(keys::kQ)) quit_ = true;
    if (ImGui::IsKeyPressed(keys::kF1)) show_help_ = !show_help_;
    if (io.KeyCtrl && !io.WantTextInput && ImGui::IsKeyPressed(keys::kF, false)) toggle_fit();
    handle_workspace_keys(workspace_, panels_);
}

std::vector<ViewZoom*> ShellFrame::shown_view_zooms() {
    std::vector<ViewZoom*> zooms;
    for (const std::string& view : {workspace_.main_view(), workspace_.second_view()}) {
        for (const auto& panel : panels_) {
            if (panel->id() != view) continue;
            if (ViewZoom* zoom = panel->view_zoom()) zooms.push_back(zoom);
        }
    }
    return zooms;
}

void ShellFrame::toggle_fit() {
    const std::vector<ViewZoom*> zooms = shown_view_zooms();
    if (zooms.empty()) return;
    const bool fit = !zooms.front()->fit();
    for (ViewZoom* zoom : zooms) zoom->set_fit(fit);
}

}  // namespace tclens::gui
