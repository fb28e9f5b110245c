#include "app/gui/panels/kernels_panel.h"

#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iterator>
#include <set>

#include "app/gui/jobs/app_context.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/presentation.h"
#include "app/gui/views/recording_view.h"
#include "common/text.h"
#include "kernels/bench_selection.h"
#include "kernels/descriptor_text.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/shared_access.h"
#include "kernels/user/kernel_ref.h"

namespace tclens::gui {
namespace {

constexpr const char* kDefaultSize = "4096x4096x4096";
constexpr int kMaxVisibleResultRows = 16;  // the table scrolls beyond
// The chart alone (the presentation layout) is scaled to fill its pane, within these factors.
constexpr float kChartFitLowest = 0.25f;
constexpr float kChartFitHighest = 4.0f;
constexpr int kMaxWorkers = 64;  // as tclens bench --workers
constexpr kernels::Precision kPrecisions[] = {kernels::Precision::kF32, kernels::Precision::kTF32,
                                              kernels::Precision::kF16, kernels::Precision::kBF16,
                                              kernels::Precision::kE4M3};

std::string join_problems(const std::vector<kernels::GemmProblem>& problems) {
    return common::join(problems, ", ",
                        [](const kernels::GemmProblem& p) { return kernels::problem_text(p); });
}

// The ladder rungs' ids (cuBLAS left out), comma-separated.
std::string rung_ids_text() {
    std::vector<std::string> ids;
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) {
        if (kernel.rung != 0) ids.push_back(kernel.id);
    }
    return common::join(ids, ", ");
}

// What a link's button says: the layout id for Fragments, "banks: xor" for Banks.
std::string link_label(const PanelLink& link) {
    const std::string& last = link.settings.back();
    const std::string value = last.substr(last.find('=') + 1);
    if (link.panel == "tilemap") return "tile map";
    return link.panel == "fragments" ? value : link.panel + ": " + value;
}

const char* link_tooltip(const PanelLink& link) {
    if (link.panel == "fragments") return "show this instruction's register layout in Fragments";
    if (link.panel == "tilemap") {
        return "show how this rung cuts C into block, warp and mma tiles in Tile map";
    }
    return "compare this swizzle with none in Banks, on the kernel's first shared-memory access "
           "where it declares one";
}

// A label on the left of the next widget, which is then named "##<label>".
void dim_text_wrapped(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

std::vector<PanelLink> kernel_links(const kernels::KernelDescriptor& kernel) {
    std::vector<PanelLink> links;
    for (const std::string& layout : kernel.layout_ids) {
        links.push_back({"fragments", {"layout=" + layout}});
    }
    // Every rung has a tile map; the cuBLAS references (cuBLAS picks its own tiles) have none
    // (kernels/tile_map_spec.h; its tests hold both).
    if (kernel.rung > 0) {
        links.push_back({"tilemap", {"kernel=" + kernel.id}});
    }
    if (kernel.swizzle.empty()) return links;
    PanelLink banks{"banks", {}};
    const auto ldmatrix =
        std::find_if(kernel.layout_ids.begin(), kernel.layout_ids.end(),
                     [](const std::string& id) { return id.rfind("ldmatrix.", 0) == 0; });
    if (!kernel.shared_accesses.empty()) {
        banks.settings.push_back(
            "pattern=" + kernels::shared_access_name(kernel, kernel.shared_accesses.front()));
    } else if (ldmatrix != kernel.layout_ids.end()) {
        banks.settings.push_back("pattern=" + *ldmatrix);
    }
    banks.settings.push_back("left=none");
    banks.settings.push_back("right=" + kernel.swizzle);
    links.push_back(std::move(banks));
    return links;
}

std::vector<kernels::GemmProblem> parse_problem_list(const std::string& text, std::string& error) {
    return kernels::parse_problems(common::split_list(text), "", error);
}

std::string first_size_plan(const kernels::KernelDescriptor& kernel,
                            const std::vector<kernels::GemmProblem>& problems) {
    if (!kernel.launch_plan || problems.empty() || !kernel.can_run ||
        !kernel.can_run(problems.front()).empty()) {
        return "";
    }
    return kernels::problem_text(problems.front()) + ": " + kernel.launch_plan(problems.front());
}

// The Help menu's text of the panel.
constexpr const char* kKernelsPanelHelp =
    "The GEMM ladder: each rung is one kernel file that adds one idea to the rung below "
    "it (shared-memory tiles, register tiles, tensor cores, ldmatrix and swizzles, cp.async "
    "pipelines), shown with its title, precision and what it adds. Click a kernel for its "
    "descriptor (block, warp, thread and mma tiles, stages, swizzle, threads, minimum SM) "
    "and open its instructions in Fragments or its swizzle in Banks. Tick rungs, give "
    "sizes as MxNxK (several separated by commas, or a preset) and press Run: every "
    "kernel runs next to the cuBLAS call of the same precision in the same session. Each "
    "result is first checked against a reference (fp64 on the CPU, or FP32 cuBLAS) on "
    "fresh random data with a poisoned output, and only then timed (median of 30 runs, L2 "
    "defeated). '% of cuBLAS' is the kernel's TFLOP/s over that reference's at the same "
    "size; '% of peak' is over the peak this GPU measured for the precision; xSGEMM "
    "compares TF32 rungs with FP32 cuBLAS. Unverified, skipped or failed results show "
    "why and are never plotted. With 'workers' above 1, Run spreads the sizes over that many "
    "workers, one per GPU, and the table names the worker (and so the GPU) of each row. Until a "
    "bench runs here, the results are those of the open recording (File > Open recording...).";

KernelsPanel::KernelsPanel()
    : Panel("kernels", "Kernels", kKernelsPanelHelp),
      kernels_(kernels::all_kernels()),
      ticked_(kernels_.size(), 0) {
    for (size_t i = 0; i < kernels_.size(); ++i) ticked_[i] = kernels_[i].rung > 0;
    set_sizes(kDefaultSize);
}

void KernelsPanel::set_sizes(const std::string& text) {
    std::snprintf(sizes_buffer_.data(), sizes_buffer_.size(), "%s", text.c_str());
    problems_ = parse_problem_list(sizes_buffer_.data(), sizes_error_);
}

std::string KernelsPanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "open") {
        const auto ref = kernels::user::parse_kernel_ref(text);
        if (!ref) return "open: " + ref.error();
        yours_.open(text);
        return "";
    }
    if (key == "watch") {
        if (text != "on" && text != "off") return "watch='" + text + "': allowed: on, off";
        if (!yours_.has_selection()) return "watch: open a kernel of yours first (open=REF)";
        yours_.set_watch(yours_.selected(), text == "on");
        return "";
    }
    if (key == "selected" && kernels::user::parse_kernel_ref(text)) {
        yours_.select(text);
        return "";
    }
    if (key == "selected") {
        const auto it =
            std::find_if(kernels_.begin(), kernels_.end(),
                         [&](const kernels::KernelDescriptor& k) { return k.id == text; });
        if (it == kernels_.end()) {
            return "selected='" + text + "': valid ids: " + kernels::kernel_ids_text();
        }
        selected_ = int(it - kernels_.begin());
        return "";
    }
    if (key == "mnk") {
        std::string error;
        parse_problem_list(text, error);
        if (!error.empty()) return "mnk: " + error;
        set_sizes(text);
        return "";
    }
    if (key == "preset") {
        const std::vector<kernels::GemmProblem> problems = kernels::preset_problems(text);
        if (problems.empty()) {
            return "preset='" + text + "': allowed: " + kernels::preset_names();
        }
        set_sizes(join_problems(problems));
        return "";
    }
    if (key == "run") {
        std::vector<char> ticked(kernels_.size(), 0);
        if (text == "all" || text == "none") {
            for (size_t i = 0; i < kernels_.size(); ++i) {
                ticked[i] = text == "all" && kernels_[i].rung > 0;
            }
        } else {
            for (const std::string& id : common::split_list(text)) {
                const auto it = std::find_if(
                    kernels_.begin(), kernels_.end(),
                    [&](const kernels::KernelDescriptor& k) { return k.id == id && k.rung > 0; });
                if (it == kernels_.end()) {
                    return "run='" + text + "': '" + id + "' is not a rung; allowed: all, none " +
                           "or rungs: " + rung_ids_text();
                }
                ticked[size_t(it - kernels_.begin())] = 1;
            }
        }
        ticked_ = std::move(ticked);
        return "";
    }
    if (key == "chart") {
        std::string error;
        const std::vector<kernels::GemmProblem> sizes =
            text == "all" ? std::vector<kernels::GemmProblem>{} : parse_problem_list(text, error);
        if (text != "all" && (!error.empty() || sizes.size() != 1)) {
            return "chart='" + text + "': allowed: all or one size MxNxK";
        }
        chart_size_ = sizes.empty() ? std::nullopt : std::optional(sizes.front());
        shown_.reset();  // refresh_results() builds the chart again
        return "";
    }
    if (key == "precision") {
        std::set<kernels::Precision> precisions;  // empty: all
        for (const std::string& name : common::split_list(text)) {
            if (text == "all") break;
            const auto it = std::find_if(
                std::begin(kPrecisions), std::end(kPrecisions),
                [&](kernels::Precision p) { return name == kernels::precision_name(p); });
            if (it == std::end(kPrecisions)) {
                return "precision='" + text +
                       "': allowed: all or a comma-separated list of f32, tf32, f16, bf16, e4m3";
            }
            precisions.insert(*it);
        }
        chart_precisions_ = std::move(precisions);
        shown_.reset();  // refresh_results() builds the chart again
        return "";
    }
    if (key == "bench") {
        if (text != "on") return "bench='" + text + "': allowed: on";
        bench_requested_ = true;
        return "";
    }
    if (key == "workers") {
        int count = 0;
        const char* end = text.data() + text.size();
        const auto read = std::from_chars(text.data(), end, count);
        if (read.ec != std::errc() || read.ptr != end || count < 1 || count > kMaxWorkers)
            return "workers='" + text + "': allowed: 1 to " + std::to_string(kMaxWorkers);
        workers_ = count;
        return "";
    }
    return "view 'kernels' has no setting '" + std::string(key) +
           "'; settings: selected, open, watch, mnk, preset, run, chart, precision, bench, "
           "workers";
}

