#include "app/gui/shell/tour_overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "app/gui/shell/shell_frame.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/presentation.h"

namespace tclens::gui {
namespace {

ImU32 colour(const unsigned char (&rgba)[4]) {
    return IM_COL32(rgba[0], rgba[1], rgba[2], rgba[3]);
}

float padding_for(float caption_size) { return std::round(caption_size * 0.45f); }
float accent_height() { return std::max(3.0f, std::round(3.0f * ui_zoom())); }

float counter_width(const CaptionBanner& banner) {
    return banner.counter.empty() ? 0.0f : ImGui::CalcTextSize(banner.counter.c_str()).x + 16.0f;
}

float wrapped_height(ImFont* font, float size, float wrap, const std::string& text) {
    return font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str()).y;
}

// Width / height of what the main view (`title`'s window and its children) painted in an earlier
// frame; 0 when it painted nothing.
float drawing_shape(const std::string& title) {
    float left = 0, top = 0, right = 0, bottom = 0;
    bool found = false;
    for (const PaintedView& view : painted_views_before()) {
        if (view.window != title && view.window.rfind(title + "/", 0) != 0) continue;
        const float x = view.drawn[0], y = view.drawn[1];
        left = found ? std::min(left, x) : x;
        top = found ? std::min(top, y) : y;
        right = found ? std::max(right, x + view.drawn[2]) : x + view.drawn[2];
        bottom = found ? std::max(bottom, y + view.drawn[3]) : y + view.drawn[3];
        found = true;
    }
    return found && bottom > top ? (right - left) / (bottom - top) : 0.0f;
}

// The area of a drawing of `shape` (width / height) fitted into width x height.
float fitted_area(float shape, float width, float height) {
    const float w = std::min(width, height * shape);
    return w > 0 ? w * w / shape : 0.0f;
}

}  // namespace

float caption_banner_height(const CaptionBanner& banner, float width, ImFont* caption_font,
                            float caption_size) {
    const float pad = padding_for(caption_size);
    const float wrap = std::max(1.0f, width - 2 * pad - counter_width(banner));
    float height = accent_height() + 2 * pad;
    for (const std::string& problem : banner.problems) {
        height += wrapped_height(ImGui::GetFont(), ImGui::GetFontSize(), wrap, problem) + 4.0f;
    }
    return std::ceil(height + wrapped_height(caption_font, caption_size, wrap, banner.caption));
}

void draw_caption_banner(const CaptionBanner& banner, float x, float y, float width,
                         ImFont* caption_font, float caption_size) {
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const float height = caption_banner_height(banner, width, caption_font, caption_size);
    const float pad = padding_for(caption_size);
    const float accent = accent_height();
    const float wrap = std::max(1.0f, width - 2 * pad - counter_width(banner));
    draw->AddRectFilled(ImVec2(x, y), ImVec2(x + width, y + height), IM_COL32(0, 0, 0, 255));
    draw->AddRectFilled(ImVec2(x, y), ImVec2(x + width, y + accent), colour(kBannerAccent));
    float top = y + accent + pad;
    for (const std::string& problem : banner.problems) {
        draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x + pad, top),
                      colour(kBannerProblem), problem.c_str(), nullptr, wrap);
        top += wrapped_height(ImGui::GetFont(), ImGui::GetFontSize(), wrap, problem) + 4.0f;
    }
    draw->AddText(caption_font, caption_size, ImVec2(x + pad, top), IM_COL32(255, 255, 255, 255),
                  banner.caption.c_str(), nullptr, wrap);
    if (!banner.counter.empty()) {
        const float counter_x = x + width - pad - ImGui::CalcTextSize(banner.counter.c_str()).x;
        draw->AddText(ImVec2(counter_x, y + accent + pad), IM_COL32(190, 190, 190, 255),
                      banner.counter.c_str());
    }
}

float draw_banner_above(const CaptionBanner& banner, float x, float bottom, float width,
                        const LectureMode& lecture) {
    ImFont* font = lecture.caption_font() ? lecture.caption_font() : ImGui::GetFont();
    const float size = lecture.caption_font() ? lecture.caption_size() : ImGui::GetFontSize();
    const float height = caption_banner_height(banner, width, font, size);
    draw_caption_banner(banner, x, bottom - height, width, font, size);
    return height;
}

TourOverlay::TourOverlay(std::string path, double autoplay_seconds)
    : path_(std::move(path)), autoplay_s_(autoplay_seconds) {}

const std::vector<TourError>& TourOverlay::start() {
    if (!loaded_) {
        TourLoad load = load_tour(path_);
        player_ = TourPlayer(std::move(load.tour));
        load_errors_ = std::move(load.errors);
        loaded_ = true;
    }
    show_load_errors_ = !load_errors_.empty();
    start_requested_ = true;
    return load_errors_;
}

