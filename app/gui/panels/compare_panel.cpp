#include "app/gui/panels/compare_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/open_recordings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/lecture_mode.h"
#include "viz/compare_table.h"
#include "viz/roofline.h"

namespace tclens::gui {
namespace {

constexpr float kListWidth = 420.0f;
constexpr float kDecadePx = 110.0f;

// "3.35 TB/s".
std::string bandwidth_text(double bytes_per_s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f TB/s", bytes_per_s / 1e12);
    return text;
}

}  // namespace

// The Help menu's text of the panel.
constexpr const char* kComparePanelHelp =
    "Compare kernel runs side by side, from the open recordings or from this session (the "
    "Kernels panel's bench, the Profile panel's newest profile, and every version of a "
    "kernel of yours, e.g. yours.matmul_3.v2, next to its same-run cuBLAS). A run is one "
    "kernel on "
    "one size: its bench result and its profile together. Open several recordings (File > "
    "Open recording..., one after another) to compare one GPU at two times or two GPUs: "
    "their runs are listed under each file, each column names its GPU and date, and each "
    "run sits under its own recording's roofs (dashed, dotted ... for the second, third). "
    "It opens on the best rung of each precision and its cuBLAS. Tick two or more runs; "
    "the first ticked is the baseline (right-click a run to make it the baseline). The "
    "table lists "
    "every metric of each run, one column per run headed by a letter (the key under the table "
    "names each run; hover a letter for its name), wrapped into bands when the runs do not fit "
    "side by side, and, for the others, the change from the baseline in %, with "
    "a bar: blue when the change is an improvement for that metric (less time, more "
    "TFLOP/s, fewer bank conflicts ...), orange when it is a regression, grey when the metric "
    "has no better direction (the key under the table says so). The roofline plots each run at its "
    "arithmetic intensity "
    "(FLOP per DRAM byte: 2MNK over the profile's DRAM bytes read and written, or, marked "
    "est., over the bytes a GEMM must move at least) and its TFLOP/s, under the device's "
    "roofs: the peaks it measured per precision (tensor pipe, FMA) and the DRAM bandwidth "
    "(measured by tclens record, else the theoretical one, labelled so). Only verified "
    "results have numbers. Export writes exactly what is shown as SVG or PNG.";

ComparePanel::ComparePanel() : Panel("compare", "Compare", kComparePanelHelp) {}

std::string ComparePanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "source") {
        if (text == "recording") {
            source_choice_ = CompareSourceKind::kRecording;
        } else if (text == "live") {
            source_choice_ = CompareSourceKind::kLive;
        } else {
            return "source='" + text + "': allowed: recording, live";
        }
    } else if (key == "runs") {
        std::string error;
        std::vector<std::string> ids =
            text == "none" ? std::vector<std::string>{} : parse_compare_run_ids(text, error);
        if (!error.empty()) return "runs: " + error + "; or none";
        chosen_ = std::move(ids);
        chosen_by_user_ = true;
    } else if (key == "view") {
        if (text == "table") {
            view_ = CompareView::kTable;
        } else if (text == "roofline") {
            view_ = CompareView::kRoofline;
        } else {
            return "view='" + text + "': allowed: table, roofline";
        }
    } else {
        return "view 'compare' has no setting '" + std::string(key) +
               "'; settings: source, runs, view";
    }
    dirty_ = true;
    return "";
}

CompareSourceKind ComparePanel::effective_source(bool recording_open) const {
    if (source_choice_) return *source_choice_;
    return recording_open ? CompareSourceKind::kRecording : CompareSourceKind::kLive;
}

void ComparePanel::refresh(AppContext& context) {
    const auto recordings = context.recordings.latest();
    const auto bench = context.bench_results.latest();
    const auto live = context.live_profile.latest();
    const auto system = context.system.latest();
    const auto yours = context.user_kernels.latest();
    const bool any_recording = recordings && !recordings->list.empty();
    const CompareSourceKind kind = effective_source(any_recording);
    bool changed = !built_ || kind != built_kind_;
    if (kind == CompareSourceKind::kRecording) {
        changed = changed || recordings != recordings_seen_;
    } else {
        changed = changed || bench != bench_seen_ || live != live_seen_ || system != system_seen_ ||
                  yours != yours_seen_;
    }
    if (changed) {
        recordings_seen_ = recordings;
        bench_seen_ = bench;
        live_seen_ = live;
        system_seen_ = system;
        yours_seen_ = yours;
        sources_.clear();
        if (kind == CompareSourceKind::kLive) {
            sources_.push_back(
                live_compare_source(bench.get(), live.get(), system.get(), yours.get()));
        } else if (any_recording) {
            std::vector<std::pair<std::string, const profiling::Recording*>> open;
            for (const auto& recording : recordings->list) {
                open.emplace_back(recording->path, &recording->recording);
            }
            sources_ = recording_compare_sources(open);
        }
        if (!chosen_by_user_) chosen_ = default_compare_runs(sources_);
        built_kind_ = kind;
        built_ = true;
        dirty_ = true;
    }
    if (dirty_) rebuild_views();
}

