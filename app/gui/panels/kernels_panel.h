#pragma once
// Kernels panel: the GEMM ladder (kernels/registry.h) rung by rung, the chosen kernel's
// descriptor with links to the Fragments, Tile map and Banks panels, and a benchmark of the
// ticked rungs next to their same-run cuBLAS references: results table and TFLOP/s bar chart,
// verified results only (app/gui/views/bench_view.h). Run can spread the sizes over several
// workers, one per GPU; the table then names each row's worker and a line each worker's GPU.

#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "app/gui/panels/panel.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/panels/user_kernels_section.h"
#include "app/gui/views/bench_view.h"
#include "kernels/gemm.h"
#include "viz/draw_list.h"

namespace tclens::gui {

struct BenchResults;
struct OpenRecording;
struct OpenRecordings;

// A kernel's links to other panels: one to Fragments per layout id ("layout=ID"), one to Tile
// map for a rung ("kernel=ID"; the cuBLAS references have no tile map), then, when it has a
// swizzle (cuBLAS has none), one to Banks comparing it with no swizzle: "pattern=P" for
// its first shared access (P = KERNEL/LABEL, kernels/shared_access.h) or, when it declares
// none, the first ldmatrix id it uses (the access its swizzle is built for); then "left=none",
// "right=SWIZZLE".
std::vector<PanelLink> kernel_links(const kernels::KernelDescriptor& kernel);

// "4096x4096x4096, 1024x1024x1024" -> the sizes (kernels::parse_problems of the entries, blanks
// around the commas ignored). On a bad or empty entry returns {} and sets `error` to one line.
std::vector<kernels::GemmProblem> parse_problem_list(const std::string& text, std::string& error);

// How `kernel` runs the first of `problems` where it picks per problem (its launch_plan, e.g.
// rung 14's choice and reason): "17x33x129: N = 33 -> 40, ..."; "" without a plan, sizes, or
// when it cannot run that size.
std::string first_size_plan(const kernels::KernelDescriptor& kernel,
                            const std::vector<kernels::GemmProblem>& problems);

class KernelsPanel : public Panel {
  public:
    KernelsPanel();
    // selected=ID (the kernel whose descriptor is shown: any id of `tclens kernels`, or the ref
    // of a kernel of yours), open=REF (a kernel of yours, path.cu[:NAME][:TYPE]: built in the
    // worker at the first size and selected), watch=on|off (Watch for the selected kernel of
    // yours), mnk=MxNxK[,MxNxK...] (the sizes Run benchmarks), preset=lab6|llm|square (mnk =
    // every size of
    // the preset), run=all|none|ID[,ID...] (the rungs ticked for Run; references join by
    // themselves), workers=N (1-64: Run spreads the sizes over N workers, one per GPU of the
    // worker's host; the table then names each row's GPU).
    std::string apply_setting(std::string_view key, std::string_view value) override;

  private:
    void draw_contents(AppContext& context) override;
    void theme_changed() override;
    void set_sizes(const std::string& text);
    // `recordings`: every open recording when `latest` is the recorded bench, else nullptr.
    void refresh_results(const std::shared_ptr<const BenchResults>& latest,
                         const std::shared_ptr<const OpenRecordings>& recordings);
    void draw_ladder();
    void draw_ladder_row(int index);
    void draw_details(AppContext& context);
    void draw_sizes();
    void draw_run(AppContext& context);
    void draw_results();
    // The line above the results: how many, on which GPU, the measured peaks; false (with the
    // line that says why) when there are none to show.
    bool draw_results_heading();
    // The presentation layout (controls_folded()): the heading and the chart, fitted to the pane.
    void draw_chart_alone();
    void draw_results_table();

    const std::vector<kernels::KernelDescriptor>& kernels_;
    std::vector<char> ticked_;      // per kernels_ entry: run it (rungs only)
    bool bench_requested_ = false;  // `bench=on`: Run as soon as it can start
    int workers_ = 1;               // how many workers Run spreads the sizes over
    int selected_ = 0;              // index into kernels_ of the kernel whose details are shown
    std::array<char, 512> sizes_buffer_{};  // what the size input edits
    std::vector<kernels::GemmProblem>
        problems_;  // parsed from it; empty when sizes_error_ says why
    std::string sizes_error_;
    JobHandle job_;                              // the last bench posted here
    std::shared_ptr<const BenchResults> shown_;  // the results the table and chart show
    // While no bench has run here: the open recording's bench (recording_view.h), made once per
    // recording.
    std::shared_ptr<const OpenRecording> recording_seen_;
    std::shared_ptr<const BenchResults> recorded_;
    // With two or more recordings open and no bench here, the chart holds them all side by side.
    std::shared_ptr<const OpenRecordings> chart_recordings_;
    std::vector<BenchTableRow> table_;
    bool gpu_column_ = false;  // the shown rows ran on several GPUs: the table names each
    viz::DrawList chart_;
    // "chart=": the one size the chart shows (a lecture's ladder at 4096^3), else every size.
    std::optional<kernels::GemmProblem> chart_size_;
    std::set<kernels::Precision> chart_precisions_;  // setting precision=: charted; empty: all
    std::string export_message_;
    std::shared_ptr<const UserKernels> user_kernels_;  // this frame's, for the ladder
    UserKernelsSection yours_;  // the "yours" group; its selection replaces selected_'s details
};

}  // namespace tclens::gui
