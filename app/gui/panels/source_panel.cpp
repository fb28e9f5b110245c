#include "app/gui/panels/source_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/source_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/views/item_width.h"
#include "common/text.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "profiling/metric_catalogue.h"
#include "profiling/source/shared_access_link.h"

namespace tclens::gui {
namespace {

constexpr const char* kDefaultSourceKernel = "mma_cp_async.f16";
constexpr std::size_t kStallsShown = 5;

std::string count(std::uint64_t value) {
    return profiling::format_metric_value(static_cast<double>(value), "");
}

std::string file_name(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

ImU32 colour(const viz::Rgba& rgba) { return IM_COL32(rgba.r, rgba.g, rgba.b, rgba.a); }

// A table cell holding `value`, its background the heat of value against `max` (none for 0).
void heat_cell(const Theme& theme, std::uint64_t value, std::uint64_t max) {
    if (const auto fill = heat_colour(theme.banks, heat_fraction(value, max))) {
        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, colour(*fill));
    }
    if (value > 0) ImGui::TextUnformatted(count(value).c_str());
}

// "ptx.cuh:39 <- 08_mma_cp_async.cu:296 <- ...", innermost first.
std::string frames_text(const profiling::InstructionProfile& instruction) {
    const std::string text =
        common::join(instruction.frames, " <- ", [](const profiling::SourceLocation& frame) {
            return file_name(frame.file) + ":" + std::to_string(frame.line);
        });
    return text.empty() ? "no line info" : text;
}

}  // namespace

void SourcePanel::refresh_snapshot(const std::shared_ptr<const profiling::SourceProfile>& profile) {
    const SourceChoices choices{order_, file_, place_, instruction_};
    if (profile == snapshot_.profile && choices == snapshot_.choices) return;
    snapshot_ = source_snapshot(profile, choices, kStallsShown);
}

// The Help menu's text of the panel.
constexpr const char* kSourcePanelHelp =
    "Which SASS instruction and which CUDA line the warps wait on. Profile on GPU verifies "
    "the kernel, then samples where its warps are and why they stall (CUPTI PC sampling), "
    "counts per instruction how often it ran and its shared-memory wavefronts and bank "
    "conflicts (CUPTI SASS metrics), and checks those counts against the kernel's totals; "
    "without a GPU, the open recording's source profiles are shown. At the top, the "
    "kernel's stall reasons with what each means for a GEMM. Below, the CUDA source and "
    "the SASS side by side: heat columns colour by PC samples or bank conflicts; click a "
    "line to select its instructions, or an instruction to find its line (inlined helpers "
    "count at their own line in their own file; pick the file above). Order the SASS by "
    "address or hottest first. A shared-memory instruction with bank conflicts shows the "
    "GPU's wavefronts per instruction beside the bank model of the access it executes, "
    "and Open in Banks shows that access's pattern and swizzle.";

SourcePanel::SourcePanel()
    : Panel("source", "Source", kSourcePanelHelp), kernels_(kernels::all_kernels()) {
    const auto it = std::find_if(
        kernels_.begin(), kernels_.end(),
        [](const kernels::KernelDescriptor& k) { return k.id == kDefaultSourceKernel; });
    kernel_ = it == kernels_.end() ? 0 : static_cast<int>(it - kernels_.begin());
}

std::string SourcePanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "kernel") {
        const auto it =
            std::find_if(kernels_.begin(), kernels_.end(),
                         [&](const kernels::KernelDescriptor& k) { return k.id == text; });
        if (it == kernels_.end()) {
            return "kernel='" + text + "': allowed: " + kernels::kernel_ids_text();
        }
        kernel_ = static_cast<int>(it - kernels_.begin());
        yours_ref_.clear();
        snapshot_.profile.reset();
        return "";
    }
    if (key == "yours") {
        if (const std::string error = check_user_kernel_ref(text); !error.empty())
            return "yours='" + text + "': " + error;
        choose_yours(text);
        return "";
    }
    if (key == "mnk") return size_.apply_setting(text);
    if (key == "order") {
        const auto order = parse_sass_order(text);
        if (!order) return "order='" + text + "': allowed: address, hottest";
        order_ = *order;
        snapshot_.profile.reset();
        return "";
    }
    if (key == "heat") {
        if (text != "samples" && text != "conflicts") {
            return "heat='" + text + "': allowed: samples, conflicts";
        }
        heat_ = text == "samples" ? HeatColumn::kSamples : HeatColumn::kConflicts;
        return "";
    }
    if (key == "file") {
        if (text.empty()) return "file='': give a path or its end, e.g. 08_mma_cp_async.cu";
        pending_file_ = text;
        snapshot_.profile.reset();
        return "";
    }
    if (key == "line" || key == "pc") {
        char* end = nullptr;
        const unsigned long long number = std::strtoull(text.c_str(), &end, key == "pc" ? 16 : 10);
        if (text.empty() || end == nullptr || *end != '\0' || (key == "line" && number < 1) ||
            number > 0xffffffffull) {
            return std::string(key) + "='" + text + "': allowed: " +
                   (key == "pc" ? "a hex offset, e.g. 0x1a0" : "a line number from 1");
        }
        if (key == "pc") {
            pending_pc_ = number;
            has_pending_pc_ = true;
        } else {
            pending_line_ = static_cast<int>(number);
        }
        snapshot_.profile.reset();
        return "";
    }
    if (key == "run") {
        if (text != "on") return "run='" + text + "': allowed: on";
        run_requested_ = true;
        return "";
    }
    return "view 'source' has no setting '" + std::string(key) +
           "'; settings: kernel, mnk, order, heat, file, line, pc, run, yours";
}

