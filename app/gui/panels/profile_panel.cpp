#include "app/gui/panels/profile_panel.h"

#include <imgui.h>

#include <algorithm>
#include <numeric>

#include "app/gui/jobs/app_context.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/presentation.h"
#include "app/gui/views/profile_results_view.h"
#include "app/gui/views/recording_view.h"
#include "app/gui/views/source_view.h"
#include "app/gui/views/user_kernel_runs.h"
#include "app/worker/worker_mix.h"
#include "common/atomic_file.h"
#include "common/text.h"
#include "kernels/instruction_mix.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "profiling/metric_catalogue.h"
#include "profiling/profile_json.h"
#include "viz/palette.h"
#include "viz/strip_chart.h"

namespace tclens::gui {
namespace {

constexpr const char* kDefaultProfiledKernel = "wmma.f16";
constexpr float kTimelineWidth = 600.0f;
// The plot alone (the presentation layout) is scaled to fill its pane, within these factors.
constexpr float kPlotFitLowest = 0.25f;
constexpr float kPlotFitHighest = 4.0f;

std::string sets_text() { return common::join(profile_panel_sets(), ", "); }

bool is_timeline_set(int set) { return profile_panel_sets()[size_t(set)] == "timeline"; }

// The timeline metric's label and unit from the catalogue, its name when it is not there.
const profiling::MetricInfo* info_of(const std::string& name) {
    return profiling::find_metric(name);
}

double mean_of_last(const std::vector<double>& values, size_t count) {
    const size_t n = std::min(count, values.size());
    if (n == 0) return 0;
    return std::accumulate(values.end() - std::ptrdiff_t(n), values.end(), 0.0) / double(n);
}

// Snapshot and export file names start with this: "profile_wmma.f16_4096x4096x4096".
std::string file_base(const std::string& kernel_id, const LiveProfile& live) {
    return "profile_" + kernel_id + "_" + kernels::problem_text(live.request.problem);
}

std::string mix_tooltip() {
    const std::string origin = kernels::census_origin();
    return "Static counts of the kernel's own SASS, summed over every instantiation of its "
           "__global__ function: an instruction inside the K loop counts once.\nHMMA: mma.sync "
           "and wmma; HGMMA: wgmma; IMMA: integer MMA; FFMA, FMUL/FADD: the FP32 pipe; LDS/LDSM, "
           "STS: shared memory; LDG/LDGSTS: global loads and cp.async; UTMALDG: TMA loads.\n" +
           (origin.empty() ? "" : "Read when tclens was built: " + origin);
}

// Under the checklist: does the kernel's own SASS hold tensor-core instructions at all?
void draw_sass_check(const ShownMix& shown, const Theme& theme) {
    using kernels::OpClass;
    if (shown.mix) {
        const kernels::InstructionMix& mix = *shown.mix;
        const bool tensor = mix[OpClass::kHmma] + mix[OpClass::kHgmma] + mix[OpClass::kImma] > 0;
        ImGui::TextColored(imgui_colour(tensor ? theme.ok : theme.error), "%s",
                           tensor ? "ok  " : "FAIL");
        ImGui::SameLine();
        ImGui::TextUnformatted("tensor-core instructions in the SASS");
        ImGui::SameLine();
        ImGui::TextDisabled("- %s", tensor ? "the binary has them: look at the other checks"
                                           : "none: this kernel cannot use the tensor cores");
    }
    ImGui::TextWrapped("%s", shown.line.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", mix_tooltip().c_str());
}

// The collapsible "Instruction mix" section, shown for the chosen kernel whatever was profiled.
void draw_instruction_mix(const ShownMix& shown) {
    ImGui::Separator();
    if (!ImGui::CollapsingHeader("Instruction mix", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::TextWrapped("%s", shown.line.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", mix_tooltip().c_str());
}

}  // namespace

const std::vector<std::string>& profile_panel_sets() {
    static const std::vector<std::string> sets = {"default", "all", "timeline"};
    return sets;
}

// The Help menu's text of the panel.
constexpr const char* kProfilePanelHelp =
    "Profile kernels on one size with CUPTI while they run. Choose one kernel or more "
    "(Ctrl+click in the kernel list adds or removes one), the size (MxNxK) and a metric "
    "set, then press Live: each kernel is first checked against a reference, then they "
    "are profiled in turn, again and again (the range profiler's session is kept, so "
    "each update costs only the kernel's replay passes). With several kernels a table "
    "puts their newest values side by side, and the cards show the kernel picked under "
    "'cards of'. Each card shows one metric of the set with its unit; hover it for what "
    "the metric means; its strip chart shows the last updates, newest on the right. The "
    "set 'timeline' runs the first chosen kernel back to back under PM sampling instead "
    "and scrolls the tensor pipe, DRAM and FMA pipe % of each sample. Pause stops "
    "launching (and resumes), Stop ends the job, Snapshot writes the newest result of "
    "each kernel as JSON (the format of tclens profile --json). When the tensor pipe is "
    "below 1% on a kernel whose inputs are not FP32, 'Why are the tensor cores idle?' "
    "checks input type, MMA instructions, multiples of 16, alignment and the size, and "
    "whether the kernel's SASS holds tensor-core instructions (HMMA, HGMMA). The "
    "'Instruction mix' section shows the first chosen kernel's SASS counts, read from "
    "this binary when it was built, for this GPU (sm_90a without one). Profiling needs a "
    "GPU whose counters this user may read. Until something is profiled here, the open "
    "recording's profiles and timeline of the chosen kernels are shown.";

ProfilePanel::ProfilePanel()
    : Panel("profile", "Profile", kProfilePanelHelp), kernels_(kernels::all_kernels()) {
    const auto it = std::find_if(
        kernels_.begin(), kernels_.end(),
        [](const kernels::KernelDescriptor& k) { return k.id == kDefaultProfiledKernel; });
    chosen_ = {it == kernels_.end() ? 0 : int(it - kernels_.begin())};
}

const std::string& ProfilePanel::first_chosen() const {
    return kernels_[size_t(chosen_.front())].id;
}

std::vector<std::string> ProfilePanel::chosen_ids() const {
    std::vector<std::string> ids;
    for (const int index : chosen_) ids.push_back(kernels_[size_t(index)].id);
    return ids;
}

const std::string& ProfilePanel::timeline_kernel() const {
    static const std::string none;
    if (!shown_) return none;
    if (shown_->timeline) return shown_->timeline->kernel_id;
    return shown_->request.kernel_ids.empty() ? none : shown_->request.kernel_ids.front();
}

const KernelLive* ProfilePanel::focused() const {
    if (!shown_) return nullptr;
    if (const KernelLive* kernel = shown_->find(focus_); kernel && kernel->latest) return kernel;
    for (const KernelLive& kernel : shown_->kernels) {
        if (kernel.latest) return &kernel;
    }
    return nullptr;
}

std::string ProfilePanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "kernel") {
        std::vector<int> chosen;
        for (const std::string& id : common::split_list(text)) {
            const auto it =
                std::find_if(kernels_.begin(), kernels_.end(),
                             [&](const kernels::KernelDescriptor& k) { return k.id == id; });
            if (it == kernels_.end()) {
                return "kernel='" + id + "': valid ids (one, or several joined by commas): " +
                       kernels::kernel_ids_text();
            }
            const int index = int(it - kernels_.begin());
            if (std::find(chosen.begin(), chosen.end(), index) == chosen.end()) {
                chosen.push_back(index);
            }
        }
        chosen_ = chosen;
        return "";
    }
    if (key == "focus") {
        if (kernels::find_kernel(text) == nullptr) {
            return "focus='" + text + "': valid ids: " + kernels::kernel_ids_text();
        }
        focus_ = text;
        rebuild_ = true;
        return "";
    }
    if (key == "yours") {
        if (!text.empty() && text.rfind("yours.", 0) != 0) {
            return "yours='" + text + "': a version of a kernel of yours, e.g. yours.matmul_3.v2";
        }
        yours_ = text;
        yours_seen_.reset();
        return "";
    }
    if (key == "mnk") return size_.apply_setting(text);
    if (key == "set") {
        const auto& sets = profile_panel_sets();
        const auto it = std::find(sets.begin(), sets.end(), text);
        if (it == sets.end()) return "set='" + text + "': allowed: " + sets_text();
        set_ = int(it - sets.begin());
        return "";
    }
    if (key == "live") {
        if (text != "on") return "live='" + text + "': allowed: on";
        live_requested_ = true;  // as if Live is pressed once it can start
        return "";
    }
    return "view 'profile' has no setting '" + std::string(key) +
           "'; settings: kernel, mnk, set, live, focus, yours";
}

void ProfilePanel::refresh(const std::shared_ptr<const LiveProfile>& latest) {
    if (latest == shown_) return;
    shown_ = latest;
    cards_.clear();
    card_charts_.clear();
    timeline_charts_.clear();
    checklist_.clear();
    if (!shown_) return;
    const viz::Palette& palette = theme().palette;
    const size_t capacity = shown_->request.history;
    double tensor_pct = -1;           // of the cards' kernel; unknown
    double timeline_tensor_pct = -1;  // of the timeline's kernel; unknown
    const KernelLive* kernel_shown = focused();
    if (kernel_shown) {
        cards_ = metric_cards(*kernel_shown->latest);
        for (size_t i = 0; i < cards_.size(); ++i) {
            viz::StripChartOptions options;
            options.unit = cards_[i].unit;
            options.fixed_max = cards_[i].unit == "%" ? 100.0 : 0.0;
            options.capacity = capacity;
            options.width = metric_card_chart_width();
            options.plot_height = 36.0f;
            options.category = int(i);
            options.palette = &palette;
            const std::vector<double> none;
            const std::vector<double>& history =
                i < kernel_shown->history.size() ? kernel_shown->history[i] : none;
            // A sparkline only where the value moves: a launch fact's has nothing to show.
            card_charts_.push_back(value_moves(history) ? viz::strip_chart(history, options)
                                                        : viz::DrawList{});
            if (cards_[i].name == kTensorPipeMetric) tensor_pct = cards_[i].value;
        }
    }
    for (size_t i = 0; i < shown_->timeline_metrics.size(); ++i) {
        const std::string& name = shown_->timeline_metrics[i];
        const profiling::MetricInfo* info = info_of(name);
        const std::vector<double> none;
        const std::vector<double>& values =
            i < shown_->timeline_history.size() ? shown_->timeline_history[i] : none;
        viz::StripChartOptions options;
        options.title = timeline_chart_title(info ? info->label : name, shown_->recorded);
        options.unit = info ? info->unit : "";
        if (!values.empty()) {
            options.value_text = profiling::format_metric_value(values.back(), options.unit);
        }
        options.fixed_max = options.unit == "%" ? 100.0 : 0.0;
        options.capacity = capacity;
        options.width = kTimelineWidth;
        options.plot_height = 56.0f;
        options.category = int(i);
        options.palette = &palette;
        timeline_charts_.push_back(viz::strip_chart(values, options));
        if (name.find("tensor") != std::string::npos && values.size() >= 10) {
            timeline_tensor_pct = mean_of_last(values, 50);
        }
    }
    // Built here, not only in draw_cards(), so Export never writes the previous update's cards.
    cards_view_ = metric_cards_view(cards_, card_charts_, std::max(1, cards_per_row_), palette);
    timeline_view_ = timeline_view(timeline_charts_, palette);
    // The checklist is of the kernel the tensor % came from: the cards', else the timeline's.
    std::string checked_id;
    if (kernel_shown && tensor_pct >= 0) {
        checked_id = kernel_shown->kernel_id;
    } else if (timeline_tensor_pct >= 0) {
        tensor_pct = timeline_tensor_pct;
        checked_id = timeline_kernel();
    }
    const kernels::KernelDescriptor* kernel = kernels::find_kernel(checked_id);
    if (kernel && tensor_cores_idle(*kernel, tensor_pct)) {
        checklist_ = tensor_idle_checklist(*kernel, shown_->request.problem);
        checklist_kernel_ = kernel->id;
    }
}

// refresh() builds the cards and charts again in the new palette.
void ProfilePanel::theme_changed() { shown_.reset(); }

void ProfilePanel::draw_controls(AppContext& context) {
    draw_kernel_combo(context);
    ImGui::SameLine();
    size_.draw();
    ImGui::SameLine();
    label("set");
    const auto& sets = profile_panel_sets();
    next_item_width(0, widest_text(sets), ItemKind::kCombo);
    const bool open = ImGui::BeginCombo("##set", sets[size_t(set_)].c_str());
    if (!open) note_shown_value(sets[size_t(set_)], ItemKind::kCombo);
    if (open) {
        for (int i = 0; i < int(sets.size()); ++i) {
            if (ImGui::Selectable(sets[size_t(i)].c_str(), i == set_)) set_ = i;
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "default / all: range-profiler metrics per update; timeline: PM "
            "sampling of tensor, DRAM and FMA %% per sample");
    }
    if (!size_.error().empty())
        ImGui::TextColored(imgui_colour(theme().error), "%s", size_.error().c_str());
    for (const int index : chosen_) {
        const kernels::KernelDescriptor& chosen = kernels_[size_t(index)];
        if (!chosen.can_run || !size_.error().empty()) continue;
        const std::string reason = chosen.can_run(size_.problem());
        if (!reason.empty())
            ImGui::TextColored(imgui_colour(theme().note), "%s cannot run this size: %s",
                               chosen.id.c_str(), reason.c_str());
    }
    if (is_timeline_set(set_) && chosen_.size() > 1) {
        ImGui::TextColored(imgui_colour(theme().note), "the timeline samples one kernel: %s",
                           first_chosen().c_str());
    }
    draw_live_controls(context);
    if (!message_.empty()) ImGui::TextUnformatted(message_.c_str());
}

void ProfilePanel::draw_kernel_combo(AppContext& context) {
    label(chosen_.size() > 1 ? "kernels" : "kernel");
    const std::string preview = yours_.empty() ? common::join(chosen_ids(), ", ") : yours_;
    next_item_width(16, preview, ItemKind::kCombo);
    const bool open = ImGui::BeginCombo("##kernel", preview.c_str());
    if (!open) note_shown_value(preview, ItemKind::kCombo);
    if (open) {
        ImGui::TextDisabled("click: this kernel only; Ctrl+click: add or remove");
        for (int i = 0; i < int(kernels_.size()); ++i) {
            const kernels::KernelDescriptor& kernel = kernels_[size_t(i)];
            const auto at = std::find(chosen_.begin(), chosen_.end(), i);
            const bool is_chosen = at != chosen_.end();
            const ImGuiSelectableFlags keep_open = ImGuiSelectableFlags_DontClosePopups;
            if (ImGui::Selectable(kernel.id.c_str(), is_chosen, keep_open)) {
                if (!ImGui::GetIO().KeyCtrl) {
                    chosen_ = {i};
                    ImGui::CloseCurrentPopup();
                } else if (!is_chosen) {
                    chosen_.push_back(i);
                } else if (chosen_.size() > 1) {
                    chosen_.erase(at);  // the last chosen kernel stays
                }
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kernel.title.c_str());
            if (ImGui::IsItemClicked()) yours_.clear();
        }
        const auto yours = context.user_kernels.latest();
        std::vector<std::string> versions =
            yours ? user_profiled_versions(*yours) : std::vector<std::string>{};
        if (const auto recording = context.recording.latest()) {
            for (const std::string& id : recorded_profile_kernels(recording->recording)) {
                const bool listed =
                    std::find(versions.begin(), versions.end(), id) != versions.end();
                if (id.rfind("yours.", 0) == 0 && !listed) versions.push_back(id);
            }
        }
        if (!versions.empty()) {
            ImGui::Separator();
            ImGui::TextDisabled("yours: profiled when built (Kernels panel) or recorded");
            for (const std::string& version : versions) {
                if (ImGui::Selectable(version.c_str(), version == yours_)) {
                    yours_ = version;
                    yours_seen_.reset();
                    ImGui::CloseCurrentPopup();
                }
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Ctrl+click in the list to profile several kernels in turn");
    }
}

void ProfilePanel::draw_live_controls(AppContext& context) {
    JobControls controls;
    controls.run_label = "Live";
    controls.cancel_label = "Stop";
    controls.gpu_use = "profiling";
    if (!size_.error().empty()) controls.blocked = "fix the size first";
    controls.open_ended = true;
    const auto system = context.system.latest();
    const bool running = job_.snapshot().state == JobState::kRunning;
    // Pause, Snapshot and Export sit between Stop and the job's status line.
    const auto between = [&] {
        const bool paused = control_ && control_->paused;
        if (!running) ImGui::BeginDisabled();
        if (ImGui::Button(paused ? "Resume###pause" : "Pause###pause")) control_->paused = !paused;
        if (!running) ImGui::EndDisabled();
        ImGui::SameLine();
        const bool has_result = shown_ && (shown_->has_profile() || shown_->timeline);
        if (!has_result) ImGui::BeginDisabled();
        if (ImGui::Button("Snapshot")) save_snapshot();
        if (!has_result) ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
            ImGui::SetTooltip(
                "write the newest profile of each kernel (or the stopped timeline) as JSON");
        }
        ImGui::SameLine();
        const bool has_charts = !cards_.empty() || !timeline_charts_.empty();
        if (!has_charts) ImGui::BeginDisabled();
        const KernelLive* kernel_shown = focused();
        const std::string& export_kernel =
            kernel_shown ? kernel_shown->kernel_id : timeline_kernel();
        draw_export_buttons(cards_.empty() ? timeline_view_ : cards_view_,
                            has_charts ? file_base(export_kernel, *shown_) : "", message_);
        if (!has_charts) ImGui::EndDisabled();
    };
    const bool clicked = draw_job_controls(controls, job_, system.get(), theme(), between);
    if (clicked || (live_requested_ && job_can_start(controls, job_.snapshot(), system.get()))) {
        live_requested_ = false;
        yours_.clear();  // Live profiles the built-in kernels
        ProfileRequest request;
        request.mode = is_timeline_set(set_) ? ProfileMode::kTimeline : ProfileMode::kMetrics;
        request.kernel_ids = chosen_ids();
        if (request.mode == ProfileMode::kTimeline) request.kernel_ids.resize(1);
        request.problem = size_.problem();
        if (request.mode == ProfileMode::kMetrics) {
            request.metric_set = profile_panel_sets()[size_t(set_)];
        }
        if (request.mode == ProfileMode::kTimeline) request.history = 600;
        control_ = std::make_shared<LiveControl>();
        job_ = request_live_profile(context, std::move(request), control_);
    }
}

void ProfilePanel::draw_status(AppContext& context) {
    (void)context;
    if (!shown_) {
        ImGui::TextWrapped(
            "Nothing profiled yet. Choose one kernel or more (Ctrl+click in the "
            "list), a size and a set, then press Live: each kernel is verified "
            "first, then its metrics update several times a second.");
        if (recording_seen_) {
            const std::string ids =
                common::join(recorded_profile_kernels(recording_seen_->recording), ", ");
            ImGui::TextWrapped("The open recording has no profile of %s; it has: %s.",
                               common::join(chosen_ids(), ", ").c_str(),
                               ids.empty() ? "none" : ids.c_str());
        }
        return;
    }
    const LiveProfile& live = *shown_;
    ImGui::Text("%s %s%s%s", common::join(live.request.kernel_ids, ", ").c_str(),
                kernels::problem_text(live.request.problem).c_str(),
                live.device.empty() ? "" : " on ", live.device.c_str());
    ImGui::SameLine();
    if (live.paused) {
        ImGui::TextColored(imgui_colour(theme().note), "paused");
    } else if (live.running) {
        ImGui::TextColored(imgui_colour(theme().ok), "live: %.1f updates/s", live.updates_per_s);
    } else if (shown_ == yours_profile_ && !yours_recorded_) {
        ImGui::TextDisabled("profiled in the worker when this version was built");
    } else if (shown_ == yours_profile_) {
        ImGui::TextDisabled("from %s", yours_recording_seen_->path.c_str());
    } else if (shown_ == recorded_) {
        ImGui::TextDisabled("from %s", recording_seen_->path.c_str());
    } else {
        ImGui::TextDisabled("stopped after %llu updates", (unsigned long long)live.updates);
    }
    if (!live.error.empty())
        ImGui::TextColored(imgui_colour(theme().error), "%s", live.error.c_str());
    if (live.kernels.size() > 1) {
        for (const KernelLive& kernel : live.kernels) {
            if (!kernel.error.empty() && live.error.find(kernel.error) == std::string::npos) {
                ImGui::TextColored(imgui_colour(theme().error), "%s: %s", kernel.kernel_id.c_str(),
                                   kernel.error.c_str());
            }
        }
    }
    if (const KernelLive* kernel = focused()) {
        const profiling::KernelProfile& p = *kernel->latest;
        ImGui::TextDisabled("%s: %zu passes, %.1f ms per update%s", kernel->kernel_id.c_str(),
                            p.passes, p.profile_ms, p.reused_session ? " (session reused)" : "");
        for (const profiling::UnavailableMetric& missing : p.unavailable) {
            ImGui::TextDisabled("not on this GPU: %s (%s)", missing.name.c_str(),
                                missing.reason.c_str());
        }
    }
}

// With several kernels profiled: one row per metric of the set, one column per kernel with its
// newest value; "cards of" picks the kernel the cards below show.
void ProfilePanel::draw_comparison() {
    if (!shown_) return;
    std::vector<const KernelLive*> profiled;
    for (const KernelLive& kernel : shown_->kernels) {
        if (kernel.latest && kernel.latest->ok()) profiled.push_back(&kernel);
    }
    if (profiled.size() < 2) return;
    ImGui::Separator();
    const KernelLive* kernel_shown = focused();
    label("cards of");
    for (const KernelLive* kernel : profiled) {
        if (ImGui::RadioButton(kernel->kernel_id.c_str(), kernel == kernel_shown)) {
            focus_ = kernel->kernel_id;
            rebuild_ = true;  // cards of the newly focused kernel from the next frame
        }
        ImGui::SameLine();
    }
    ImGui::NewLine();
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("comparison", int(profiled.size()) + 1, flags)) return;
    ImGui::TableSetupColumn("metric");
    for (const KernelLive* kernel : profiled) ImGui::TableSetupColumn(kernel->kernel_id.c_str());
    ImGui::TableHeadersRow();
    for (const profiling::MetricValue& metric : profiled.front()->latest->metrics) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(metric.label.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", metric.name.c_str());
        for (const KernelLive* kernel : profiled) {
            ImGui::TableNextColumn();
            const profiling::MetricValue* value = kernel->latest->find(metric.name);
            if (value == nullptr) {
                ImGui::TextDisabled("-");
            } else {
                ImGui::TextUnformatted(
                    profiling::format_metric_value(value->value, value->unit).c_str());
            }
        }
    }
    ImGui::EndTable();
}

// Cards and charts are painted from draw records (profile_results_view.h), the same ones the
// Export buttons write.
void ProfilePanel::draw_cards() {
    if (cards_.empty()) return;
    const float avail = ImGui::GetContentRegionAvail().x;
    const int per_row = std::max(1, int(avail / ((kMetricCardWidth + 8.0f) * ui_zoom())));
    if (per_row != cards_per_row_) {
        cards_view_ = metric_cards_view(cards_, card_charts_, per_row, theme().palette);
        cards_per_row_ = per_row;
    }
    const int hovered = paint_draw_list(cards_view_, 1.0f);
    if (hovered >= 0 && hovered < int(cards_.size())) {
        const MetricCard& card = cards_[size_t(hovered)];
        ImGui::SetTooltip("%s\n%s%s", card.name.c_str(),
                          card.meaning.empty() ? "(not in the catalogue)" : card.meaning.c_str(),
                          card.unit.empty() ? "" : ("\nunit: " + card.unit).c_str());
    }
}

void ProfilePanel::draw_timeline() {
    if (timeline_charts_.empty()) return;
    ImGui::Text("PM sampling: %llu samples, newest on the right",
                (unsigned long long)shown_->samples);
    paint_draw_list(timeline_view_, 1.0f);
    if (shown_->timeline && shown_->timeline->ok()) {
        const profiling::KernelTimeline& t = *shown_->timeline;
        ImGui::TextDisabled("%llu launches, sampling overhead %.1f%%, %llu lost, %llu dropped",
                            (unsigned long long)t.launches, t.overhead_pct(),
                            (unsigned long long)t.lost, (unsigned long long)t.dropped);
    }
}

void ProfilePanel::draw_plot_alone(AppContext& context) {
    if (!shown_) {
        draw_status(context);
        return;
    }
    if (timeline_charts_.empty()) {
        draw_cards();
        return;
    }
    const LiveProfile& live = *shown_;
    ImGui::TextWrapped("%s %s%s%s: PM sampling, %llu samples, newest on the right",
                       common::join(live.request.kernel_ids, ", ").c_str(),
                       kernels::problem_text(live.request.problem).c_str(),
                       live.device.empty() ? "" : " on ", live.device.c_str(),
                       (unsigned long long)shown_->samples);
    paint_draw_list(timeline_view_, fit_zoom(timeline_view_, kPlotFitLowest, kPlotFitHighest));
}

void ProfilePanel::draw_checklist() {
    if (checklist_.empty()) return;
    ImGui::Separator();
    ImGui::TextColored(imgui_colour(theme().note), "Why are the tensor cores idle?");
    ImGui::TextDisabled("tensor pipe below %.0f%% on a kernel whose inputs are not FP32",
                        kTensorIdlePct);
    for (const ChecklistLine& line : checklist_) {
        ImGui::TextColored(imgui_colour(line.passed ? theme().ok : theme().error), "%s",
                           line.passed ? "ok  " : "FAIL");
        ImGui::SameLine();
        ImGui::TextUnformatted(line.check.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("- %s", line.detail.c_str());
    }
}

void ProfilePanel::save_snapshot() {
    if (!shown_) return;
    std::vector<std::string> written;
    // Writes one file; false (message_ says why) when it failed.
    const auto write = [&](const std::string& path, const nlohmann::json& json) {
        const std::string error = common::write_bytes_atomically(path, json.dump(2) + "\n");
        if (!error.empty()) message_ = error;
        if (error.empty()) written.push_back(path);
        return error.empty();
    };
    for (const KernelLive& kernel : shown_->kernels) {
        if (!kernel.latest) continue;
        const std::string path = file_base(kernel.kernel_id, *shown_) + ".json";
        if (!write(path, profiling::to_json(*kernel.latest))) return;
    }
    if (written.empty() && shown_->timeline) {
        const std::string path = file_base(timeline_kernel(), *shown_) + "_timeline.json";
        if (!write(path, profiling::to_json(*shown_->timeline))) return;
    }
    message_ = "wrote " + common::join(written, ", ");
}

std::shared_ptr<const LiveProfile> ProfilePanel::yours_shown(AppContext& context) {
    const auto yours = context.user_kernels.latest();
    const auto recording = context.recording.latest();
    if (yours != yours_seen_ || recording != yours_recording_seen_ || !yours_profile_ ||
        yours_profile_->request.kernel_ids.front() != yours_) {
        yours_seen_ = yours;
        yours_recording_seen_ = recording;
        yours_profile_ = yours ? user_version_profile(*yours, yours_) : nullptr;
        yours_recorded_ = !yours_profile_ && recording;
        if (yours_recorded_) yours_profile_ = recorded_profile(recording->recording, {yours_});
    }
    return yours_profile_;
}

ShownMix ProfilePanel::shown_mix(AppContext& context, const std::string& kernel_id,
                                 bool live) const {
    if (!yours_.empty() && kernel_id == yours_ && yours_seen_ && !yours_recorded_) {
        return user_version_mix(*yours_seen_, kernel_id);
    }
    // Recorded results show the mix their recording carries (made on its GPU); live ones the
    // census of the worker's build for its GPU (this build's for a worker that sends none).
    const auto recording = live ? nullptr : context.recording.latest();
    const auto hello = context.worker_hello.latest();
    const auto system = context.system.latest();
    return shown_instruction_mix(recording ? &recording->recording : nullptr, hello.get(),
                                 kernel_id,
                                 system ? worker::mix_sm(*system) : kernels::kDefaultMixSm);
}

std::shared_ptr<const LiveProfile> ProfilePanel::recorded(AppContext& context) {
    const auto recording = context.recording.latest();
    const std::vector<std::string> kernels = chosen_ids();
    if (recording != recording_seen_ || kernels != recorded_kernels_) {
        recording_seen_ = recording;
        recorded_kernels_ = kernels;
        recorded_ = recording ? recorded_profile(recording->recording, kernels) : nullptr;
    }
    return recorded_;
}

void ProfilePanel::draw_contents(AppContext& context) {
    if (rebuild_) shown_.reset();  // build again
    rebuild_ = false;
    const std::shared_ptr<const LiveProfile> live = context.live_profile.latest();
    const std::shared_ptr<const LiveProfile> yours =
        yours_.empty() ? nullptr : yours_shown(context);
    refresh(yours ? yours : live ? live : recorded(context));
    if (controls_folded()) {
        draw_plot_alone(context);
        return;
    }
    draw_controls(context);
    ImGui::Separator();
    ImGui::BeginChild("results", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    draw_status(context);
    draw_checklist();
    const bool live_shown = live && !yours;
    if (!checklist_.empty()) {
        draw_sass_check(shown_mix(context, checklist_kernel_, live_shown), theme());
    }
    draw_instruction_mix(shown_mix(context, yours ? yours_ : first_chosen(), live_shown));
    if (!yours_.empty() && !yours) {
        ImGui::TextColored(imgui_colour(theme().note), "%s has no profile (yet)", yours_.c_str());
    }
    draw_comparison();
    draw_cards();
    draw_timeline();
    ImGui::EndChild();
}

}  // namespace tclens::gui
