#pragma once
// Lecture mode, for teaching from a projector: full screen on the window's monitor, one global
// zoom for every text and size, and a high-contrast theme (black, white, strong accents).
// F11 or View > Lecture mode toggles it; Ctrl+= / Ctrl+- / Ctrl+0 zoom in any mode;
// in the window it also turns on the presentation layout (views/presentation.h);
// `tclens --lecture` starts in it and `tclens screenshot --lecture` renders with its look.
//
// Fonts stay crisp: a zoom rebuilds ImGui's font atlas at the zoomed pixel size from a system
// TrueType font (find_ui_font()). With none, ImGui's built-in font is scaled instead
// (FontGlobalScale). The dark theme at 100% (content scale 1) keeps the built-in font, sharpest at
// its own 13 px, so the everyday look does not change. Sizes (padding, spacing, rounding) scale
// with ImGuiStyle::ScaleAllSizes from the style saved when lecture mode was set up. tclens ships no
// font.

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/views/theme.h"

struct ImFont;
struct ImGuiStyle;

namespace tclens::gui {

inline constexpr int kMinZoomPercent = 100;
inline constexpr int kMaxZoomPercent = 300;
inline constexpr int kZoomStepPercent = 25;
inline constexpr int kLectureZoomPercent = 150;

struct LectureSettings {
    int zoom_percent = 100;      // kMinZoomPercent..kMaxZoomPercent
    bool high_contrast = false;  // the high-contrast theme, else ImGui's dark one
    bool full_screen = false;    // on the monitor under the window; ignored for hidden windows
    bool presentation = false;   // the window's presentation layout (views/presentation.h)
};

// What `--lecture` and F11 turn on: kLectureZoomPercent, high contrast, full screen, the
// presentation layout.
LectureSettings lecture_on_settings();

// One lecture setting: zoom=100..300 (percent), theme=dark|high-contrast, fullscreen=on|off,
// presentation=on|off.
// Returns "" or one line naming the bad key or value and what is allowed.
std::string apply_lecture_setting(LectureSettings& settings, std::string_view key,
                                  std::string_view value);

// Moves every "lecture.KEY=VALUE" out of `assignments` (`--set`) into `settings`, in order,
// leaving the panel settings. Returns "" or the first error, e.g.
// "--set 'lecture.zoom=500': zoom='500': allowed: 100..300 (percent)".
std::string take_lecture_settings(std::vector<std::string>& assignments, LectureSettings& settings);

// The TrueType files tried for the UI font, in order: DejaVu Sans (Debian's fonts-dejavu-core,
// Fedora, Arch), then Liberation Sans and Noto Sans.
const std::vector<std::string>& system_font_candidates();

// $TCLENS_FONT when set ("builtin": "", i.e. ImGui's built-in font), else the first of
// system_font_candidates() that exists; "" for none.
std::string find_ui_font();

// The current zoom as a factor (1.5 for 150%) times the monitor's content scale, for drawing
// that scales itself (draw records).
float ui_zoom();

// The theme set by the last apply_pending(): high_contrast_theme() or dark_theme(). Panels
// read it through their base (Panel::theme()); the shell's own lines read it here.
const Theme& current_theme();

// What lecture mode asks of whatever shows the frames. The windowed shell fills both; an
// offscreen or headless run leaves set_full_screen empty (full screen is then ignored).
struct LectureHooks {
    std::function<void()> fonts_changed;        // upload the rebuilt font atlas
    std::function<void(bool)> set_full_screen;  // on the window's monitor, or back
};

class LectureMode {
  public:
    // Saves ImGui's current style as the base that zoom and theme start from. Nothing changes
    // until apply_pending().
    LectureMode(const LectureSettings& initial, LectureHooks hooks);
    ~LectureMode();
    LectureMode(const LectureMode&) = delete;
    LectureMode& operator=(const LectureMode&) = delete;

    const LectureSettings& settings() const { return wanted_; }
    // The presentation layout as of the last apply_pending().
    bool presentation() const { return applied_.presentation; }
    // Takes effect at the next apply_pending().
    void request(const LectureSettings& settings);
    // Lecture mode on (lecture_on_settings(), zoom kept if larger) or back to the settings
    // from before it.
    void toggle();
    // Zoom by `steps` x kZoomStepPercent, clamped to kMinZoomPercent..kMaxZoomPercent.
    void zoom_by(int steps);
    // The monitor's content scale (GuiRuntime::content_scale(): 2 on a 4K monitor set to 200 %):
    // fonts are rebuilt at, and sizes scaled by, zoom x scale, so text keeps its physical size.
    // Values <= 0 count as 1. Takes effect at the next apply_pending().
    void set_content_scale(float scale);

    // Between frames, before GuiRuntime::begin_frame: rebuilds the fonts and the style and
    // switches full screen when the settings changed since the last call (the first call
    // always builds).
    void apply_pending();
    // Inside a frame, after the shell's main menu: F11, Ctrl+= / Ctrl+- / Ctrl+0 (not while a
    // text field has the keyboard), and the lecture items appended to the View menu (none while
    // the presentation layout hides the menu bar: controls_folded()).
    void draw_frame();

    // A font 1.6 times the body size, for tour captions (app/gui/shell/tour_overlay.h).
    ImFont* caption_font() const { return caption_font_; }
    // Its size in pixels, FontGlobalScale included.
    float caption_size() const;
    // The colour behind all windows, RGBA 0..1.
    std::array<float, 4> clear_colour() const;

  private:
    void rebuild_fonts();

    LectureHooks hooks_;
    std::unique_ptr<ImGuiStyle> base_style_;
    LectureSettings wanted_;
    LectureSettings applied_;
    float wanted_scale_ = 1.0f;  // the content scale
    float applied_scale_ = 1.0f;
    bool built_ = false;
    bool lecture_on_ = false;
    LectureSettings before_lecture_;
    std::string font_path_;  // "" for ImGui's built-in font
    std::string font_name_;
    ImFont* caption_font_ = nullptr;
};

}  // namespace tclens::gui