std::string SourcePanel::chosen_id() const {
    return yours_ref_.empty() ? kernels_[static_cast<std::size_t>(kernel_)].id
                              : user_source_id(yours_ref_);
}

void SourcePanel::choose_yours(const std::string& ref) {
    yours_ref_ = ref;
    snapshot_.profile.reset();
}

std::shared_ptr<const profiling::SourceProfile> SourcePanel::shown(AppContext& context) {
    const std::string kernel = chosen_id();
    const auto live = context.source_profile.latest();
    if (live && live->kernel_id == kernel) return live;
    const auto recording = context.recording.latest();
    // The open recording's source profiles are read on the job runner: the first use parses them.
    if (!recording || !bulk_read_.ready(context, recording->recording)) return nullptr;
    const profiling::SourceProfile* recorded = recorded_source(recording->recording, kernel);
    if (recorded == nullptr) return nullptr;
    // Shares ownership with the recording snapshot, so it lives while shown.
    return std::shared_ptr<const profiling::SourceProfile>(recording, recorded);
}

void SourcePanel::select_instruction(const profiling::SourceProfile& profile, std::size_t index) {
    instruction_ = index;
    place_ = place_of_instruction(profile, index, file_);
    if (place_.file >= 0) file_ = place_.file;
    scroll_source_ = true;
}

void SourcePanel::select_place(const profiling::SourceProfile& profile, SourcePlace place) {
    place_ = place;
    const std::vector<std::size_t> instructions = instructions_of_place(profile, place);
    instruction_ = instructions.empty() ? kNone : instructions.front();
    scroll_sass_ = instruction_ != kNone;
}

void SourcePanel::apply_pending_selection(const profiling::SourceProfile& profile) {
    file_ = 0;
    instruction_ = kNone;
    place_ = {};
    if (!pending_file_.empty()) {
        const int file = find_source_file(profile, pending_file_);
        if (file >= 0) file_ = file;
    }
    if (pending_line_ > 0 && file_ < static_cast<int>(profile.files.size())) {
        select_place(profile, {file_, pending_line_});
    }
    if (has_pending_pc_) {
        for (std::size_t i = 0; i < profile.instructions.size(); ++i) {
            if (profile.instructions[i].function == profile.instructions.front().function &&
                profile.instructions[i].pc == pending_pc_) {
                select_instruction(profile, i);
                scroll_sass_ = true;
                break;
            }
        }
    }
}

