#pragma once
// Banks panel: one warp-wide shared-memory access pattern under two swizzles side by side
// (viz/bank_view.h): the tile coloured by the bank each word lands in, the lanes of one phase
// (or all) highlighted with their numbers, a bank x phase heatmap of conflict degree and the
// totals; step through the phases, export SVG/PNG, and measure both sides on the GPU. The
// pattern is a viz pattern or a registry kernel's own access (kernels/shared_access.h), shown
// on the kernel's tile with the kernel's swizzle on the right.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "app/gui/panels/panel.h"
#include "app/gui/panels/view_zoom.h"
#include "viz/bank_model.h"
#include "viz/bank_view.h"

namespace tclens::gui {

struct BankMeasurements;

class BanksPanel : public Panel {
  public:
    BanksPanel();
    // pattern=NAME (see `tclens banks --list`; resets rows and row_bytes to the pattern's
    // display tile and the phase to all, so set those after it), pattern=KERNEL/ACCESS (the
    // same, with the kernel's tile, and right=the kernel's swizzle), left=SWIZZLE, right=SWIZZLE
    // (any spec parse_swizzle accepts), rows=N and row_bytes=N (1..262144), phase=P (-1 for
    // all phases, else 0..phases-1 of the current pattern), zoom=0.5..3. A swizzle or tile that
    // parses but does not fit the pattern is not an error here: the panel shows the model's
    // one-line reason in red in place of that side.
    std::string apply_setting(std::string_view key, std::string_view value) override;
    ViewZoom* view_zoom() override { return &zoom_; }

  private:
    void draw_contents(AppContext& context) override;
    void theme_changed() override;
    // One of the two compared swizzles and its model.
    struct Side {
        std::string spec;
        std::string error;  // the model's one-line reason when `report` is empty
        std::optional<viz::BankReport> report;
    };

    void select_pattern(int index);
    void select_access(int index);
    const std::string& shown_name() const;
    void reset_tile();
    void rebuild();
    void step_phase(int delta);
    std::string set_swizzle(int side, const std::string& spec);
    void draw_controls(AppContext& context);
    void draw_swizzle_input(int side);
    void draw_phase_stepper();
    void draw_export_and_measure(AppContext& context);
    void draw_pattern_combo();
    void draw_access_line() const;
    void draw_side_lines() const;
    void draw_view();

    const std::vector<viz::Pattern>& patterns_;
    int pattern_ = 0;  // index into patterns_
    int access_ = -1;  // index into kernels::kernel_accesses() while one is shown, else -1
    std::array<Side, 2> sides_;
    std::array<std::array<char, 64>, 2> spec_buffers_{};  // what the swizzle inputs edit
    int rows_ = 0;
    int row_bytes_ = 0;
    int phase_ = -1;             // -1: all phases
    int shown_side_ = -1;        // setting side=: -1 both, 0 only left, 1 only right
    int phases_ = 0;             // phases of the current request; 0 while neither side has a model
    ViewZoom zoom_{0.5f, 3.0f};  // "zoom=" setting, slider and fit
    viz::BankView view_;
    int hovered_ = -1;  // hit id under the mouse in the last frame
    std::string export_message_;
    bool measure_requested_ = false;  // setting measure=on: measure as soon as it is possible
    JobHandle job_;                   // the last measurement posted here
    std::shared_ptr<const BankMeasurements> measurements_;  // the one the view shows
};

}  // namespace tclens::gui
