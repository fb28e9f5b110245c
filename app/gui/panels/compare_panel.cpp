#include "app/gui/panels/compare_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/lecture/lecture_mode.h"
#include "app/gui/shell/app_context.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
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

std::string_view ComparePanel::help() const {
    return "Compare kernel runs side by side, from the open recording or from this session (the "
           "Kernels panel's bench and the Profile panel's newest profile). A run is one kernel on "
           "one size: its bench result and its profile together. Tick two or more runs; the first "
           "ticked is the baseline (right-click a run to make it the baseline). The table lists "
           "every metric of each run and, for the others, the change from the baseline in %, with "
           "a bar: green when the change is an improvement for that metric (less time, more "
           "TFLOP/s, fewer bank conflicts ...), red when it is a regression, grey when the metric "
           "has no better direction. The roofline plots each run at its arithmetic intensity "
           "(FLOP per DRAM byte: 2MNK over the profile's DRAM bytes read and written, or, marked "
           "est., over the bytes a GEMM must move at least) and its TFLOP/s, under the device's "
           "roofs: the peaks it measured per precision (tensor pipe, FMA) and the DRAM bandwidth "
           "(measured by tclens record, else the theoretical one, labelled so). Only verified "
           "results have numbers. Export writes exactly what is shown as SVG or PNG.";
}

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
    const auto recording = context.recording.latest();
    const auto bench = context.bench_results.latest();
    const auto live = context.live_profile.latest();
    const auto system = context.system.latest();
    const CompareSourceKind kind = effective_source(recording != nullptr);
    bool changed = !built_ || kind != built_kind_;
    if (kind == CompareSourceKind::kRecording) {
        changed = changed || recording != recording_seen_;
    } else {
        changed = changed || bench != bench_seen_ || live != live_seen_ || system != system_seen_;
    }
    if (changed) {
        recording_seen_ = recording;
        bench_seen_ = bench;
        live_seen_ = live;
        system_seen_ = system;
        if (kind == CompareSourceKind::kLive) {
            source_ = live_compare_source(bench.get(), live.get(), system.get());
        } else if (recording) {
            source_ = recording_compare_source(recording->recording, recording->path);
        } else {
            source_ = CompareSource{};
            source_.kind = CompareSourceKind::kRecording;
            source_.caption = "no recording is open";
        }
        built_kind_ = kind;
        built_ = true;
        dirty_ = true;
    }
    if (dirty_) rebuild_views();
}

void ComparePanel::rebuild_views() {
    shown_runs_.clear();
    missing_.clear();
    for (const std::string& id : chosen_) {
        const CompareRun* run = find_compare_run(source_, id);
        if (run && run->comparable()) {
            shown_runs_.push_back(run);
        } else {
            missing_.push_back(
                id + ": " +
                (run ? run->status
                     : std::string("not in the ") + compare_source_name(source_.kind) + " runs"));
        }
    }
    const viz::Palette& palette = theme().palette;
    viz::CompareTableOptions table_options;
    table_options.title = source_.caption + ": change from the first run";
    table_options.palette = &palette;
    table_ =
        viz::compare_table(compare_columns(shown_runs_), compare_rows(shown_runs_), table_options);
    viz::RooflineOptions roofline_options;
    roofline_options.title = "roofline of " + source_.caption;
    roofline_options.decade_px = kDecadePx;
    roofline_options.palette = &palette;
    roofline_ = viz::roofline_chart(compare_roofline(source_, shown_runs_), roofline_options);
    dirty_ = false;
}

void ComparePanel::theme_changed() { dirty_ = true; }

void ComparePanel::toggle(const std::string& id) {
    const auto it = std::find(chosen_.begin(), chosen_.end(), id);
    if (it == chosen_.end()) {
        chosen_.push_back(id);
    } else {
        chosen_.erase(it);
    }
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
                                  : "this session: the Kernels panel's bench and the Profile "
                                    "panel's newest profile");
        }
    }
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s, %zu runs", source_.caption.c_str(), source_.runs.size());
}

void ComparePanel::draw_run_list() {
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##filter", "filter runs, e.g. f16 or 4096", filter_.data(),
                             filter_.size());
    ImGui::Text("%zu ticked", chosen_.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("untick all")) {
        chosen_.clear();
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
    for (size_t i = 0; i < source_.runs.size(); ++i) {
        const CompareRun& run = source_.runs[i];
        if (!filter.empty() && run.id.find(filter) == std::string::npos) continue;
        const auto at = std::find(chosen_.begin(), chosen_.end(), run.id);
        const bool ticked = at != chosen_.end();
        ImGui::PushID(int(i));
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (!run.comparable()) ImGui::BeginDisabled();
        bool tick = ticked;
        const bool baseline = ticked && at == chosen_.begin();
        if (ImGui::Checkbox("##tick", &tick)) toggle(run.id);
        if (!run.comparable()) ImGui::EndDisabled();
        if (baseline) {
            ImGui::SameLine();
            ImGui::TextColored(imgui_colour(theme().note), "base");
        }
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(run.id.c_str());
        if (run.comparable() && !baseline && ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
            chosen_.erase(std::remove(chosen_.begin(), chosen_.end(), run.id), chosen_.end());
            chosen_.insert(chosen_.begin(), run.id);
            dirty_ = true;
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", run.comparable() ? "tick to compare; right-click: make it the "
                                                       "baseline"
                                                     : run.status.c_str());
        }
        ImGui::TableSetColumnIndex(2);
        if (run.tflops > 0) {
            ImGui::Text("%.1f%s", run.tflops, run.tflops_from_profile ? " (profiled)" : "");
        } else {
            // The status's first words ("skipped", "NOT VERIFIED"); the run's tooltip has it all.
            const std::string reason = run.status.substr(0, run.status.find(':'));
            ImGui::TextDisabled("%s", run.comparable() ? "-" : reason.c_str());
        }
        ImGui::TableSetColumnIndex(3);
        if (run.profile) ImGui::TextUnformatted(run.comparable() ? "yes" : "failed");
        ImGui::PopID();
    }
    ImGui::EndTable();
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
    if (!table) {
        if (source_.peaks.empty()) {
            ImGui::TextColored(imgui_colour(theme().note), "no compute roofs: %s",
                               source_.peak_error.c_str());
        }
        if (source_.dram_bytes_per_s > 0) {
            ImGui::TextDisabled("DRAM roof %s, %s: %s",
                                bandwidth_text(source_.dram_bytes_per_s).c_str(),
                                source_.dram_origin.c_str(), source_.dram_method.c_str());
        } else {
            ImGui::TextColored(imgui_colour(theme().note), "no DRAM roof: the device is not known");
        }
    }
    if (shown_runs_.size() < 2) {
        ImGui::TextWrapped(
            "Tick two or more runs on the left to compare them; the first one "
            "ticked is the baseline.");
    }
    if (shown_runs_.empty()) return;
    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const int hovered = paint_draw_list(shown, 1.0f);
    if (!table && hovered >= 0 && hovered < int(shown_runs_.size())) {
        const CompareRun& run = *shown_runs_[size_t(hovered)];
        const RunIntensity intensity = run_intensity(run);
        ImGui::SetTooltip("%s\n%.1f TFLOP/s (%s)\n%.1f FLOP/B: %.3g bytes %s", run.id.c_str(),
                          run.tflops,
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
    if (source_.runs.empty()) {
        if (source_.kind == CompareSourceKind::kRecording) {
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
    draw_run_list();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("comparison", ImVec2(0, 0), false);
    draw_comparison();
    ImGui::EndChild();
}

}  // namespace tclens::gui