void SourcePanel::draw_contents(AppContext& context) {
    draw_controls(context);
    const auto profile = shown(context);
    if (!profile) {
        draw_missing(context);
        return;
    }
    if (profile != snapshot_.profile) {
        apply_pending_selection(*profile);
        refresh_snapshot(profile);
    }
    const bool live = profile == context.source_profile.latest();
    const auto recording = context.recording.latest();
    ImGui::Text(
        "%s %s on %s - %s", profile->kernel_id.c_str(),
        kernels::problem_text(profile->problem).c_str(), profile->device.c_str(),
        live ? "profiled in the worker"
             : ("from " + (recording ? recording->path : std::string("a recording"))).c_str());
    if (!profile->ok()) {
        ImGui::TextColored(imgui_colour(theme().note), "%s", profile->error.message.c_str());
        return;
    }
    ImGui::TextDisabled("%s", snapshot_.summary.c_str());
    for (const std::string& note : snapshot_.notes) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().note));
        ImGui::TextWrapped("%s", note.c_str());
        ImGui::PopStyleColor();
    }
    draw_stalls(*profile);
    draw_view_options(*profile);
    refresh_snapshot(profile);
    const float detail = ImGui::GetTextLineHeightWithSpacing() * 4.5f;
    const float height = std::max(120.0f, ImGui::GetContentRegionAvail().y - detail);
    const float half = ImGui::GetContentRegionAvail().x * 0.5f - 4.0f;
    ImGui::BeginChild("source", ImVec2(half, height), true);
    draw_source(*profile);
    ImGui::EndChild();
    refresh_snapshot(profile);  // a click on a line selects its instructions
    ImGui::SameLine();
    ImGui::BeginChild("sass", ImVec2(0, height), true);
    draw_sass(context, *profile);
    ImGui::EndChild();
    refresh_snapshot(profile);
    draw_selection(context, *profile);
}

// The registry's kernels, then the kernels of yours opened in the GUI (Kernels panel).
void SourcePanel::draw_kernel_combo(AppContext& context) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("kernel");
    ImGui::SameLine();
    next_item_width(14, chosen_id(), ItemKind::kCombo);
    const bool open = ImGui::BeginCombo("##kernel", chosen_id().c_str());
    if (!open) {
        note_shown_value(chosen_id(), ItemKind::kCombo);
        return;
    }
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
        const bool chosen = yours_ref_.empty() && static_cast<int>(i) == kernel_;
        if (ImGui::Selectable(kernels_[i].id.c_str(), chosen)) {
            kernel_ = static_cast<int>(i);
            yours_ref_.clear();
            snapshot_.profile.reset();
        }
    }
    const auto yours = context.user_kernels.latest();
    if (yours && !yours->kernels.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("yours: built with line info and profiled in the worker");
        for (const UserKernel& kernel : yours->kernels) {
            const std::string label = user_source_id(kernel.ref) + "##" + kernel.ref;
            if (ImGui::Selectable(label.c_str(), kernel.ref == yours_ref_))
                choose_yours(kernel.ref);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kernel.ref.c_str());
        }
    }
    ImGui::EndCombo();
}

void SourcePanel::draw_controls(AppContext& context) {
    draw_kernel_combo(context);
    ImGui::SameLine();
    size_.draw();
    ImGui::SameLine();
    JobControls controls;
    controls.run_label = "Profile on GPU";
    controls.run_tooltip =
        "verify the kernel, then sample its warps, count per instruction and read its totals";
    controls.gpu_use = "a source profile";
    controls.blocked = size_.error();
    controls.worker_gpu = !yours_ref_.empty();
    const auto system = context.system.latest();
    const bool clicked = draw_job_controls(controls, job_, system.get(), theme());
    if (clicked || (run_requested_ && job_can_start(controls, job_.snapshot(), system.get()))) {
        run_requested_ = false;
        job_ = yours_ref_.empty()
                   ? request_source_profile(context, chosen_id(), size_.problem())
                   : request_user_source_profile(context, yours_ref_, size_.problem());
    }
}

