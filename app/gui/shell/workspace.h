#pragma once
// The workspace: how the app's one window is arranged. A rail at the left lists every view; the
// main area shows one view, or two split by a draggable divider (the second beside or below the
// first); any view can float in a window of its own instead. This file is the model, plain data
// and rules with no ImGui: app/gui/shell/workspace_draw.h draws it, the shell's keys and menus,
// tours and `--set workspace.KEY=VALUE` change it, and it is remembered between runs as lines of
// the settings file (ImGui's imgui.ini, section [tclens][workspace]).
//
// Invariants every operation keeps: each view is in at most one place (main pane, second pane,
// floating); the second view differs from the main view; split is off when there is no second
// view; a main view is empty only while every view floats.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::gui {

// Where the second view goes: off (one view fills the main area), beside the main view (a
// vertical divider) or below it (a horizontal divider).
enum class Split { kOff, kBeside, kBelow };

// The main pane's share of the main area along the split, and its bounds.
inline constexpr float kDefaultSplitRatio = 0.5f;
inline constexpr float kMinSplitRatio = 0.2f;
inline constexpr float kMaxSplitRatio = 0.8f;
// The view shown at first start and after View > Reset layout (when it exists), alone.
inline constexpr const char* kDefaultView = "fragments";

// The view that usually goes beside `view`: the pairs people use (Fragments + Banks, Kernels +
// Profile, Tile map + Kernels, Compare + Profile, Device + Kernels), read both ways, the first
// pair naming `view` winning: banks -> fragments, profile -> kernels, tilemap -> kernels.
// "" for a view in no pair.
std::string partner_view(std::string_view view);

struct WindowSize {
    int width = 0;  // 0: none remembered, open at the monitor's work area
    int height = 0;
    bool operator==(const WindowSize& other) const {
        return width == other.width && height == other.height;
    }
};

class Workspace {
  public:
    // `views`: every view id, in rail order (Ctrl+1 is the first). Starts in the default
    // arrangement (reset()).
    explicit Workspace(std::vector<std::string> views);

    const std::vector<std::string>& views() const { return views_; }
    const std::string& main_view() const { return main_; }
    const std::string& second_view() const { return second_; }  // "" when split is off
    Split split() const;
    float ratio() const { return ratio_; }
    const std::vector<std::string>& floating() const { return floating_; }  // in pop-out order
    bool is_floating(std::string_view view) const;
    // In the main pane, the second pane or floating: the views whose panels draw this frame.
    bool is_shown(std::string_view view) const;
    // The window size to open at next time; {0, 0} for the monitor's work area.
    WindowSize window() const { return window_; }

    // The default arrangement: kDefaultView (else the first view) alone, split off (turned on,
    // beside at kDefaultSplitRatio), nothing floating. The remembered window size is kept.
    void reset();

    // Each of these ignores an id that is not a view.
    // Ctrl+N: `view` fills the main pane. The second view, if it was that, swaps places with the
    // main one; a floating view comes back from its window.
    void show(std::string_view view);
    // Ctrl+Shift+N: `view` in the second pane, split on (beside unless it was below). The main
    // view, if it was that, swaps places with the second one.
    void show_second(std::string_view view);
    // Ctrl+\: split off, or on with the last second view (else the main view's partner, else
    // the next view in rail order that is not floating). Nothing happens with no view to add.
    void toggle_split();
    // Ctrl+Shift+\: beside <-> below; turns the split on (toggle_split()) when it is off.
    void toggle_orientation();
    // The second view beside or below (kOff is ignored); turns the split on when it is off.
    void set_orientation(Split where);
    // Clamped to kMinSplitRatio..kMaxSplitRatio and rounded to three decimals (as written).
    void set_ratio(float ratio);
    // `view` leaves its pane for a window of its own. Leaving the main pane, the second view
    // takes its place (split off); with no second view, the first view in rail order that is
    // neither floating nor `view`; with none, the main pane is empty.
    void pop_out(std::string_view view);
    // A floating window closed: the view is nowhere until shown again (it fills the main pane
    // when that was empty).
    void close_floating(std::string_view view);
    // A panel (`source`, "" if unknown) asked to show `target`: nothing moves when the target
    // is already shown; else it goes into the pane the source is not in (split beside when
    // off), or into the main pane when the source floats or is unknown.
    void show_linked(std::string_view target, std::string_view source);
    void remember_window(WindowSize size) { window_ = size; }