std::string ComparePanel::sources_caption() const {
    if (sources_.empty()) {
        return built_kind_ == CompareSourceKind::kRecording ? "no recording is open" : "live";
    }
    if (sources_.size() == 1) return sources_.front().caption;
    return std::to_string(sources_.size()) + " recordings";
}

void ComparePanel::rebuild_views() {
    shown_runs_.clear();
    missing_.clear();
    for (const ResolvedRun& resolved : resolve_compare_runs(sources_, chosen_)) {
        if (resolved.run) {
            shown_runs_.push_back(resolved.run);
        } else {
            missing_.push_back(resolved.missing);
        }
    }
    shown_runs_ = group_by_gpu(shown_runs_);
    // The caption of the shown runs' one source, else of them all.
    std::string caption = sources_caption();
    for (const CompareSource& source : sources_) {
        const bool all_here =
            !shown_runs_.empty() &&
            std::all_of(shown_runs_.begin(), shown_runs_.end(),
                        [&](const CompareRun* run) { return run->source_key == source.key; });
        if (all_here) caption = source.caption;
    }
    const viz::Palette& palette = theme().palette;
    viz::CompareTableOptions table_options;
    table_options.title = caption + ": change from the first run";
    table_options.palette = &palette;
    table_options.max_width = table_width_;
    const std::vector<viz::CompareRow> rows = compare_rows(shown_runs_);
    compare_rows_count_ = rows.size();
    table_ = viz::compare_table(compare_columns(shown_runs_), rows, table_options);
    viz::RooflineOptions roofline_options;
    roofline_options.title = "roofline of " + caption;
    roofline_options.decade_px = kDecadePx;
    roofline_options.max_width = table_width_;
    roofline_options.palette = &palette;
    roofline_ = viz::roofline_chart(compare_roofline(sources_, shown_runs_), roofline_options);
    dirty_ = false;
}

void ComparePanel::theme_changed() { dirty_ = true; }

void ComparePanel::toggle(const CompareRun& run) {
    const std::vector<ResolvedRun> resolved = resolve_compare_runs(sources_, chosen_);
    for (size_t i = 0; i < resolved.size(); ++i) {
        if (resolved[i].run == &run) {
            chosen_.erase(chosen_.begin() + std::ptrdiff_t(i));
            chosen_by_user_ = true;
            dirty_ = true;
            return;
        }
    }
    chosen_.push_back(sources_.size() > 1 ? run.key() : run.id);
    chosen_by_user_ = true;
    dirty_ = true;
}

void ComparePanel::make_baseline(const CompareRun& run) {
    const std::vector<ResolvedRun> resolved = resolve_compare_runs(sources_, chosen_);
    std::vector<std::string> kept = {sources_.size() > 1 ? run.key() : run.id};
    for (size_t i = 0; i < resolved.size(); ++i) {
        if (resolved[i].run != &run) kept.push_back(chosen_[i]);
    }
    chosen_ = std::move(kept);
    chosen_by_user_ = true;
    dirty_ = true;
}

void ComparePanel::draw_source_choice(bool recording_open) {
    const CompareSourceKind kind = effective_source(recording_open);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("runs from");
    for (const CompareSourceKind option :
         {CompareSourceKind::kRecording, CompareSourceKind::kLive}) {
        ImGui::SameLine();
        if (ImGui::RadioButton(compare_source_name(option), kind == option)) {
            source_choice_ = option;
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip(option == CompareSourceKind::kRecording
                                  ? "the open recording (File > Open recording...)"
                                  : "this session: the Kernels panel's bench, the Profile "
                                    "panel's newest profile and the versions of kernels of "
                                    "yours");
        }
    }
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    size_t runs = 0;
    for (const CompareSource& source : sources_) runs += source.runs.size();
    ImGui::TextDisabled("%s, %zu runs", sources_caption().c_str(), runs);
}