void KernelsPanel::refresh_results(const std::shared_ptr<const BenchResults>& latest,
                                   const std::shared_ptr<const OpenRecordings>& recordings) {
    if (latest == shown_ && recordings == chart_recordings_) return;
    shown_ = latest;
    chart_recordings_ = recordings;
    export_message_.clear();
    if (!shown_) return;
    const std::vector<std::string> gpus = row_gpus(shown_->workers, shown_->row_worker);
    gpu_column_ = !gpus.empty();
    table_ = bench_table(shown_->report, gpus);
    // The rows the chart shows: those at chart_size_ in chart_precisions_, or all.
    const auto charted = [this](const std::vector<kernels::BenchRow>& rows) {
        std::vector<kernels::BenchRow> kept;
        for (const kernels::BenchRow& row : rows) {
            const bool size =
                !chart_size_ || kernels::same_problem(row.result.problem, *chart_size_);
            const bool precision =
                chart_precisions_.empty() || chart_precisions_.count(row.result.precision) > 0;
            if (size && precision) kept.push_back(row);
        }
        return kept;
    };
    if (recordings && recordings->list.size() > 1) {
        std::vector<std::vector<kernels::BenchRow>> rows;
        rows.reserve(recordings->list.size());
        std::vector<LabelledBench> benches;
        for (const auto& open : recordings->list) {
            rows.push_back(charted(open->recording.bench));
            benches.push_back({recording_caption(open->recording), &rows.back()});
        }
        chart_ = recordings_bench_chart(benches, theme().palette);
    } else {
        kernels::BenchReport report = shown_->report;
        report.rows = charted(report.rows);
        chart_ = bench_chart(report, theme().palette);
    }
}

