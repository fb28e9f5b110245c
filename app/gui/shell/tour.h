#pragma once
// A lecture tour: a file of steps, each a view set up a certain way with a caption, stepped
// through with the keyboard or on a timer (`tclens --tour FILE`, `--lecture`, the View menu).
// This file is the model, no ImGui: parsing with one-line errors, and the player's position.
// app/gui/shell/tour_overlay.h shows it.
//
// File format (JSON, schema_version 1; assets/tour.json is the one tclens ships):
//   {"schema_version": 1,
//    "title": "Tensor Cores in five views",               optional
//    "steps": [{"view": "fragments",                       a panel id
//               "settings": ["layout=mma.m16n8k16.f16"],   optional, KEY=VALUE, applied in order
//               "split": "banks,beside",                   optional: a second view beside or
//                                                           below (workspace.h), as it was set up
//               "caption": "Each lane holds ..."}, ...]}
// A step with an unknown view or a setting its panel refuses is reported and left out of the
// tour; the other steps still play. Any other key in a step is an error (a typo in "caption"
// would otherwise lose the caption silently); unknown top-level keys are ignored.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/shell/workspace.h"

namespace tclens::gui {

inline constexpr int kTourSchemaVersion = 1;
// Tour files larger than this are refused before parsing.
inline constexpr std::uintmax_t kMaxTourBytes = 1u << 20;

struct TourStep {
    int number = 0;  // 1-based position in the file's "steps"
    std::string view;
    std::vector<std::string> settings;  // "KEY=VALUE" for `view`
    std::string caption;
    std::string split;  // "" (the view alone) or "ID,beside" / "ID,below"
};

struct Tour {
    std::string source;  // the file, as named in errors
    std::string title;
    std::vector<TourStep> steps;  // the playable ones, in file order
};

// One problem found while loading. step 0: the file as a whole (nothing plays).
struct TourError {
    int step = 0;
    std::string message;  // one line: "tour.json: step 4: unknown view 'tilemap' (views: ...)"
};

struct TourLoad {
    Tour tour;
    int file_steps = 0;  // entries in the file's "steps", playable or not
    std::vector<TourError> errors;
};

// Parses `text`, naming the file `source` in errors. Views and settings are checked against
// `panels`, to which each step's settings are applied in file order: pass scratch panels
// (make_all_panels()), not the ones on screen.
TourLoad parse_tour(std::string_view text, const std::string& source,
                    const std::vector<std::unique_ptr<Panel>>& panels);

// Reads and parses `path` against fresh panels (make_all_panels()). A file that cannot be read,
// or is over kMaxTourBytes, gives one step-0 error.
TourLoad load_tour(const std::string& path);

// Step `number` (1-based, as in the file) of the tour at `path`, for one screenshot of it
// (`tclens screenshot --tour-step N`). Returns "" with `step` set and `counter` "step 3 of 8"
// (its place among the playable steps), or one line: the file's error, the step's own error,
// or "tour.json has 8 steps; --tour-step 9 is not one of them".
std::string load_tour_step(const std::string& path, int number, TourStep& step,
                           std::string& counter);

// The tour tclens ships: tour.json in the assets folder (app/asset_paths.h), or "tour.json"
// when there is none (opening it then says the file is missing).
std::string default_tour_path();

// The workspace a step shows: its view alone in the main area, or with its split; nothing
// floating; `from`'s views and window size. With "" or the one-line reason the split is refused
// (the workspace then shows the view alone).
std::pair<Workspace, std::string> step_workspace(const TourStep& step, const Workspace& from);

// Applies step.settings to `panel` (the step's view) in order. Returns "" or one line naming
// the first bad setting and the panel's reason: "setting 'lane=99': lane='99': allowed: ...".
std::string apply_step_settings(const TourStep& step, Panel& panel);

// Where the player stands in a tour. Manual steps stop at both ends; autoplay wraps round.
class TourPlayer {
  public:
    TourPlayer() = default;
    explicit TourPlayer(Tour tour) : tour_(std::move(tour)) {}

    const Tour& tour() const { return tour_; }
    bool active() const { return active_; }
    // Index into tour().steps; meaningful while active().
    int index() const { return index_; }
    // The current step, or nullptr when not active.
    const TourStep* current() const;
    // Grows by one whenever the shown step changes (start, next, leave ...): a viewer compares
    // it with the value it last applied.
    std::uint64_t changes() const { return changes_; }

    // Each returns true when the shown step changed. start() needs at least one step.
    bool start();
    bool leave();
    bool next();
    bool previous();
    bool first();
    bool last();

    // Autoplay: every `seconds` (> 0; 0 turns it off) next(), wrapping from the last step to
    // the first. The clock is the caller's, in seconds (glfwGetTime()); a manual step restarts
    // the wait.
    void set_autoplay(double seconds, double now);
    bool advance_if_due(double now);
    double autoplay_seconds() const { return autoplay_s_; }

  private:
    bool go_to(int index);

    Tour tour_;
    bool active_ = false;
    int index_ = 0;
    std::uint64_t changes_ = 0;
    double autoplay_s_ = 0;
    double next_at_ = 0;
    double now_ = 0;  // the latest clock reading, so manual steps can restart the wait
};

}  // namespace tclens::gui