void SourcePanel::draw_missing(AppContext& context) const {
    const auto recording = context.recording.latest();
    if (recording && recording->recording.bulk && !recording->recording.bulk->is_read()) {
        ImGui::TextDisabled("%s", bulk_read_.progress().c_str());
        return;
    }
    const std::string kernel = chosen_id();
    ImGui::TextWrapped(
        "No source profile of %s yet. Profile on GPU takes one (verification first, then PC "
        "sampling, per-instruction counts and the kernel's totals; a few seconds).",
        kernel.c_str());
    if (!recording) return;
    const profiling::Recording& r = recording->recording;
    if (!r.sources_missing.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().note));
        ImGui::TextWrapped("The open recording has none: %s.", r.sources_missing.c_str());
        ImGui::PopStyleColor();
    } else {
        const std::string kernels = recorded_source_kernels(r);
        ImGui::TextWrapped("The open recording has source profiles of: %s.",
                           kernels.empty() ? "none" : kernels.c_str());
    }
}

void SourcePanel::draw_stalls(const profiling::SourceProfile& profile) const {
    ImGui::Separator();
    ImGui::TextUnformatted("Why the warps wait (share of PC samples):");
    for (const StallLine& line : snapshot_.stalls) {
        char share[32];
        std::snprintf(share, sizeof share, "%.1f %%", line.share_pct);
        ImGui::ProgressBar(static_cast<float>(line.share_pct / 100.0),
                           ImVec2(ImGui::GetFontSize() * 6, 0), share);
        ImGui::SameLine();
        ImGui::TextUnformatted(line.label.c_str());
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0.0f);  // the meaning wraps at the pane's edge: nothing is cut
        ImGui::TextDisabled("%s", line.meaning.c_str());
        ImGui::PopTextWrapPos();
    }
    if (profile.stalls.empty()) ImGui::TextDisabled("no PC samples");
    ImGui::Separator();
}

void SourcePanel::draw_view_options(const profiling::SourceProfile& profile) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("SASS order");
    ImGui::SameLine();
    for (const SassOrder order : {SassOrder::kAddress, SassOrder::kHottest}) {
        if (ImGui::RadioButton(sass_order_name(order), order_ == order) && order_ != order) {
            order_ = order;
            scroll_sass_ = instruction_ != kNone;
        }
        ImGui::SameLine();
    }
    ImGui::TextUnformatted("  heat");
    ImGui::SameLine();
    if (ImGui::RadioButton("samples", heat_ == HeatColumn::kSamples)) heat_ = HeatColumn::kSamples;
    ImGui::SameLine();
    if (ImGui::RadioButton("conflicts", heat_ == HeatColumn::kConflicts)) {
        heat_ = HeatColumn::kConflicts;
    }
    if (profile.files.empty()) return;
    ImGui::SameLine();
    ImGui::TextUnformatted("  file");
    ImGui::SameLine();
    file_ = std::clamp(file_, 0, static_cast<int>(profile.files.size()) - 1);
    next_item_width(16, file_name(profile.files[static_cast<std::size_t>(file_)].path),
                    ItemKind::kCombo);
    if (ImGui::BeginCombo("##file",
                          file_name(profile.files[static_cast<std::size_t>(file_)].path).c_str())) {
        for (std::size_t i = 0; i < profile.files.size(); ++i) {
            if (ImGui::Selectable(file_name(profile.files[i].path).c_str(),
                                  static_cast<int>(i) == file_)) {
                file_ = static_cast<int>(i);
                if (instruction_ != kNone)
                    place_ = place_of_instruction(profile, instruction_, file_);
                scroll_source_ = true;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", profile.files[i].path.c_str());
        }
        ImGui::EndCombo();
    }
}

