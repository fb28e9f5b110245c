#pragma once
// Profile panel: one or more kernels on one size under CUPTI, live. "Live" posts the profile job
// (app/gui/jobs/profile_job.h): in metrics mode the chosen kernels are profiled in turn, a table
// puts their newest values side by side, and the focused kernel gets a card per metric of the
// chosen set (label, value, unit; the catalogue's meaning as tooltip) with a strip chart of its
// last values; in timeline mode, PM-sampling strip charts (tensor %, DRAM %, FMA %) of the first
// chosen kernel scroll as samples arrive. When the tensor pipe is ~idle on a kernel meant to use
// it, the "Why are the tensor cores idle?" checklist (app/gui/views/profile_view.h) says
// what to check. A version of a kernel of yours whose build ran a profile (the Kernels panel's
// "yours" group, in the worker) is in the kernel list's "yours" part: choosing it shows its
// profile cards, PM timeline and instruction mix (read from its cubin) as a rung's
// (app/gui/views/user_kernel_runs.h); so is a version in the open recording. Live profiles the
// built-in kernels only.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/profile_job.h"
#include "app/gui/panels/panel.h"
#include "app/gui/panels/size_field.h"
#include "app/gui/views/profile_view.h"
#include "app/gui/views/recording_view.h"
#include "kernels/gemm.h"
#include "viz/draw_list.h"

namespace tclens::gui {

struct OpenRecording;
struct UserKernels;

// The sets the panel offers: "default" and "all" (metrics mode), "timeline" (timeline mode).
const std::vector<std::string>& profile_panel_sets();

class ProfilePanel : public Panel {
  public:
    ProfilePanel();
    // kernel=ID[,ID...] (ids of `tclens kernels`), mnk=MxNxK, set=default|all|timeline,
    // live=on, focus=ID (whose cards are shown; one of the chosen kernels), yours=ID (a profiled
    // version of a kernel of yours, e.g. yours.matmul_3.v2: its cards, until a built-in kernel is
    // chosen or Live is pressed; "" for none).
    std::string apply_setting(std::string_view key, std::string_view value) override;

  private:
    void draw_contents(AppContext& context) override;
    void theme_changed() override;
    void refresh(const std::shared_ptr<const LiveProfile>& latest);
    void draw_controls(AppContext& context);
    void draw_kernel_combo(AppContext& context);   // the kernels chosen, built in or yours
    void draw_live_controls(AppContext& context);  // Live, Stop, Pause, Snapshot, Export
    void draw_status(AppContext& context);
    void draw_comparison();
    void draw_cards();
    void draw_timeline();
    // The presentation layout (controls_folded()): one line saying what is shown, then the PM
    // sampling plot fitted to the pane (the cards where there is none).
    void draw_plot_alone(AppContext& context);
    void draw_checklist();
    void save_snapshot();
    std::shared_ptr<const LiveProfile> recorded(AppContext& context);

    // The kernel the instruction mix and a recording's timeline follow: the first chosen.
    const std::string& first_chosen() const;
    // The entry of shown_ whose cards are drawn: focus_'s, else the first with a profile.
    const KernelLive* focused() const;
    std::vector<std::string> chosen_ids() const;
    // The kernel of shown_'s timeline (the timeline's own, else the request's first); "" when
    // nothing is shown.
    const std::string& timeline_kernel() const;

    const std::vector<kernels::KernelDescriptor>& kernels_;
    std::vector<int> chosen_;  // indices into kernels_, in the order chosen; never empty
    std::string focus_;        // kernel id whose cards are shown; "" for the first
    bool rebuild_ = false;     // focus_ changed: build the cards again next frame
    SizeField size_;
    int set_ = 0;                           // index into profile_panel_sets()
    std::shared_ptr<LiveControl> control_;  // of the last posted job
    JobHandle job_;                         // the last posted job
    std::shared_ptr<const LiveProfile> shown_;
    std::vector<MetricCard> cards_;
    std::vector<viz::DrawList> card_charts_;      // one per card
    std::vector<viz::DrawList> timeline_charts_;  // one per PM-sampling metric
    std::vector<ChecklistLine> checklist_;        // empty unless the tensor cores look idle
    std::string checklist_kernel_;                // the kernel checklist_ is about
    viz::DrawList cards_view_;     // cards_ with their charts, cards_per_row_ to a row
    int cards_per_row_ = 0;        // as laid out in the last draw_cards(); 0 before
    viz::DrawList timeline_view_;  // timeline_charts_ stacked
    std::string message_;          // of the last snapshot
    bool live_requested_ = false;  // setting live=on: start Live as soon as it can start
    // While nothing was profiled here: the open recording's profiles of the chosen kernels
    // (recording_view.h), made again when the recording or the choice changes.
    std::shared_ptr<const OpenRecording> recording_seen_;
    std::vector<std::string> recorded_kernels_;
    std::shared_ptr<const LiveProfile> recorded_;
    // The version of yours shown instead (yours=ID, or picked in the list); "" for none: the
    // version built in this session's worker, else the open recording's version of that id. Its
    // snapshot is made again when the kernels of yours or the recording change.
    std::string yours_;
    std::shared_ptr<const UserKernels> yours_seen_;
    std::shared_ptr<const OpenRecording> yours_recording_seen_;
    bool yours_recorded_ = false;  // yours_profile_ is the open recording's
    std::shared_ptr<const LiveProfile> yours_profile_;
    std::shared_ptr<const LiveProfile> yours_shown(AppContext& context);
    // The instruction mix shown for `kernel_id`: a version of yours built here from its cubin
    // (user_kernel_runs.h), else the open recording's or this build's (recording_view.h).
    ShownMix shown_mix(AppContext& context, const std::string& kernel_id, bool live) const;
};

}  // namespace tclens::gui
