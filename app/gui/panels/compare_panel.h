#pragma once
// Compare panel: two or more kernel runs side by side, from the open recordings (every one open:
// one GPU at two times, or two GPUs) or from this session (the Kernels panel's bench, the Profile
// panel's newest profile, the Kernels panel's kernels of yours: every built version, e.g.
// yours.matmul_3.v2, app/gui/views/user_kernel_runs.h). Tick runs in the list, grouped by recording
// (the first ticked is the baseline); until something is ticked it shows the best rung of each
// precision and its cuBLAS (default_compare_runs). The table shows every metric of each with its
// change from the baseline and a bar coloured by whether the change is an improvement, each column
// naming its GPU and date when the runs come from several recordings; the roofline puts each run
// under its own recording's measured roofs (app/gui/views/compare_runs.h). Runs of more than one
// GPU (each run's GPU is its bench row's worker's) are grouped by GPU: in the list under a line
// per GPU, and the ticked columns GPU by GPU with a line saying so. Both export to SVG and PNG.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/views/compare_runs.h"
#include "viz/draw_list.h"

namespace tclens::gui {

struct OpenRecordings;

enum class CompareView { kTable, kRoofline };

class ComparePanel : public Panel {
  public:
    ComparePanel();
    // source=recording|live (default: the recordings when one is open, else live),
    // runs=RUN[,RUN...] (the ticked runs, the first the baseline; RUN is KERNEL@MxNxK, the first
    // open recording's that has it, or FILE:KERNEL@MxNxK, that recording's, FILE its file name;
    // "none" for no run), view=table|roofline.
    std::string apply_setting(std::string_view key, std::string_view value) override;

  private:
    void draw_contents(AppContext& context) override;
    void theme_changed() override;
    CompareSourceKind effective_source(bool recording_open) const;
    void refresh(AppContext& context);
    void rebuild_views();
    std::string sources_caption() const;  // one source's caption, else "2 recordings"
    void toggle(const CompareRun& run);
    void make_baseline(const CompareRun& run);
    void draw_source_choice(bool recording_open);
    void draw_run_list(AppContext& context);
    void draw_comparison();

    std::optional<CompareSourceKind> source_choice_;  // set by the user or a setting
    std::vector<std::string> chosen_;  // ticked runs (compare_runs.h entries), the baseline first
    bool chosen_by_user_ = false;      // else chosen_ is default_compare_runs of the sources
    CompareView view_ = CompareView::kTable;
    std::array<char, 128> filter_{};

    // What the views were built from; a change of any of them builds them again.
    std::shared_ptr<const OpenRecordings> recordings_seen_;
    std::shared_ptr<const BenchResults> bench_seen_;
    std::shared_ptr<const LiveProfile> live_seen_;
    std::shared_ptr<const profiling::SystemReport> system_seen_;
    std::shared_ptr<const UserKernels> yours_seen_;
    CompareSourceKind built_kind_ = CompareSourceKind::kLive;
    bool built_ = false;
    bool dirty_ = true;  // chosen_, the view or the theme changed since the views were built

    std::vector<CompareSource> sources_;         // the recordings', in order, or the live one
    std::vector<const CompareRun*> shown_runs_;  // chosen_ that sources_ have and can compare
    std::vector<std::string> missing_;           // chosen_ that sources_ lack or cannot compare
    float table_width_ = 0;  // the table's and roofline's max_width: what the panel shows of them
    size_t compare_rows_count_ = 0;  // the table's rows: its header hits follow their bars'
    viz::DrawList table_;
    viz::DrawList roofline_;
    std::string export_message_;
};

}  // namespace tclens::gui