// refresh_results() builds the chart again in the new palette.
void KernelsPanel::theme_changed() { shown_.reset(); }

void KernelsPanel::draw_ladder_row(int index) {
    const kernels::KernelDescriptor& kernel = kernels_[size_t(index)];
    ImGui::PushID(index);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (kernel.rung > 0) {
        bool ticked = ticked_[size_t(index)] != 0;
        if (ImGui::Checkbox("##run", &ticked)) ticked_[size_t(index)] = ticked;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("include %s in Run", kernel.id.c_str());
    }
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(kernel.rung > 0 ? std::to_string(kernel.rung).c_str() : "ref");
    ImGui::TableSetColumnIndex(2);
    // A title longer than its column ends in "..." (the tooltip has it whole), so it never runs
    // into the precision beside it.
    const float column = ImGui::GetContentRegionAvail().x;
    const std::string title = text_to_fit(kernel.title, column);
    note_shown_text(title, column);
    if (ImGui::Selectable((title + "##title").c_str(),
                          selected_ == index && !yours_.has_selection())) {
        selected_ = index;
        yours_.deselect();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\n%s: click for its descriptor", kernel.title.c_str(),
                          kernel.id.c_str());
    dim_text_wrapped(kernel.adds);
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(kernels::precision_name(kernel.precision));
    ImGui::PopID();
}

