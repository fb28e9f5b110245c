#include "app/gui/views/lecture_mode.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "app/gui/views/keys.h"
#include "app/gui/views/presentation.h"
#include "app/parse_number.h"

namespace tclens::gui {
namespace {

constexpr float kBodyPixels = 15.0f;   // TrueType body text at 100%
constexpr float kCaptionScale = 1.6f;  // caption font / body font
constexpr float kBuiltinPixels = 13.0f;

// The process's one ImGui context has one theme and zoom; views read them from here.
float current_zoom = 1.0f;
bool current_high_contrast = false;

ImVec4 rgb(unsigned hex, float alpha = 1.0f) {
    return ImVec4(float((hex >> 16) & 0xff) / 255.0f, float((hex >> 8) & 0xff) / 255.0f,
                  float(hex & 0xff) / 255.0f, alpha);
}

// Black and white with the colour-blind-safe accents of viz::high_contrast_palette(): blue
// controls, orange when pressed, yellow marks; every border drawn.
void apply_high_contrast(ImGuiStyle& style) {
    ImVec4* c = style.Colors;
    const ImVec4 black = rgb(0x000000), white = rgb(0xffffff);
    const ImVec4 blue = rgb(0x0072b2), bright_blue = rgb(0x0088d1), orange = rgb(0xe69f00);
    const ImVec4 yellow = rgb(0xf0e442), grey = rgb(0x5a5a5a);
    c[ImGuiCol_Text] = white;
    c[ImGuiCol_TextDisabled] = rgb(0xbdbdbd);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = c[ImGuiCol_PopupBg] = black;
    c[ImGuiCol_MenuBarBg] = black;
    c[ImGuiCol_Border] = white;
    c[ImGuiCol_BorderShadow] = rgb(0x000000, 0.0f);
    c[ImGuiCol_FrameBg] = rgb(0x1a1a1a);
    c[ImGuiCol_FrameBgHovered] = rgb(0x303030);
    c[ImGuiCol_FrameBgActive] = rgb(0x404040);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgCollapsed] = black;
    c[ImGuiCol_TitleBgActive] = blue;
    c[ImGuiCol_ScrollbarBg] = black;
    c[ImGuiCol_ScrollbarGrab] = grey;
    c[ImGuiCol_ScrollbarGrabHovered] = rgb(0x8a8a8a);
    c[ImGuiCol_ScrollbarGrabActive] = white;
    c[ImGuiCol_CheckMark] = yellow;
    c[ImGuiCol_SliderGrab] = yellow;
    c[ImGuiCol_SliderGrabActive] = orange;
    c[ImGuiCol_Button] = c[ImGuiCol_Header] = c[ImGuiCol_Tab] = blue;
    c[ImGuiCol_ButtonHovered] = c[ImGuiCol_HeaderHovered] = c[ImGuiCol_TabHovered] = bright_blue;
    c[ImGuiCol_ButtonActive] = c[ImGuiCol_HeaderActive] = c[ImGuiCol_TabActive] = orange;
    c[ImGuiCol_TabUnfocused] = grey;
    c[ImGuiCol_TabUnfocusedActive] = blue;
    c[ImGuiCol_Separator] = white;
    c[ImGuiCol_SeparatorHovered] = bright_blue;
    c[ImGuiCol_SeparatorActive] = orange;
    c[ImGuiCol_ResizeGrip] = grey;
    c[ImGuiCol_ResizeGripHovered] = bright_blue;
    c[ImGuiCol_ResizeGripActive] = orange;
    c[ImGuiCol_PlotLines] = c[ImGuiCol_PlotHistogram] = yellow;
    c[ImGuiCol_PlotLinesHovered] = c[ImGuiCol_PlotHistogramHovered] = orange;
    c[ImGuiCol_TableHeaderBg] = rgb(0x1a1a1a);
    c[ImGuiCol_TableBorderStrong] = white;
    c[ImGuiCol_TableBorderLight] = grey;
    c[ImGuiCol_TableRowBg] = rgb(0x000000, 0.0f);
    c[ImGuiCol_TableRowBgAlt] = rgb(0xffffff, 0.09f);
    c[ImGuiCol_TextSelectedBg] = rgb(0x0072b2, 0.6f);
    c[ImGuiCol_DragDropTarget] = yellow;
    c[ImGuiCol_NavHighlight] = yellow;
    c[ImGuiCol_NavWindowingHighlight] = white;
    c[ImGuiCol_NavWindowingDimBg] = c[ImGuiCol_ModalWindowDimBg] = rgb(0x000000, 0.7f);
    style.WindowBorderSize = 1.0f;
    style.FrameBorderSize = 1.0f;
    style.PopupBorderSize = 1.0f;
}

// The whole file when it looks like a TrueType or OpenType font ImGui can rasterise; else empty.
std::vector<char> read_font(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::vector<char> data((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    static const char kTrueType[4] = {0, 1, 0, 0};
    const bool font = data.size() > 12 && (std::memcmp(data.data(), kTrueType, 4) == 0 ||
                                           std::memcmp(data.data(), "true", 4) == 0 ||
                                           std::memcmp(data.data(), "OTTO", 4) == 0);
    return font ? data : std::vector<char>{};
}

// Adds `data` at `pixels` to the atlas, which takes a copy it owns.
ImFont* add_truetype(const std::vector<char>& data, float pixels) {
    void* copy = ImGui::MemAlloc(data.size());
    std::memcpy(copy, data.data(), data.size());
    ImFontConfig config;
    config.OversampleH = 2;
    return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(copy, int(data.size()), std::round(pixels),
                                                      &config);
}

ImFont* add_builtin(float pixels) {
    ImFontConfig config;
    config.SizePixels = std::round(pixels);
    return ImGui::GetIO().Fonts->AddFontDefault(&config);
}

}  // namespace

LectureSettings lecture_on_settings() { return {kLectureZoomPercent, true, true, true}; }

std::string apply_lecture_setting(LectureSettings& settings, std::string_view key,
                                  std::string_view value) {
    const std::string text(value);
    if (key == "zoom") {
        const auto zoom = parse_number<int>(text);
        if (!zoom || *zoom < kMinZoomPercent || *zoom > kMaxZoomPercent) {
            return "zoom='" + text + "': allowed: " + std::to_string(kMinZoomPercent) + ".." +
                   std::to_string(kMaxZoomPercent) + " (percent)";
        }
        settings.zoom_percent = *zoom;
        return "";
    }
    if (key == "theme") {
        if (text != "dark" && text != "high-contrast") {
            return "theme='" + text + "': allowed: dark, high-contrast";
        }
        settings.high_contrast = text == "high-contrast";
        return "";
    }
    if (key == "fullscreen") {
        if (text != "on" && text != "off") return "fullscreen='" + text + "': allowed: on, off";
        settings.full_screen = text == "on";
        return "";
    }
    if (key == "presentation") {
        if (text != "on" && text != "off") return "presentation='" + text + "': allowed: on, off";
        settings.presentation = text == "on";
        return "";
    }
    return "lecture mode has no setting '" + std::string(key) +
           "'; settings: zoom, theme, fullscreen, presentation";
}

std::string take_lecture_settings(std::vector<std::string>& assignments,
                                  LectureSettings& settings) {
    static constexpr std::string_view kPrefix = "lecture.";
    std::vector<std::string> rest;
    std::string error;
    for (std::string& assignment : assignments) {
        if (assignment.compare(0, kPrefix.size(), kPrefix) != 0) {
            rest.push_back(std::move(assignment));
            continue;
        }
        if (!error.empty()) continue;
        const std::string_view setting = std::string_view(assignment).substr(kPrefix.size());
        const auto equals = setting.find('=');
        if (equals == std::string_view::npos || equals == 0) {
            error = "--set '" + assignment + "': expected lecture.KEY=VALUE";
        } else if (std::string reason = apply_lecture_setting(settings, setting.substr(0, equals),
                                                              setting.substr(equals + 1));
                   !reason.empty()) {
            error = "--set '" + assignment + "': " + reason;
        }
    }
    assignments = std::move(rest);
    return error;
}

const std::vector<std::string>& system_font_candidates() {
    static const std::vector<std::string> paths = {
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",    // Debian, Ubuntu
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",  // Fedora
        "/usr/share/fonts/TTF/DejaVuSans.ttf",                // Arch
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",             // older Fedora, openSUSE
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/noto/NotoSans-Regular.ttf",
    };
    return paths;
}

std::string find_ui_font() {
    if (const char* chosen = std::getenv("TCLENS_FONT"); chosen && *chosen) {
        return std::string(chosen) == "builtin" ? "" : chosen;
    }
    std::error_code ignored;
    for (const std::string& path : system_font_candidates()) {
        if (std::filesystem::is_regular_file(path, ignored)) return path;
    }
    return "";
}

float ui_zoom() { return current_zoom; }

const Theme& current_theme() {
    return current_high_contrast ? high_contrast_theme() : dark_theme();
}

LectureMode::LectureMode(const LectureSettings& initial, LectureHooks hooks)
    : hooks_(std::move(hooks)),
      base_style_(std::make_unique<ImGuiStyle>(ImGui::GetStyle())),
      font_path_(find_ui_font()) {
    request(initial);
    lecture_on_ = initial.high_contrast;
}

LectureMode::~LectureMode() = default;

void LectureMode::request(const LectureSettings& settings) {
    wanted_ = settings;
    wanted_.zoom_percent = std::clamp(settings.zoom_percent, kMinZoomPercent, kMaxZoomPercent);
}

void LectureMode::toggle() {
    if (lecture_on_) {
        lecture_on_ = false;
        request(before_lecture_);
        return;
    }
    before_lecture_ = wanted_;
    LectureSettings on = lecture_on_settings();
    on.zoom_percent = std::max(on.zoom_percent, wanted_.zoom_percent);
    lecture_on_ = true;
    request(on);
}

void LectureMode::zoom_by(int steps) {
    LectureSettings zoomed = wanted_;
    zoomed.zoom_percent += steps * kZoomStepPercent;
    request(zoomed);
}

float LectureMode::caption_size() const {
    return caption_font_ ? caption_font_->FontSize * ImGui::GetIO().FontGlobalScale : 0.0f;
}

std::array<float, 4> LectureMode::clear_colour() const {
    if (applied_.high_contrast) return {0.0f, 0.0f, 0.0f, 1.0f};
    return {0.10f, 0.11f, 0.13f, 1.0f};
}

void LectureMode::set_content_scale(float scale) { wanted_scale_ = scale > 0 ? scale : 1.0f; }

void LectureMode::rebuild_fonts() {
    ImGuiIO& io = ImGui::GetIO();
    const float zoom = float(applied_.zoom_percent) / 100.0f * applied_scale_;
    const bool everyday = zoom == 1.0f && !applied_.high_contrast;
    const std::vector<char> data = font_path_.empty() ? std::vector<char>{} : read_font(font_path_);
    io.Fonts->Clear();
    io.FontGlobalScale = 1.0f;
    if (!data.empty()) {
        if (everyday) {
            add_builtin(kBuiltinPixels);
        } else {
            add_truetype(data, kBodyPixels * zoom);
        }
        caption_font_ = add_truetype(data, kBodyPixels * zoom * kCaptionScale);
    }
    font_name_ = font_path_;
    if (data.empty() || !io.Fonts->Build()) {
        font_name_ = font_path_.empty() ? "ImGui's built-in font"
                                        : "ImGui's built-in font (" + font_path_ +
                                              " is not a TrueType font ImGui can read)";
        io.Fonts->Clear();
        add_builtin(kBuiltinPixels);
        caption_font_ = add_builtin(kBuiltinPixels * kCaptionScale);
        io.Fonts->Build();
        io.FontGlobalScale = zoom;
    }
    if (hooks_.fonts_changed) hooks_.fonts_changed();
}

void LectureMode::apply_pending() {
    const bool fonts = !built_ || wanted_.zoom_percent != applied_.zoom_percent ||
                       wanted_.high_contrast != applied_.high_contrast ||
                       wanted_scale_ != applied_scale_;
    const bool screen = !built_ || wanted_.full_screen != applied_.full_screen;
    applied_ = wanted_;
    applied_scale_ = wanted_scale_;
    built_ = true;
    if (fonts) {
        const float zoom = float(applied_.zoom_percent) / 100.0f * applied_scale_;
        ImGuiStyle style = *base_style_;
        if (applied_.high_contrast) apply_high_contrast(style);
        style.ScaleAllSizes(zoom);
        ImGui::GetStyle() = style;
        rebuild_fonts();
        current_zoom = zoom;
        current_high_contrast = applied_.high_contrast;
    }
    if (screen && hooks_.set_full_screen) hooks_.set_full_screen(applied_.full_screen);
}

void LectureMode::draw_frame() {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput) {
        if (ImGui::IsKeyPressed(keys::kF11, false)) toggle();
        if (io.KeyCtrl &&
            (ImGui::IsKeyPressed(keys::kEqual) || ImGui::IsKeyPressed(keys::kKeypadAdd))) {
            zoom_by(1);
        }
        if (io.KeyCtrl &&
            (ImGui::IsKeyPressed(keys::kMinus) || ImGui::IsKeyPressed(keys::kKeypadSubtract))) {
            zoom_by(-1);
        }
        if (io.KeyCtrl &&
            (ImGui::IsKeyPressed(keys::k0, false) || ImGui::IsKeyPressed(keys::kKeypad0, false))) {
            LectureSettings reset = wanted_;
            reset.zoom_percent = 100;
            request(reset);
        }
    }
    if (controls_folded() || !ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("View")) {
        ImGui::Separator();
        if (ImGui::MenuItem("Lecture mode", "F11", lecture_on_)) toggle();
        bool presentation = wanted_.presentation;
        if (ImGui::MenuItem("Presentation layout", nullptr, &presentation)) {
            LectureSettings changed = wanted_;
            changed.presentation = presentation;
            request(changed);
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip(
                "the drawing gets the screen: rail, menu, status bar and controls "
                "fold away; hover the top edge to bring them back");
        }
        bool high_contrast = wanted_.high_contrast;
        if (ImGui::MenuItem("High contrast", nullptr, &high_contrast)) {
            LectureSettings changed = wanted_;
            changed.high_contrast = high_contrast;
            request(changed);
        }
        if (ImGui::MenuItem("Zoom in", "Ctrl+=", false, wanted_.zoom_percent < kMaxZoomPercent)) {
            zoom_by(1);
        }
        if (ImGui::MenuItem("Zoom out", "Ctrl+-", false, wanted_.zoom_percent > kMinZoomPercent)) {
            zoom_by(-1);
        }
        if (ImGui::MenuItem("Zoom 100%", "Ctrl+0", false, wanted_.zoom_percent != 100)) {
            LectureSettings reset = wanted_;
            reset.zoom_percent = 100;
            request(reset);
        }
        ImGui::TextDisabled("zoom %d%%, font: %s", applied_.zoom_percent, font_name_.c_str());
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

}  // namespace tclens::gui
