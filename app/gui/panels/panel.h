#pragma once
// Base of every panel (one per file in app/gui/panels/, listed in panel_registry.cpp).
// The shell owns the window (title, visibility, placement); a panel draws its contents.

#include <string>
#include <string_view>

namespace tclens::gui {

struct AppContext;

class Panel {
  public:
    virtual ~Panel() = default;
    // Short lowercase name used by `tclens screenshot --view` and settings, e.g. "device".
    virtual std::string_view id() const = 0;
    // Window title, e.g. "Device".
    virtual std::string_view title() const = 0;
    // A few sentences for the Help menu: what the panel shows and how to read it.
    virtual std::string_view help() const = 0;
    // Draws the contents inside a window the caller has begun. Reads snapshots, posts jobs.
    virtual void draw(AppContext& context) = 0;
    // Applies one named setting, e.g. ("layout", "ldmatrix.x4") or ("lane", "5"): used by
    // `--set` on the command line (screenshots, benchmarks, lectures). Returns "" or one line
    // naming the bad key or value and what is allowed.
    virtual std::string apply_setting(std::string_view key, std::string_view value) {
        (void)value;
        return "view '" + std::string(id()) + "' has no setting '" + std::string(key) + "'";
    }
};

}  // namespace tclens::gui