void ComparePanel::draw_run_list(AppContext& context) {
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##filter", "filter runs, e.g. f16 or 4096", filter_.data(),
                             filter_.size());
    ImGui::Text("%zu ticked", shown_runs_.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("untick all")) {
        chosen_.clear();
        chosen_by_user_ = true;
        dirty_ = true;
    }
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("runs", 4, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("run", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("TFLOP/s", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("profile", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    const std::string filter = filter_.data();
    std::string close;  // a recording whose "close" was pressed
    int row_id = 0;
    std::vector<const CompareRun*> every_run;
    for (const CompareSource& source : sources_) {
        for (const CompareRun& run : source.runs) every_run.push_back(&run);
    }
    const bool several_gpus = compare_gpus(every_run).size() > 1;
    for (const CompareSource& source : sources_) {
        if (sources_.size() > 1) {
            // The recording's header row: its file and its GPU and date, and a close button.
            ImGui::PushID(source.key.c_str());
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            if (ImGui::SmallButton("x") && source.kind == CompareSourceKind::kRecording) {
                close = source.key;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("close this recording");
            ImGui::TableSetColumnIndex(1);
            ImGui::TextColored(imgui_colour(theme().note), "%s", source.caption.c_str());
            ImGui::PopID();
        }
        // With runs from several GPUs, each source's runs come GPU by GPU under a line naming it.
        std::vector<const CompareRun*> listed;
        for (const CompareRun& run : source.runs) listed.push_back(&run);
        if (several_gpus) listed = group_by_gpu(listed);
        for (std::size_t i = 0; i < listed.size(); ++i) {
            const CompareRun& run = *listed[i];
            if (several_gpus && (i == 0 || listed[i - 1]->gpu != run.gpu)) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(1);
                ImGui::TextColored(imgui_colour(theme().note), "GPU %s",
                                   run.gpu.empty() ? "unknown" : run.gpu.c_str());
            }
            if (!filter.empty() && run.id.find(filter) == std::string::npos) continue;
            const auto at = std::find(shown_runs_.begin(), shown_runs_.end(), &run);
            const bool ticked = at != shown_runs_.end();
            const bool baseline = ticked && at == shown_runs_.begin();
            ImGui::PushID(row_id++);
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            if (!run.comparable()) ImGui::BeginDisabled();
            bool tick = ticked;
            if (ImGui::Checkbox("##tick", &tick)) toggle(run);
            if (!run.comparable()) ImGui::EndDisabled();
            if (baseline) {
                ImGui::SameLine();
                ImGui::TextColored(imgui_colour(theme().note), "base");
            }
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(run.id.c_str());
            if (run.comparable() && !baseline && ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
                make_baseline(run);
            }
            if (ImGui::IsItemHovered()) {
                // The run's full name: the list's column may cut it.
                ImGui::SetTooltip("%s\n%s", run.id.c_str(),
                                  run.comparable()
                                      ? "tick to compare; right-click: make it the baseline"
                                      : run.status.c_str());
            }
            ImGui::TableSetColumnIndex(2);
            if (run.tflops > 0) {
                ImGui::Text("%.1f%s", run.tflops, run.tflops_from_profile ? " (profiled)" : "");
            } else {
                // The status's first words ("skipped", "NOT VERIFIED"); the tooltip has it all.
                const std::string reason = run.status.substr(0, run.status.find(':'));
                ImGui::TextDisabled("%s", run.comparable() ? "-" : reason.c_str());
            }
            ImGui::TableSetColumnIndex(3);
            if (run.profile) ImGui::TextUnformatted(run.comparable() ? "yes" : "failed");
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
    if (!close.empty()) {
        const auto recordings = context.recordings.latest();
        std::vector<std::pair<std::string, const profiling::Recording*>> open;
        for (const auto& recording : recordings->list) {
            open.emplace_back(recording->path, &recording->recording);
        }
        const std::vector<CompareSource> keyed = recording_compare_sources(open);
        for (size_t i = 0; i < keyed.size(); ++i) {
            if (keyed[i].key == close) close_recording(context, recordings->list[i]->path);
        }
    }
}

void ComparePanel::draw_comparison() {
    for (const CompareView option : {CompareView::kTable, CompareView::kRoofline}) {
        if (option == CompareView::kRoofline) ImGui::SameLine();
        if (ImGui::RadioButton(option == CompareView::kTable ? "table" : "roofline",
                               view_ == option)) {
            view_ = option;
        }
    }
    const bool table = view_ == CompareView::kTable;
    const viz::DrawList& shown = table ? table_ : roofline_;
    ImGui::SameLine();
    draw_export_buttons(shown, table ? "compare_table" : "compare_roofline", export_message_);
    if (!export_message_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_message_.c_str());
    }
    for (const std::string& missing : missing_)
        ImGui::TextColored(imgui_colour(theme().note), "%s", missing.c_str());
    // Runs of several GPUs: the columns come GPU by GPU; say which.
    const std::vector<std::string> gpus = compare_gpus(shown_runs_);
    if (gpus.size() > 1) {
        std::string groups = "grouped by GPU:";
        for (std::size_t g = 0; g < gpus.size(); ++g) {
            const auto runs = std::count_if(shown_runs_.begin(), shown_runs_.end(),
                                            [&](const CompareRun* r) { return r->gpu == gpus[g]; });
            groups += (g == 0 ? " " : "; ") + (gpus[g].empty() ? "unknown" : gpus[g]) + " (" +
                      std::to_string(runs) + (runs == 1 ? " run)" : " runs)");
        }
        ImGui::TextWrapped("%s", groups.c_str());
    }
    for (size_t i = 0; !table && i < sources_.size(); ++i) {
        const CompareSource& source = sources_[i];
        const bool shown =
            std::any_of(shown_runs_.begin(), shown_runs_.end(),
                        [&](const CompareRun* r) { return r->source_key == source.key; });
        if (!shown && !(i == 0 && shown_runs_.empty())) continue;
        const std::string of = sources_.size() > 1 ? " of " + source.key : "";
        if (source.peaks.empty()) {
            ImGui::TextColored(imgui_colour(theme().note), "no compute roofs%s: %s", of.c_str(),
                               source.peak_error.c_str());
        }
        if (source.dram_bytes_per_s > 0) {
            // Wrapped: the method is a long sentence.
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            ImGui::TextWrapped("DRAM roof%s %s, %s: %s", of.c_str(),
                               bandwidth_text(source.dram_bytes_per_s).c_str(),
                               source.dram_origin.c_str(), source.dram_method.c_str());
            ImGui::PopStyleColor();
        } else {
            ImGui::TextColored(imgui_colour(theme().note),
                               "no DRAM roof%s: the device is not known", of.c_str());
        }
    }
    if (shown_runs_.size() < 2) {
        ImGui::TextWrapped(
            "Tick two or more runs on the left to compare them; the first one "
            "ticked is the baseline.");
    }
    if (shown_runs_.empty()) return;
    // The table wraps its columns into the width it is shown in (less a vertical scroll bar).
    const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
    if (std::fabs(width - table_width_) > 0.5f) {
        table_width_ = width;
        rebuild_views();
    }
    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const int hovered = paint_draw_list(shown, 1.0f);
    // A table column's header: the run it stands for, in full.
    const int header_hit = int(compare_rows_count_ * shown_runs_.size());
    if (table && hovered >= header_hit && hovered < header_hit + int(shown_runs_.size())) {
        const CompareRun& run = *shown_runs_[size_t(hovered - header_hit)];
        ImGui::SetTooltip("%s\n%s", run.id.c_str(), run.source_label.c_str());
    }
    if (!table && hovered >= 0 && hovered < int(shown_runs_.size())) {
        const CompareRun& run = *shown_runs_[size_t(hovered)];
        const RunIntensity intensity = run_intensity(run);
        ImGui::SetTooltip("%s\n%s\n%.1f TFLOP/s (%s)\n%.1f FLOP/B: %.3g bytes %s", run.id.c_str(),
                          run.source_label.c_str(), run.tflops,
                          run.tflops_from_profile ? "profiled duration" : "bench median",
                          intensity.flop_per_byte, intensity.bytes,
                          intensity.estimated ? "estimated (compulsory traffic)"
                                              : "of DRAM reads and writes (profile)");
    }
    ImGui::EndChild();
}

void ComparePanel::draw_contents(AppContext& context) {
    refresh(context);
    const bool recording_open = context.recording.latest() != nullptr;
    draw_source_choice(recording_open);
    ImGui::Separator();
    const bool no_runs =
        std::all_of(sources_.begin(), sources_.end(),
                    [](const CompareSource& source) { return source.runs.empty(); });
    if (no_runs) {
        if (built_kind_ == CompareSourceKind::kRecording) {
            ImGui::TextWrapped(recording_open
                                   ? "The open recording has no bench results or profiles."
                                   : "No recording is open: File > Open recording..., or tclens "
                                     "--open FILE.");
        } else {
            ImGui::TextWrapped(
                "Nothing to compare yet. Open a recording (File > Open recording..., or tclens "
                "--open FILE), run benchmarks in the Kernels panel, or profile a kernel in the "
                "Profile panel; then tick two or more runs here.");
        }
        return;
    }
    const float list_width =
        std::min(kListWidth * ui_zoom(), ImGui::GetContentRegionAvail().x * 0.45f);
    ImGui::BeginChild("list", ImVec2(list_width, 0), true);
    draw_run_list(context);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("comparison", ImVec2(0, 0), false);
    draw_comparison();
    ImGui::EndChild();
}

}  // namespace tclens::gui