void SourcePanel::draw_source(const profiling::SourceProfile& profile) {
    if (profile.files.empty()) {
        ImGui::TextWrapped("No CUDA lines: %s", profile.line_info_missing.empty()
                                                    ? profile.sass_missing.c_str()
                                                    : profile.line_info_missing.c_str());
        return;
    }
    const profiling::SourceFile& file = profile.files[static_cast<std::size_t>(file_)];
    if (!file.absent.empty())
        ImGui::TextColored(imgui_colour(theme().note), "%s: %s", file.path.c_str(),
                           file.absent.c_str());
    // Every line of the text, or, without it, the lines that have instructions.
    int lines = 0;
    for (std::size_t at = 0; at < file.text.size(); ++at) lines += file.text[at] == '\n' ? 1 : 0;
    if (!file.text.empty() && file.text.back() != '\n') ++lines;
    const bool whole_text = lines > 0;
    const std::uint64_t* max = snapshot_.file_max;  // by HeatColumn
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("lines", 5, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("line");
    ImGui::TableSetupColumn(heat_ == HeatColumn::kSamples ? "samples" : "conflicts");
    ImGui::TableSetupColumn(heat_ == HeatColumn::kSamples ? "conflicts" : "samples");
    ImGui::TableSetupColumn("top stall");
    ImGui::TableSetupColumn("CUDA", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const int rows = whole_text ? lines : static_cast<int>(file.lines.size());
    const float row_height = ImGui::GetTextLineHeightWithSpacing();
    if (scroll_source_ && place_.file == file_) {
        int row = place_.line - 1;
        if (!whole_text) {
            row = 0;
            while (row < rows && file.lines[static_cast<std::size_t>(row)].line != place_.line)
                ++row;
        }
        ImGui::SetScrollY(std::max(0.0f, (row - 3) * row_height));
        scroll_source_ = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(rows);
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const int number =
                whole_text ? row + 1 : file.lines[static_cast<std::size_t>(row)].line;
            const auto found =
                std::lower_bound(file.lines.begin(), file.lines.end(), number,
                                 [](const profiling::LineProfile& l, int n) { return l.line < n; });
            const profiling::LineProfile* data =
                found != file.lines.end() && found->line == number ? &*found : nullptr;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const bool selected = place_.file == file_ && place_.line == number;
            char label[32];
            std::snprintf(label, sizeof label, "%d##line", number);
            if (ImGui::Selectable(label, selected, ImGuiSelectableFlags_SpanAllColumns)) {
                select_place(profile, {file_, number});
            }
            ImGui::TableNextColumn();
            const HeatColumn other =
                heat_ == HeatColumn::kSamples ? HeatColumn::kConflicts : HeatColumn::kSamples;
            for (const HeatColumn column : {heat_, other}) {
                if (data) heat_cell(theme(), column_value(*data, column), max[int(column)]);
                ImGui::TableNextColumn();
            }
            if (data && !data->stalls.empty())
                ImGui::TextUnformatted(data->stalls.front().key.c_str());
            ImGui::TableNextColumn();
            const std::string text = whole_text ? profiling::line_of(file.text, number) : "";
            if (data || !whole_text) {
                ImGui::TextUnformatted(text.c_str());
            } else {
                ImGui::TextDisabled("%s", text.c_str());
            }
        }
    }
    ImGui::EndTable();
}

void SourcePanel::draw_sass(AppContext& context, const profiling::SourceProfile& profile) {
    const std::vector<std::size_t>& rows = snapshot_.rows;
    const std::vector<std::size_t>& of_place = snapshot_.of_place;
    const std::uint64_t* max = snapshot_.sass_max;  // by HeatColumn
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("instructions", 7, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("pc");
    ImGui::TableSetupColumn("samples");
    ImGui::TableSetupColumn("top stall");
    ImGui::TableSetupColumn("executed");
    ImGui::TableSetupColumn("wavefronts");
    ImGui::TableSetupColumn("conflicts");
    ImGui::TableSetupColumn("SASS", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const float row_height = ImGui::GetTextLineHeightWithSpacing();
    if (scroll_sass_ && instruction_ != kNone) {
        const auto row = std::find(rows.begin(), rows.end(), instruction_);
        if (row != rows.end()) {
            ImGui::SetScrollY(
                std::max(0.0f, (static_cast<float>(row - rows.begin()) - 3) * row_height));
        }
        scroll_sass_ = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const std::size_t index = rows[static_cast<std::size_t>(row)];
            const profiling::InstructionProfile& instruction = profile.instructions[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const bool on_line =
                std::find(of_place.begin(), of_place.end(), index) != of_place.end();
            char label[32];
            std::snprintf(label, sizeof label, "%04" PRIx64 "##pc%zu", instruction.pc, index);
            if (ImGui::Selectable(
                    label, index == instruction_ || on_line,
                    ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
                select_instruction(profile, index);
                if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
                    if (const auto comparison = compare_with_bank_model(instruction)) {
                        const auto system = context.system.latest();
                        context.panel_links.push_back(
                            banks_link(comparison->access, system && system->has_gpu()));
                    }
                }
            }
            ImGui::TableNextColumn();
            heat_cell(theme(), instruction.samples, max[int(HeatColumn::kSamples)]);
            ImGui::TableNextColumn();
            if (!instruction.stalls.empty())
                ImGui::TextUnformatted(instruction.stalls.front().key.c_str());
            ImGui::TableNextColumn();
            if (instruction.counted) ImGui::TextUnformatted(count(instruction.executed).c_str());
            ImGui::TableNextColumn();
            if (instruction.shared_wavefronts > 0) {
                ImGui::TextUnformatted(count(instruction.shared_wavefronts).c_str());
            }
            ImGui::TableNextColumn();
            heat_cell(theme(), instruction.shared_conflicts, max[int(HeatColumn::kConflicts)]);
            ImGui::TableNextColumn();
            if (instruction.sass.empty()) {
                ImGui::TextDisabled("(no SASS text)");
            } else {
                ImGui::TextUnformatted(instruction.sass.c_str());
            }
        }
    }
    ImGui::EndTable();
}

void SourcePanel::draw_selection(AppContext& context,
                                 const profiling::SourceProfile& profile) const {
    if (instruction_ == kNone || instruction_ >= profile.instructions.size()) {
        ImGui::TextDisabled("Click a CUDA line or a SASS instruction to link the two.");
        return;
    }
    const profiling::InstructionProfile& instruction = profile.instructions[instruction_];
    ImGui::Text("%04" PRIx64 "  %s", instruction.pc,
                instruction.sass.empty() ? "(no SASS text)" : instruction.sass.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", frames_text(instruction).c_str());
    const std::string stalls =
        common::join(instruction.stalls, ", ", [](const profiling::StallSamples& stall) {
            return stall.key + " " + count(stall.samples);
        });
    ImGui::Text("samples: %s%s%s; executed %s; shared wavefronts %s (ideal %s, conflicts %s)",
                count(instruction.samples).c_str(), stalls.empty() ? "" : " = ", stalls.c_str(),
                instruction.counted ? count(instruction.executed).c_str() : "-",
                count(instruction.shared_wavefronts).c_str(),
                count(instruction.shared_ideal()).c_str(),
                count(instruction.shared_conflicts).c_str());
    const std::optional<AccessComparison>& comparison = snapshot_.comparison;
    if (!comparison) {
        if (instruction.shared_conflicts > 0 && instruction.shared_access_candidates.size() > 1) {
            ImGui::TextDisabled("one of %zu declared accesses; its lines do not say which",
                                instruction.shared_access_candidates.size());
        }
        return;
    }
    if (comparison->model_error.empty()) {
        ImGui::Text("%s: %.2f wavefronts per instruction measured here, %.2f in the bank model",
                    comparison->access.c_str(), comparison->measured, comparison->modelled);
    } else {
        ImGui::Text("%s: %.2f wavefronts per instruction measured here; no model: %s",
                    comparison->access.c_str(), comparison->measured,
                    comparison->model_error.c_str());
    }
    ImGui::SameLine();
    const auto system = context.system.latest();
    if (ImGui::SmallButton("Open in Banks")) {
        context.panel_links.push_back(banks_link(comparison->access, system && system->has_gpu()));
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "show %s in the Banks panel: its pattern on the kernel's tile, with the "
            "kernel's swizzle",
            comparison->access.c_str());
    }
}

}  // namespace tclens::gui