void KernelsPanel::draw_ladder() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Ladder");
    ImGui::SameLine();
    if (ImGui::SmallButton("all")) {
        for (size_t i = 0; i < kernels_.size(); ++i) ticked_[i] = kernels_[i].rung > 0;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("none")) std::fill(ticked_.begin(), ticked_.end(), 0);
    // Hints wrap on lines of their own: the ladder pane is narrow at lecture zoom.
    dim_text_wrapped("tick the rungs to run");

    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
    for (const bool references : {false, true}) {
        if (references) {
            ImGui::Spacing();
            ImGui::TextUnformatted("cuBLAS references");
            dim_text_wrapped("they join every run of their precision by themselves");
        }
        if (!ImGui::BeginTable(references ? "references" : "rungs", 4, flags)) continue;
        ImGui::TableSetupColumn("run", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("rung", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("type", ImGuiTableColumnFlags_WidthFixed);
        for (int i = 0; i < int(kernels_.size()); ++i) {
            if ((kernels_[size_t(i)].rung == 0) == references) draw_ladder_row(i);
        }
        ImGui::EndTable();
    }
    yours_.draw_group(user_kernels_.get());
}

void KernelsPanel::draw_details(AppContext& context) {
    if (yours_.has_selection()) {
        yours_.draw_details(context, user_kernels_, problems_, theme());
        return;
    }
    const kernels::KernelDescriptor& kernel = kernels_[size_t(selected_)];
    ImGui::TextUnformatted(kernel.id.c_str());
    ImGui::SameLine();
    if (kernel.rung > 0) {
        ImGui::TextDisabled("rung %d, %s", kernel.rung, kernels::precision_name(kernel.precision));
    } else {
        ImGui::TextDisabled("cuBLAS reference, %s", kernels::precision_name(kernel.precision));
    }
    ImGui::TextWrapped("%s", kernel.title.c_str());
    dim_text_wrapped(kernel.adds);

    const std::string stages = std::to_string(kernel.stages);
    const std::string threads = kernel.threads > 0 ? std::to_string(kernel.threads) : "-";
    const std::string min_sm = "sm_" + std::to_string(kernel.min_sm);
    const std::string rows[][4] = {
        {"block tile", kernels::tile_text(kernel.block_tile), "stages", stages},
        {"warp tile", kernels::tile_text(kernel.warp_tile), "swizzle",
         kernel.swizzle.empty() ? "-" : kernel.swizzle},
        {"thread tile", kernels::tile_text(kernel.thread_tile), "threads", threads},
        {"mma tile", kernels::tile_text(kernel.mma_tile), "min SM", min_sm},
        {"in/accumulate", kernels::types_text(kernel), "reference",
         kernel.reference_id.empty() ? "-" : kernel.reference_id},
    };
    // Names fit their text; values share what is left and wrap, so the table never runs past a
    // narrow pane (the Kernels step of a lecture at 1280x720).
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    if (ImGui::BeginTable("descriptor", 4, flags)) {
        ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("name 2", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("value 2", ImGuiTableColumnFlags_WidthStretch);
        for (const auto& row : rows) {
            ImGui::TableNextRow();
            for (int column = 0; column < 4; ++column) {
                ImGui::TableSetColumnIndex(column);
                if (column % 2 == 0) {
                    ImGui::TextDisabled("%s", row[column].c_str());
                } else {
                    ImGui::TextWrapped("%s", row[column].c_str());
                }
            }
        }
        ImGui::EndTable();
    }
    // Whether the kernel accepts the sizes (the GPU's SM is checked when it runs).
    if (kernel.can_run && !problems_.empty()) {
        std::string reason;
        const kernels::GemmProblem* rejected = nullptr;
        for (const kernels::GemmProblem& problem : problems_) {
            reason = kernel.can_run(problem);
            if (!reason.empty()) {
                rejected = &problem;
                break;
            }
        }
        if (rejected) {
            ImGui::TextColored(imgui_colour(theme().note), "will skip %s: %s",
                               kernels::problem_text(*rejected).c_str(), reason.c_str());
        } else {
            ImGui::TextDisabled("accepts every size below");
        }
        if (const std::string plan = first_size_plan(kernel, problems_); !plan.empty()) {
            ImGui::TextWrapped("%s", plan.c_str());
        }
    }

    const std::vector<PanelLink> links = kernel_links(kernel);
    if (links.empty()) return;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("open in");
    for (size_t i = 0; i < links.size(); ++i) {
        const PanelLink& link = links[i];
        ImGui::PushID(int(i));
        ImGui::SameLine();
        if (ImGui::Button(link_label(link).c_str())) context.panel_links.push_back(link);
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", link_tooltip(link));
        }
        ImGui::PopID();
    }
}

void KernelsPanel::draw_sizes() {
    label("sizes");
    // The input takes what the row leaves after the size button and the preset combos, but no
    // less than its text needs (up to 20 font sizes) and no more than the pane has; the button
    // and the combos go on the next line where they do not fit (a lecture at 1280x720).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float combo_width = width_to_show(widest_text(kernels::preset_list()), ItemKind::kCombo);
    const float others =
        ImGui::CalcTextSize("4096^3").x + 2 * style.FramePadding.x +
        float(kernels::preset_list().size()) * (combo_width + style.ItemSpacing.x) +
        2 * style.ItemSpacing.x;
    const float most = em_width(20);
    const float least = std::min(most, width_to_show(sizes_buffer_.data(), ItemKind::kField));
    const float available = ImGui::GetContentRegionAvail().x;
    ImGui::SetNextItemWidth(std::min(available, std::clamp(available - others, least, most)));
    if (ImGui::InputText("##sizes", sizes_buffer_.data(), sizes_buffer_.size())) {
        problems_ = parse_problem_list(sizes_buffer_.data(), sizes_error_);
    }
    note_shown_value(sizes_buffer_.data(), ItemKind::kField);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("MxNxK, or several separated by commas");
    same_line_if_fits(width_to_show("4096^3", ItemKind::kField));
    if (ImGui::Button("4096^3")) set_sizes(kDefaultSize);
    for (const std::string& name : kernels::preset_list()) {
        const char* preset = name.c_str();
        same_line_if_fits(combo_width);
        ImGui::SetNextItemWidth(combo_width);
        const std::vector<kernels::GemmProblem> problems = kernels::preset_problems(preset);
        const bool open = ImGui::BeginCombo((std::string("##") + preset).c_str(), preset);
        if (!open) note_shown_value(preset, ItemKind::kCombo);
        if (open) {
            const std::string every = "all " + std::to_string(problems.size()) + " sizes";
            if (ImGui::Selectable(every.c_str())) set_sizes(join_problems(problems));
            for (const kernels::GemmProblem& problem : problems) {
                const std::string text = kernels::problem_text(problem);
                if (ImGui::Selectable(text.c_str())) set_sizes(text);
            }
            ImGui::EndCombo();
        }
    }
    if (!sizes_error_.empty())
        ImGui::TextColored(imgui_colour(theme().error), "%s", sizes_error_.c_str());
}

void KernelsPanel::draw_run(AppContext& context) {
    std::vector<std::string> ids;
    for (size_t i = 0; i < kernels_.size(); ++i) {
        if (ticked_[i]) ids.push_back(kernels_[i].id);
    }
    std::string error;
    const size_t kernel_count = kernels::bench_kernels(ids, error).size();
    const size_t runs = kernel_count * problems_.size();
    JobControls controls;
    controls.run_label = "Run " + common::count_text(runs, "benchmark") + "###run";
    controls.run_tooltip = std::to_string(kernel_count) +
                           " kernels (cuBLAS references included) x " +
                           std::to_string(problems_.size()) + " sizes, in the worker process";
    controls.gpu_use = "bench";
    // The bench runs in the worker: over ssh, this machine's GPU (or its lack) does not matter.
    controls.worker_gpu = context.worker_options.remote.has_value();
    if (!sizes_error_.empty()) {
        controls.blocked = "fix the sizes first";
    } else if (ids.empty()) {
        controls.blocked = "tick at least one rung";
    }
    label("workers");
    ImGui::SetNextItemWidth(width_to_show("64", ItemKind::kStepper));
    if (ImGui::InputInt("##workers", &workers_)) workers_ = std::clamp(workers_, 1, kMaxWorkers);
    note_shown_value(std::to_string(workers_), ItemKind::kStepper);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "spread the sizes over this many workers, one per GPU of the worker's "
            "host; each row names its GPU (docs/many-gpus.md)");
    const profiling::SystemReport* system = context.system.latest().get();
    const bool clicked = draw_job_controls(controls, job_, system, theme());
    if (clicked || (bench_requested_ && job_can_start(controls, job_.snapshot(), system))) {
        bench_requested_ = false;
        worker::BenchRequest request;
        request.kernels = ids;
        request.problems = problems_;
        job_ = request_bench(context, std::move(request), workers_);
    }
}