    // `--set workspace.KEY=VALUE` and the settings file's lines:
    //   view=ID                  the main view (show())
    //   split=ID,beside|ID,below the second view and where it goes; split=off
    //   ratio=0.2..0.8           the main pane's share of the main area
    //   floating=ID,...|none     the views in windows of their own (all others leave theirs)
    // Returns "" or one line naming the bad value and what is allowed, e.g.
    // "split='banks,left': allowed: ID,beside | ID,below | off (views: device, ...)".
    std::string apply_setting(std::string_view key, std::string_view value);

    // The settings-file lines, "KEY=VALUE\n" each: view, split, ratio, floating (the keys of
    // apply_setting()), then window=WxH when one is remembered. read_line() of each, in order,
    // onto any workspace of the same views gives an equal workspace.
    std::string to_lines() const;
    // One line of the settings file. Returns "" or why it was ignored (an unknown key, a
    // setting apply_setting() refuses, window= not WxH in 1..100000): the app goes on with
    // what it has.
    std::string read_line(std::string_view line);

    // Equal views, arrangement and window size (what to_lines() writes).
    bool operator==(const Workspace& other) const;
    bool operator!=(const Workspace& other) const { return !(*this == other); }

  private:
    bool is_view(std::string_view view) const;
    void unfloat(std::string_view view);
    // The first view in rail order that is not floating and not `except`; "" for none.
    std::string first_free_view(std::string_view except) const;
    std::string views_text() const;

    std::vector<std::string> views_;
    std::string main_;
    std::string second_;                  // "" when split is off
    Split orientation_ = Split::kBeside;  // kBeside or kBelow, kept while split is off
    std::string last_second_;             // toggle_split() brings it back
    float ratio_ = kDefaultSplitRatio;
    std::vector<std::string> floating_;
    WindowSize window_;
};

// "beside" / "below" / "off".
const char* split_name(Split split);

// An axis-aligned rectangle in pixels, (x, y) its top-left corner.
struct Rect {
    float x = 0, y = 0, width = 0, height = 0;
    float right() const { return x + width; }
    float bottom() const { return y + height; }
    bool operator==(const Rect& o) const {
        return x == o.x && y == o.y && width == o.width && height == o.height;
    }
};

// The widths the two views need so that nothing in them is cut off at the right (0: not known;
// the shell learns them as it draws: shell_frame.h).
struct PaneNeeds {
    float main_width = 0;
    float second_width = 0;
};

// Where each part of the workspace goes inside `area` (the window below the menu bar and above
// the status bar and any caption banner):
//   rail: `rail_width` wide at the left, full height;
//   main, second: the rest; with a split, cut at the ratio along x (beside) or y (below) with
//     `divider` pixels between them; without one, main is all of it and second is empty;
//   divider: the gap between the panes (empty without a split).
// Each pane keeps at least `min_pane` pixels along the cut, and beside, the width `needs` says,
// where the rest allows (the ratio gives way). Views that need more width than there is beside
// each other go below each other instead (when each then gets `min_pane` pixels of height):
// `split` says which was laid out. Rects never overlap and together cover `area` (whole pixels).
struct WorkspaceLayout {
    Rect rail, main, divider, second;
    Split split = Split::kOff;
    bool operator==(const WorkspaceLayout& o) const {
        return rail == o.rail && main == o.main && divider == o.divider && second == o.second &&
               split == o.split;
    }
    bool operator!=(const WorkspaceLayout& o) const { return !(*this == o); }
};
WorkspaceLayout layout_workspace(const Workspace& workspace, Rect area, float rail_width,
                                 float divider, float min_pane, PaneNeeds needs = {});

}  // namespace tclens::gui
