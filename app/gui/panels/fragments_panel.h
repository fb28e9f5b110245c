#pragma once
// Fragments panel: the register layout of one Tensor Core or matrix-move instruction (mma.sync,
// mma.sp, ldmatrix, stmatrix, movmatrix, wgmma, the wgmma shared-memory views and the tcgen05
// models), operands at their true shapes, coloured by register, lane, thread group or packed
// sub-element, with a plain-language description of each operand; hover a cell or a lane to
// light up everything that lane holds; verify the model on the GPU. The instruction list is
// grouped by family and architecture and has a search box (viz/layout_catalogue.h).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/panels/panel.h"
#include "app/gui/panels/view_zoom.h"
#include "viz/fragment_layout.h"
#include "viz/fragment_view.h"

namespace tclens::gui {

struct LayoutVerification;

class FragmentsPanel : public Panel {
  public:
    FragmentsPanel();
    // layout=ID, colour=register|lane|group|sub, lane=N (pinned highlight, -1 for none),
    // zoom=0.25..3, labels=on|off, exercise=REF (a one-warp fragment exercise of yours,
    // path.cu[:NAME]: run in the worker, its layout shown with the elements its index mapping got
    // wrong outlined; app/gui/views/exercise_overlay.h).
    std::string apply_setting(std::string_view key, std::string_view value) override;
    ViewZoom* view_zoom() override { return &zoom_; }

  private:
    void draw_contents(AppContext& context) override;
    void theme_changed() override;
    void select(int index);
    void draw_controls(AppContext& context);
    void draw_instruction_list();
    void draw_descriptions();
    void draw_family_controls();
    void draw_verification_line(const LayoutVerification* verification);
    void draw_register_view();
    void rebuild_view();
    void refresh_mismatches(const std::shared_ptr<const LayoutVerification>& verification);
    int lane_of_hit(int hit) const;

    std::vector<std::string> ids_;
    int selected_ = 0;
    char search_[64] = "";                   // the instruction list's filter
    std::vector<std::string> descriptions_;  // one per operand (and shared-memory tile) shown
    viz::FragmentColouring colouring_ = viz::FragmentColouring::kRegister;
    ViewZoom zoom_{0.25f, 3.0f};  // "zoom=" setting, slider and fit
    bool labels_ = true;
    std::string part_;  // "part=": operand letters to show ("" all; FragmentViewOptions)
    int warp_ = -1;     // "warp=": wgmma's band of rows to show (-1 all)
    viz::FragmentLayout layout_;
    viz::FragmentView view_;
    viz::DrawList painted_;  // view_.draw, with an exercise's arrows when one is shown
    int hovered_lane_ = -1;
    int pinned_lane_ = -1;      // click a cell to pin its lane; hover shows another one meanwhile
    int register_operand_ = 0;  // index into layout_.operands for the register view
    std::string export_message_;
    JobHandle job_;  // the last verification posted here
    // Per hit id: true where the GPU measured another (row, col) than the model.
    std::vector<bool> mismatch_by_hit_;
    std::shared_ptr<const LayoutVerification> shown_verification_;
    // The exercise overlay: the run asked for (posted at the next draw), the job, the run shown
    // and, per hit, its wrong element (nullptr: right or not in the exercise).
    std::string pending_exercise_;
    JobHandle exercise_job_;
    std::shared_ptr<const ExerciseRun> shown_exercise_;
    std::vector<const kernels::user::ExerciseElement*> exercise_wrong_;
    void refresh_exercise(const std::shared_ptr<const ExerciseRun>& run);
    void draw_exercise_line();
};

}  // namespace tclens::gui
