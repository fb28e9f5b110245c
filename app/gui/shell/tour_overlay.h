#pragma once
// Plays a tour (app/gui/shell/tour.h) in the shell's workspace: Right / PageDown / Space next
// step, Left / PageUp previous, Home first, Esc leaves (not while a text field or popup has the
// keyboard). A step shows its view alone (or with its split) in the main area, with the step's
// settings applied, and a large caption banner below the main area; leaving puts the workspace
// back as it was. The View menu gets "Start tour" / "Leave tour". Pure ImGui, so any runtime can
// show it.
// In the presentation layout (views/presentation.h) the caption is compact: in the body font,
// beside the drawing (a column at the right) or below it, whichever leaves the main view's
// drawing larger at its shape (its last painted width / height).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/shell/shell_frame.h"
#include "app/gui/shell/tour.h"
#include "app/gui/shell/workspace.h"

struct ImFont;

namespace tclens::gui {

class LectureMode;

// The banner's contents: the caption, "step 3 of 8", and problems in one line each (a step's
// bad setting, a tour's load errors).
struct CaptionBanner {
    std::string caption;
    std::string counter;
    std::vector<std::string> problems;
};

// The banner's height at `width` pixels: problems and the caption wrapped in `caption_font` at
// `caption_size` pixels, with padding; the counter beside them in the current ImGui font.
float caption_banner_height(const CaptionBanner& banner, float width, ImFont* caption_font,
                            float caption_size);

// Draws the banner on ImGui's foreground draw list, above every window, at (x, y), `width`
// wide: a black band under a 3-pixel yellow line (kBannerAccent), problems in kBannerProblem,
// the caption in white, the counter at the right in grey.
void draw_caption_banner(const CaptionBanner& banner, float x, float y, float width,
                         ImFont* caption_font, float caption_size);

// draw_caption_banner with the banner's bottom edge at `bottom`, in lecture mode's caption font
// (ImGui's current font before LectureMode::apply_pending has run). Returns its height.
float draw_banner_above(const CaptionBanner& banner, float x, float bottom, float width,
                        const LectureMode& lecture);

// RGBA of the banner's top line and of its problem lines.
inline constexpr unsigned char kBannerAccent[4] = {240, 228, 66, 255};
inline constexpr unsigned char kBannerProblem[4] = {255, 110, 80, 255};

class TourOverlay {
  public:
    // `path`: the tour file, read at the first start(). autoplay_seconds > 0 advances the steps
    // on that period, looping (TourPlayer::set_autoplay).
    explicit TourOverlay(std::string path, double autoplay_seconds = 0);

    // Reads the file if not yet read and shows the first playable step from the next frame on.
    // Returns the load errors, one line each (the banner shows them too, until the first step
    // change or Esc).
    const std::vector<TourError>& start();
    const TourPlayer& player() const { return player_; }

    // Inside a frame, before the shell draws (after ShellFrame::update_presentation): keys,
    // autoplay (ImGui::GetTime()), and on a step change the step's workspace (step_workspace())
    // with its settings applied to its panel; the workspace from before the tour is kept aside
    // until it ends. Returns where the caption goes, for the shell to keep free (nothing when no
    // banner shows): a band above the status bar, or in the presentation layout that or a column
    // at the right.
    CaptionReserve update(Workspace& workspace, const std::vector<std::unique_ptr<Panel>>& panels,
                          const LectureMode& lecture);
    // Inside the frame, after the shell has drawn: the View menu's tour items and the banner.
    void draw();
    // Ends the tour now and puts the workspace back as it was before it (the app is closing).
    void leave(Workspace& workspace);

  private:
    void show_step(Workspace& workspace, const std::vector<std::unique_ptr<Panel>>& panels);
    void handle_keys();
    void draw_menu();

    std::string path_;
    double autoplay_s_ = 0;
    bool loaded_ = false;
    std::vector<TourError> load_errors_;
    bool show_load_errors_ = false;
    TourPlayer player_;
    bool start_requested_ = false;
    std::uint64_t shown_changes_ = 0;      // TourPlayer::changes() last shown
    std::string step_error_;               // the shown step's bad setting, one line
    std::optional<Workspace> before_;      // the workspace when the tour started
    std::optional<CaptionBanner> banner_;  // this frame's, built by update()
    struct Placed {                        // where update() put it
        float x = 0, y = 0, width = 0;
        ImFont* font = nullptr;
        float size = 0;
    } placed_;
};

}  // namespace tclens::gui