void KernelsPanel::draw_results_table() {
    const std::vector<std::string>& headers = bench_table_headers(gpu_column_);
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY;
    const int visible_rows = std::min(int(table_.size()), kMaxVisibleResultRows) + 1;
    const float height = ImGui::GetTextLineHeightWithSpacing() * float(visible_rows) + 8.0f;
    if (!ImGui::BeginTable("results", int(headers.size()), flags, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    for (const std::string& header : headers) ImGui::TableSetupColumn(header.c_str());
    ImGui::TableHeadersRow();
    for (const BenchTableRow& row : table_) {
        ImGui::TableNextRow();
        std::vector<const std::string*> cells = {&row.kernel,      &row.size,
                                                 &row.precision,   &row.median_ms,
                                                 &row.tflops,      &row.pct_of_reference,
                                                 &row.pct_of_peak, &row.speedup_vs_sgemm,
                                                 &row.rel_error};
        if (gpu_column_) cells.push_back(&row.gpu);
        cells.push_back(&row.status);
        for (int column = 0; column < int(cells.size()); ++column) {
            ImGui::TableSetColumnIndex(column);
            const bool status = column == int(cells.size()) - 1;
            if (status && row.state == RowState::kCounted) {
                ImGui::TextColored(imgui_colour(theme().ok), "%s", cells[column]->c_str());
            } else if (status && row.state == RowState::kFailed) {
                ImGui::TextColored(imgui_colour(theme().error), "%s", cells[column]->c_str());
            } else if (status) {
                ImGui::TextDisabled("%s", cells[column]->c_str());
            } else {
                ImGui::TextUnformatted(cells[column]->c_str());
            }
        }
    }
    ImGui::EndTable();
}

bool KernelsPanel::draw_results_heading() {
    if (!shown_) {
        ImGui::TextWrapped(
            "No results yet. Tick rungs, choose sizes and press Run: each kernel is checked "
            "against a reference on fresh random data before it is timed, and only verified "
            "results get numbers.");
        return false;
    }
    if (!shown_->error.empty()) {
        ImGui::TextColored(imgui_colour(theme().error), "bench did not run: %s",
                           shown_->error.c_str());
        return false;
    }
    const kernels::BenchReport& report = shown_->report;
    ImGui::Text("%zu results%s%s", report.rows.size(), shown_->device.empty() ? "" : " on ",
                shown_->device.c_str());
    if (!report.peak_error.empty()) {
        ImGui::TextDisabled("measured peak unavailable: %s", report.peak_error.c_str());
    } else if (!report.peaks.empty()) {
        std::string peaks = "measured peak TFLOP/s:";
        for (const kernels::PeakMeasurement& peak : report.peaks) {
            char text[64];
            std::snprintf(text, sizeof text, " %s %.1f", kernels::precision_name(peak.precision),
                          peak.tflops);
            peaks += text;
        }
        ImGui::TextDisabled("%s", peaks.c_str());
    }
    if (shown_->cancelled) {
        ImGui::TextColored(imgui_colour(theme().note), "cancelled: showing the runs that finished");
    }
    return true;
}

void KernelsPanel::draw_chart_alone() {
    if (!draw_results_heading()) return;
    // In a child of its own below the heading: the chart fills what is left of the pane.
    ImGui::BeginChild("chart", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
    paint_draw_list(chart_, fit_zoom(chart_, kChartFitLowest, kChartFitHighest));
    ImGui::EndChild();
}

void KernelsPanel::draw_results() {
    if (!draw_results_heading()) return;
    // Several workers: the GPU column names each row's worker, these lines its GPU.
    for (const std::string& worker : bench_workers(shown_->workers))
        ImGui::TextDisabled("%s", worker.c_str());
    for (const std::string& note : shown_->notes)
        ImGui::TextColored(imgui_colour(theme().note), "%s", note.c_str());
    draw_results_table();
    draw_export_buttons(chart_, "kernels_bench", export_message_);
    if (!export_message_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_message_.c_str());
    }
    paint_draw_list(chart_, 1.0f);
}

void KernelsPanel::draw_contents(AppContext& context) {
    std::shared_ptr<const BenchResults> results = context.bench_results.latest();
    std::shared_ptr<const OpenRecordings> recordings;
    if (!results) {
        const auto recording = context.recording.latest();
        if (recording != recording_seen_) {
            recording_seen_ = recording;
            recorded_ = recording ? recorded_bench(recording->recording) : nullptr;
        }
        results = recorded_;
        recordings = context.recordings.latest();
    }
    refresh_results(results, recordings);
    user_kernels_ = context.user_kernels.latest();
    yours_.update(context, problems_);
    if (controls_folded()) {
        draw_chart_alone();
        return;
    }
    const float ladder_width = std::max(300.0f, ImGui::GetContentRegionAvail().x * 0.42f);
    ImGui::BeginChild("ladder", ImVec2(ladder_width, 0), true);
    draw_ladder();
    ImGui::EndChild();
    ImGui::SameLine();
    // No horizontal scrolling: with it, wrapped text and the sizes row would size themselves to
    // the last frame's content width and keep any overflow for ever; everything here wraps.
    ImGui::BeginChild("kernel", ImVec2(0, 0), false);
    draw_details(context);
    ImGui::Separator();
    draw_sizes();
    draw_run(context);
    ImGui::Separator();
    draw_results();
    ImGui::EndChild();
}

}  // namespace tclens::gui
