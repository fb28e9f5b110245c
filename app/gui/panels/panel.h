#pragma once
// Base of every panel (one per file in app/gui/panels/, listed in panel_registry.cpp).
// The shell owns the window (title, visibility, placement); a panel draws its contents.
//
// The base also owns the panel's colours: theme() is the current lecture theme (dark or high
// contrast, views/theme.h), and when the theme changes between frames the base calls
// theme_changed() before drawing, so views built with the old palette are built again. A panel
// builds every view with theme().palette and colours its status text with theme().error / ok /
// note; it never names a palette itself (tests/ui/theme_test.cpp renders every view under both
// themes).

#include <string>
#include <string_view>

#include "app/gui/views/theme.h"

namespace tclens::gui {

struct AppContext;
class ViewZoom;

class Panel {
  public:
    virtual ~Panel() = default;
    // Short lowercase name used by `tclens screenshot --view` and settings, e.g. "device".
    std::string_view id() const { return id_; }
    // Window title, e.g. "Device".
    std::string_view title() const { return title_; }
    // A few sentences for the Help menu: what the panel shows and how to read it.
    std::string_view help() const { return help_; }
    // Draws the contents inside a window the caller has begun: follows the current theme
    // (theme_changed() when it is not the one of the last frame), then draw_contents().
    void draw(AppContext& context);
    // Applies one named setting, e.g. ("layout", "ldmatrix.x4") or ("lane", "5"): used by
    // `--set` on the command line (screenshots, benchmarks, lectures). Returns "" or one line
    // naming the bad key or value and what is allowed.
    virtual std::string apply_setting(std::string_view key, std::string_view value) {
        (void)value;
        return "view '" + std::string(id()) + "' has no setting '" + std::string(key) + "'";
    }

    // The zoom of the panel's drawing, for View > Fit view; nullptr when it has none (a panel of
    // text and tables, which the lecture zoom alone scales).
    virtual ViewZoom* view_zoom() { return nullptr; }

  protected:
    // `id`, `title` and `help` are string literals (they are kept as views).
    Panel(std::string_view id, std::string_view title, std::string_view help);
    // The theme to build and paint with: the current one at construction, then at each draw().
    const Theme& theme() const { return *theme_; }

  private:
    // The panel's contents. Reads snapshots, posts jobs.
    virtual void draw_contents(AppContext& context) = 0;
    // The theme changed since the last frame: build again whatever holds the old colours.
    virtual void theme_changed() {}

    std::string_view id_;
    std::string_view title_;
    std::string_view help_;
    const Theme* theme_;
};

// Whether the arrow keys are the drawing panel's to read now: its window (or a child of it) has
// the focus, no text field takes keys and no tour is playing (a tour steps with them).
bool panel_reads_arrow_keys(const AppContext& context);

// A control's label on the line before it: the text, aligned with the control's frame, then
// SameLine().
void label(const char* text);

}  // namespace tclens::gui