void TourOverlay::show_step(Workspace& workspace,
                            const std::vector<std::unique_ptr<Panel>>& panels) {
    shown_changes_ = player_.changes();
    step_error_.clear();
    const TourStep* step = player_.current();
    if (!step) {
        leave(workspace);
        return;
    }
    if (!before_) before_ = workspace;
    auto [shown, split_error] = step_workspace(*step, workspace);
    workspace = std::move(shown);
    step_error_ = split_error;
    for (const auto& panel : panels) {
        if (panel->id() != step->view) continue;
        const std::string error = apply_step_settings(*step, *panel);
        if (step_error_.empty()) step_error_ = error;
    }
}

void TourOverlay::leave(Workspace& workspace) {
    player_.leave();
    shown_changes_ = player_.changes();
    if (before_) workspace = *before_;
    before_.reset();
}

void TourOverlay::handle_keys() {
    const ImGuiIO& io = ImGui::GetIO();
    if (!player_.active() || io.WantTextInput ||
        ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) {
        return;
    }
    if (ImGui::IsKeyPressed(keys::kRight) || ImGui::IsKeyPressed(keys::kPageDown) ||
        ImGui::IsKeyPressed(keys::kSpace)) {
        player_.next();
    }
    if (ImGui::IsKeyPressed(keys::kLeft) || ImGui::IsKeyPressed(keys::kPageUp)) player_.previous();
    if (ImGui::IsKeyPressed(keys::kHome, false)) player_.first();
    if (ImGui::IsKeyPressed(keys::kEnd, false)) player_.last();
    if (ImGui::IsKeyPressed(keys::kEscape, false)) {
        player_.leave();
        show_load_errors_ = false;
    }
}

void TourOverlay::draw_menu() {
    if (controls_folded() || !ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("View")) {
        ImGui::Separator();
        if (player_.active()) {
            if (ImGui::MenuItem("Leave tour", "Esc")) {
                player_.leave();
                show_load_errors_ = false;
            }
        } else if (ImGui::MenuItem("Start tour")) {
            start();
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip(
                "%s\nRight / PageDown / Space: next step, Left / PageUp: previous, "
                "Home / End: first / last, Esc: leave",
                path_.c_str());
        }
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

CaptionReserve TourOverlay::update(Workspace& workspace,
                                   const std::vector<std::unique_ptr<Panel>>& panels,
                                   const LectureMode& lecture) {
    if (start_requested_) {
        start_requested_ = false;
        player_.set_autoplay(autoplay_s_, ImGui::GetTime());
        player_.start();
    }
    handle_keys();
    player_.advance_if_due(ImGui::GetTime());
    if (player_.changes() != shown_changes_) {
        if (shown_changes_ != 0) show_load_errors_ = false;
        show_step(workspace, panels);
    }
    banner_.reset();
    const TourStep* step = player_.current();
    if (!step && !show_load_errors_) return {};

    CaptionBanner banner;
    if (step) {
        banner.caption = step->caption;
        banner.counter = "step " + std::to_string(player_.index() + 1) + " of " +
                         std::to_string(player_.tour().steps.size());
    } else {
        banner.caption = "The tour cannot start; Esc hides this.";
        if (ImGui::IsKeyPressed(keys::kEscape, false)) show_load_errors_ = false;
    }
    if (!step_error_.empty()) banner.problems.push_back(step_error_);
    if (show_load_errors_) {
        for (const TourError& error : load_errors_) banner.problems.push_back(error.message);
    }
    banner_ = std::move(banner);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float width = viewport->WorkSize.x;
    const float bottom = viewport->WorkPos.y + viewport->WorkSize.y - status_bar_height();
    const bool compact = lecture.presentation();
    ImFont* font = !compact && lecture.caption_font() ? lecture.caption_font() : ImGui::GetFont();
    const float size =
        !compact && lecture.caption_font() ? lecture.caption_size() : ImGui::GetFontSize();
    const float below = caption_banner_height(*banner_, width, font, size);
    placed_ = {viewport->WorkPos.x, bottom - below, width, font, size};
    if (!compact) return {below, 0.0f};
    std::string title;
    for (const auto& panel : panels) {
        if (panel->id() == workspace.main_view()) title = std::string(panel->title());
    }
    const float shape = drawing_shape(title);
    const float height = bottom - viewport->WorkPos.y;
    if (shape <= 0) return {below, 0.0f};
    const float column = std::clamp(width - height * shape, em_width(14), width * 0.45f);
    const float beside = caption_banner_height(*banner_, column, font, size);
    if (beside > height ||
        fitted_area(shape, width - column, height) <= fitted_area(shape, width, height - below)) {
        return {below, 0.0f};
    }
    placed_ = {viewport->WorkPos.x + width - column, bottom - beside, column, font, size};
    return {0.0f, column};
}

void TourOverlay::draw() {
    draw_menu();
    if (!banner_) return;
    draw_caption_banner(*banner_, placed_.x, placed_.y, placed_.width, placed_.font, placed_.size);
}

}  // namespace tclens::gui
