#pragma once
// Source panel: which SASS instruction and which CUDA line a kernel's warps wait on, from a source
// profile (profiling/source/source_profile.h) taken in the worker ("Profile on GPU", the source
// job) or read from the open recording. The kernel's top stall reasons, each with what it means for
// a GEMM; the CUDA source and the SASS side by side with heat columns (samples, bank conflicts) and
// each instruction's top stall; a click on either side selects the other (a line's instructions,
// an instruction's line); SASS in address or hottest order. A conflicting shared-memory
// instruction of a rung shows the GPU's wavefronts per instruction beside the bank model of its
// access (kernels/shared_access.h); Open in Banks, or a double-click on it, shows that access in
// the Banks panel (measured there too when there is a GPU). A kernel of yours (the combo's "yours"
// part: the kernels opened in the GUI) is profiled in the worker (user_kernel_job.h), its SASS on
// the lines of its own file. The data model is app/gui/views/source_view.h.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/bulk_read.h"
#include "app/gui/jobs/job_runner.h"
#include "app/gui/panels/panel.h"
#include "app/gui/panels/size_field.h"
#include "app/gui/views/source_view.h"
#include "kernels/gemm.h"

namespace tclens::gui {

struct OpenRecording;

class SourcePanel : public Panel {
  public:
    SourcePanel();
    // kernel=ID, mnk=MxNxK, order=address|hottest, heat=samples|conflicts, file=PATH (or its
    // end, e.g. 08_mma_cp_async.cu), line=N (selects that line of the file shown), pc=HEX
    // (selects the instruction at that offset of the first function), run=on (profile on the
    // GPU as soon as one is known), yours=REF (a kernel of yours, path.cu[:NAME][:TYPE], profiled
    // in the worker; kernel=ID goes back to a registry kernel).
    std::string apply_setting(std::string_view key, std::string_view value) override;

  private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    // The id of the kernel chosen: the registry's, or the one a kernel of yours gets.
    std::string chosen_id() const;
    void choose_yours(const std::string& ref);
    void draw_kernel_combo(AppContext& context);

    void draw_contents(AppContext& context) override;
    // The profile shown: this GPU's, when it is of the chosen kernel, else the recording's.
    std::shared_ptr<const profiling::SourceProfile> shown(AppContext& context);
    void apply_pending_selection(const profiling::SourceProfile& profile);
    // Makes snapshot_ anew when `profile` or a choice (order_, file_, place_, instruction_)
    // changed since it was made; the draw functions read only the snapshot.
    void refresh_snapshot(const std::shared_ptr<const profiling::SourceProfile>& profile);
    void select_instruction(const profiling::SourceProfile& profile, std::size_t index);
    void select_place(const profiling::SourceProfile& profile, SourcePlace place);
    void draw_controls(AppContext& context);
    void draw_missing(AppContext& context) const;
    void draw_stalls(const profiling::SourceProfile& profile) const;
    void draw_view_options(const profiling::SourceProfile& profile);
    void draw_source(const profiling::SourceProfile& profile);
    void draw_sass(AppContext& context, const profiling::SourceProfile& profile);
    void draw_selection(AppContext& context, const profiling::SourceProfile& profile) const;

    const std::vector<kernels::KernelDescriptor>& kernels_;
    int kernel_ = 0;         // index into kernels_, when yours_ref_ is ""
    std::string yours_ref_;  // a kernel of yours chosen instead, path.cu[:NAME][:TYPE]
    SizeField size_;
    SassOrder order_ = SassOrder::kAddress;
    HeatColumn heat_ = HeatColumn::kSamples;
    int file_ = 0;                     // index into the shown profile's files
    std::size_t instruction_ = kNone;  // selected instruction
    SourcePlace place_;                // selected line
    bool scroll_sass_ = false;         // bring the selection into view next frame
    bool scroll_source_ = false;
    std::string pending_file_;  // settings applied once a profile is shown
    int pending_line_ = 0;
    std::uint64_t pending_pc_ = 0;
    bool has_pending_pc_ = false;
    bool run_requested_ = false;
    JobHandle job_;            // the last source profile posted here
    BulkRead bulk_read_;       // the open recording's source profiles, read on the job runner
    SourceSnapshot snapshot_;  // of the profile shown; selections belong to snapshot_.profile
};

}  // namespace tclens::gui
