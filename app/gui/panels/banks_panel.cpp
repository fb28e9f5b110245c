#include "app/gui/panels/banks_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "app/gui/jobs/app_context.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/presentation.h"
#include "app/parse_number.h"
#include "common/text.h"
#include "kernels/shared_access.h"

namespace tclens::gui {
namespace {

constexpr const char* kSideNames[] = {"left", "right"};
// What the view shows (setting side=, the "show" combo): shown_side_ + 1 indexes it.
constexpr const char* kShownSides[] = {"both", "left", "right"};
// Offered next to each swizzle input; any spec parse_swizzle accepts can be typed.
constexpr const char* kSwizzlePresets[] = {"none",  "pad:4", "pad:16", "xor",
                                           "tma32", "tma64", "tma128"};
// Rows shorter than one 128-byte bank sweep hide what a swizzle does, so the display tile of
// a pattern is at least that wide (ldmatrix.x4: 16 x 32 -> 16 x 128).
constexpr int kDisplayRowBytes = viz::kBankCount * viz::kBankBytes;

// Whole numbers without decimals: 4 -> "4", 4.03 -> "4.03".
std::string number_text(double value) {
    char text[32];
    const bool whole = std::abs(value - double(std::lround(value))) < 0.005;
    std::snprintf(text, sizeof text, whole ? "%.0f" : "%.2f", value);
    return text;
}

// "cute:3,4,3" -> "cute-3-4-3", "wmma.f16/A.cp.async" -> "wmma.f16-A.cp.async": a swizzle
// spec or pattern name as part of a file name.
std::string file_part(std::string text) {
    for (char& c : text) {
        if (c == ':' || c == ',' || c == '/') c = '-';
    }
    return text;
}

// A label on the left of the next widget, which is then named "##<label>".
}  // namespace

// The Help menu's text of the panel.
constexpr const char* kBanksPanelHelp =
    "How one warp instruction's shared-memory accesses fall on the 32 banks under two "
    "swizzles, side by side. The tile is drawn at its logical shape, one cell per 4-byte "
    "word, coloured by the bank the swizzle puts that word in (the bank row above the "
    "heatmap is the key); the words the highlighted lanes read or write are outlined "
    "and carry the lane number. Each heatmap cell counts the distinct words one phase "
    "asks of one bank: 1 is conflict-free, k costs k wavefronts. Step through the phases "
    "with All / < / > or the Left and Right keys. Hover a bank, a heatmap cell or a word "
    "to light up its relatives. 'Measure on GPU' runs both sides in a probe kernel under "
    "CUPTI and shows 'model N / measured M' per side. Below the built-in patterns the "
    "pattern list offers the kernels' own accesses (KERNEL/ACCESS, e.g. the A-tile "
    "ldmatrix of the XOR rung): the first instance of that instruction on the kernel's "
    "tile, with the kernel's swizzle on the right.";

BanksPanel::BanksPanel()
    : Panel("banks", "Banks", kBanksPanelHelp), patterns_(viz::list_patterns()) {
    sides_[0].spec = "none";
    sides_[1].spec = "xor";
    const auto start = std::find_if(patterns_.begin(), patterns_.end(),
                                    [](const viz::Pattern& p) { return p.name == "ldmatrix.x4"; });
    select_pattern(start == patterns_.end() ? 0 : int(start - patterns_.begin()));
}

void BanksPanel::select_pattern(int index) {
    pattern_ = index;
    access_ = -1;
    phase_ = -1;
    reset_tile();
    rebuild();
}

// The kernel's tile as it is (not widened: that is the shape the kernel uses), and its swizzle
// on the right.
void BanksPanel::select_access(int index) {
    const kernels::KernelAccess& access = kernels::kernel_accesses()[size_t(index)];
    const auto pattern =
        std::find_if(patterns_.begin(), patterns_.end(),
                     [&](const viz::Pattern& p) { return p.name == access.pattern.name; });
    pattern_ = int(pattern - patterns_.begin());
    access_ = index;
    phase_ = -1;
    rows_ = access.tile.rows;
    row_bytes_ = access.tile.row_bytes;
    sides_[1].spec = access.swizzle.spec;
    rebuild();
}

// What the pattern combo shows: the kernel access's name, or the viz pattern's.
const std::string& BanksPanel::shown_name() const {
    if (access_ >= 0) return kernels::kernel_accesses()[size_t(access_)].name;
    return patterns_[size_t(pattern_)].name;
}

// The pattern's default tile, rows widened to kDisplayRowBytes and to what a cute swizzle on
// either side spans (viz::default_tile).
void BanksPanel::reset_tile() {
    viz::Pattern pattern = patterns_[size_t(pattern_)];
    pattern.default_tile.row_bytes = std::max(pattern.default_tile.row_bytes, kDisplayRowBytes);
    viz::Tile tile = pattern.default_tile;
    for (const Side& side : sides_) {
        const auto swizzle = viz::parse_swizzle(side.spec);
        if (!swizzle) continue;
        const viz::Tile wide = viz::default_tile(pattern, *swizzle);
        tile.rows = std::max(tile.rows, wide.rows);
        tile.row_bytes = std::max(tile.row_bytes, wide.row_bytes);
    }
    rows_ = tile.rows;
    row_bytes_ = tile.row_bytes;
}

// Models both sides, attaches the shown measurement, and builds the combined view.
void BanksPanel::rebuild() {
    const viz::Pattern& pattern = patterns_[size_t(pattern_)];
    std::vector<viz::BankView> views;
    phases_ = 0;
    for (Side& side : sides_) {
        side.report.reset();
        const auto swizzle = viz::parse_swizzle(side.spec);
        if (!swizzle) {
            side.error = swizzle.error();
            continue;
        }
        auto model = viz::bank_requests(*swizzle, pattern, viz::Tile{rows_, row_bytes_});
        if (!model) {
            side.error = model.error();
            continue;
        }
        side.error.clear();
        side.report = *model;
        if (measurements_) {
            const BankCaseMeasurement* found = measurements_->find(bank_case(*side.report));
            if (found && found->measured) side.report->measured_wavefronts = found->measured;
        }
        if (!side.report->requests.empty()) {
            phases_ = int(side.report->requests.front().phases.size());
        }
    }
    if (phase_ >= phases_) phase_ = -1;
    viz::BankViewOptions options;
    options.phase = phase_;
    options.palette = &theme().palette;
    options.banks = &theme().banks;
    for (int i = 0; i < int(sides_.size()); ++i) {
        const Side& side = sides_[size_t(i)];
        if (side.report && (shown_side_ < 0 || shown_side_ == i)) {
            views.push_back(viz::bank_view(*side.report, options));
        }
    }
    if (views.size() == 2) {
        view_ = viz::side_by_side(views[0], views[1]);
    } else if (views.size() == 1) {
        view_ = std::move(views[0]);
    } else {
        view_ = viz::BankView{};
    }
    hovered_ = -1;
    for (size_t i = 0; i < sides_.size(); ++i) {
        std::snprintf(spec_buffers_[i].data(), spec_buffers_[i].size(), "%s",
                      sides_[i].spec.c_str());
    }
}

void BanksPanel::theme_changed() { rebuild(); }

// Cycles all -> 0 -> 1 -> ... -> last -> all (delta +1), or back (delta -1).
void BanksPanel::step_phase(int delta) {
    if (phases_ == 0) return;
    const int slots = phases_ + 1;  // slot 0 is "all"
    const int slot = ((phase_ + 1 + delta) % slots + slots) % slots;
    phase_ = slot - 1;
    rebuild();
}

std::string BanksPanel::set_swizzle(int side, const std::string& spec) {
    const auto swizzle = viz::parse_swizzle(spec);
    if (!swizzle) return std::string(kSideNames[side]) + "='" + spec + "': " + swizzle.error();
    sides_[size_t(side)].spec = swizzle->spec;
    rebuild();
    return "";
}

std::string BanksPanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "pattern" && kernels::is_kernel_access_name(text)) {
        const auto access = kernels::parse_kernel_access(text);
        if (!access) return "pattern='" + text + "': " + access.error();
        const auto& accesses = kernels::kernel_accesses();
        const auto it =
            std::find_if(accesses.begin(), accesses.end(),
                         [&](const kernels::KernelAccess& a) { return a.name == text; });
        select_access(int(it - accesses.begin()));
        return "";
    }
    if (key == "pattern") {
        const auto pattern = viz::parse_pattern(text);
        if (!pattern) return "pattern='" + text + "': " + pattern.error();
        const auto it = std::find_if(patterns_.begin(), patterns_.end(),
                                     [&](const viz::Pattern& p) { return p.name == text; });
        select_pattern(int(it - patterns_.begin()));
        return "";
    }
    if (key == "left" || key == "right") return set_swizzle(key == "left" ? 0 : 1, text);
    if (key == "rows" || key == "row_bytes") {
        const auto number = parse_number<int>(text);
        if (!number || *number < 1 || *number > viz::kMaxTileBytes) {
            return std::string(key) + "='" + text + "': allowed: 1.." +
                   std::to_string(viz::kMaxTileBytes);
        }
        (key == "rows" ? rows_ : row_bytes_) = *number;
        rebuild();
        return "";
    }
    if (key == "phase") {
        const auto phase = parse_number<int>(text);
        if (!phase || *phase < -1 || *phase >= phases_) {
            return "phase='" + text + "': allowed: -1 (all)" +
                   (phases_ > 0 ? " or 0.." + std::to_string(phases_ - 1) : std::string()) +
                   " for " + shown_name();
        }
        phase_ = *phase;
        rebuild();
        return "";
    }
    if (key == "side") {
        const auto it = std::find_if(std::begin(kShownSides), std::end(kShownSides),
                                     [&](const char* name) { return text == name; });
        if (it == std::end(kShownSides)) return "side='" + text + "': allowed: both, left, right";
        shown_side_ = int(it - std::begin(kShownSides)) - 1;
        rebuild();
        return "";
    }
    if (key == "zoom") return zoom_.apply_setting(text);
    if (key == "measure") {
        if (text != "on") return "measure='" + text + "': allowed: on";
        measure_requested_ = true;  // as if "Measure on GPU" is pressed once a GPU is known
        return "";
    }
    return "view 'banks' has no setting '" + std::string(key) +
           "'; settings: pattern, left, right, side, rows, row_bytes, phase, zoom, measure";
}

void BanksPanel::draw_swizzle_input(int side) {
    ImGui::PushID(side);
    label(kSideNames[side]);
    char* buffer = spec_buffers_[size_t(side)].data();
    next_item_width(7, buffer);
    if (ImGui::InputText("##swizzle", buffer, spec_buffers_[size_t(side)].size())) {
        sides_[size_t(side)].spec = buffer;
        rebuild();
    }
    note_shown_value(buffer, ItemKind::kField);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("none, pad:N, xor, cute:B,M,S, tma32, tma64, tma128");
    }
    ImGui::SameLine(0, 2);
    if (ImGui::BeginCombo("##presets", nullptr, ImGuiComboFlags_NoPreview)) {
        for (const char* preset : kSwizzlePresets) {
            if (ImGui::Selectable(preset, sides_[size_t(side)].spec == preset)) {
                set_swizzle(side, preset);
            }
        }
        ImGui::EndCombo();
    }
    ImGui::PopID();
}

void BanksPanel::draw_phase_stepper() {
    if (phases_ == 0) ImGui::BeginDisabled();
    if (ImGui::Button("All")) {
        phase_ = -1;
        rebuild();
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) step_phase(-1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) step_phase(+1);
    if (phases_ == 0) ImGui::EndDisabled();
    ImGui::SameLine();
    if (phases_ == 0) {
        ImGui::TextUnformatted("no model");
    } else if (phase_ < 0) {
        ImGui::Text("all %s", common::count_text(phases_, "phase").c_str());
    } else {
        ImGui::Text("phase %d of %d", phase_, phases_);
    }
}

void BanksPanel::draw_export_and_measure(AppContext& context) {
    const bool has_view = !view_.draw.rects.empty();
    if (!has_view) ImGui::BeginDisabled();
    const std::string base = "banks_" + file_part(shown_name()) + "_" + file_part(sides_[0].spec) +
                             "_vs_" + file_part(sides_[1].spec);
    draw_export_buttons(view_.draw, base, export_message_);
    if (!has_view) ImGui::EndDisabled();

    if (!export_message_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_message_.c_str());
    }
    JobControls controls;
    controls.run_label = "Measure on GPU";
    controls.run_tooltip = "run each side's access on the GPU and count its wavefronts";
    controls.gpu_use = "the bank probe";
    if (!has_view) controls.blocked = "no valid model to measure";
    const auto system = context.system.latest();
    const bool clicked = draw_job_controls(controls, job_, system.get(), theme());
    if (clicked || (measure_requested_ && job_can_start(controls, job_.snapshot(), system.get()))) {
        measure_requested_ = false;
        std::vector<viz::BankReport> reports;
        for (const Side& side : sides_) {
            if (side.report) reports.push_back(*side.report);
        }
        job_ = request_bank_measurement(context, std::move(reports));
    }
}

// The viz patterns, then the kernels' accesses.
void BanksPanel::draw_pattern_combo() {
    label("pattern");
    const char* shown = shown_name().c_str();
    next_item_width(10, shown, ItemKind::kCombo);
    const bool open = ImGui::BeginCombo("##pattern", shown, ImGuiComboFlags_HeightLarge);
    if (!open) {
        note_shown_value(shown, ItemKind::kCombo);
        return;
    }
    for (int i = 0; i < int(patterns_.size()); ++i) {
        const bool selected = access_ < 0 && i == pattern_;
        if (ImGui::Selectable(patterns_[size_t(i)].name.c_str(), selected) && !selected) {
            select_pattern(i);
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", patterns_[size_t(i)].summary.c_str());
        }
    }
    ImGui::Separator();
    ImGui::TextDisabled("kernel accesses");
    const auto& accesses = kernels::kernel_accesses();
    for (int i = 0; i < int(accesses.size()); ++i) {
        const kernels::KernelAccess& access = accesses[size_t(i)];
        if (ImGui::Selectable(access.name.c_str(), i == access_) && i != access_) select_access(i);
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s: %s on the %d x %d-byte %c tile, swizzle %s",
                              access.kernel->title.c_str(), access.pattern.name.c_str(),
                              access.tile.rows, access.tile.row_bytes, access.access->operand,
                              access.swizzle.spec.c_str());
        }
    }
    ImGui::EndCombo();
}

void BanksPanel::draw_controls(AppContext& context) {
    draw_pattern_combo();
    ImGui::SameLine(0, 16);
    label("rows");
    // Room for four digits at least, so the field keeps its width as the number changes.
    next_item_width(0, std::to_string(std::max(rows_, 9999)), ItemKind::kStepper);
    if (ImGui::InputInt("##rows", &rows_, 1, 8)) rebuild();
    note_shown_value(std::to_string(rows_), ItemKind::kStepper);
    ImGui::SameLine(0, 16);
    label("row bytes");
    next_item_width(0, std::to_string(std::max(row_bytes_, 9999)), ItemKind::kStepper);
    if (ImGui::InputInt("##row bytes", &row_bytes_, 16, 128)) rebuild();
    note_shown_value(std::to_string(row_bytes_), ItemKind::kStepper);
    ImGui::SameLine(0, 16);
    label("zoom");
    zoom_.draw_control();

    draw_swizzle_input(0);
    ImGui::SameLine(0, 16);
    draw_swizzle_input(1);
    ImGui::SameLine(0, 16);
    label("show");
    next_item_width(0, widest_text(kShownSides), ItemKind::kCombo);
    int shown = shown_side_ + 1;
    if (ImGui::Combo("##show", &shown, kShownSides, IM_ARRAYSIZE(kShownSides))) {
        shown_side_ = shown - 1;
        rebuild();
    }
    note_shown_value(kShownSides[shown_side_ + 1], ItemKind::kCombo);
    ImGui::SameLine(0, 24);
    draw_phase_stepper();
    draw_export_and_measure(context);
}

// For a kernel access: what it is and the kernel's own tile and swizzle (the view's title names
// the viz pattern).
void BanksPanel::draw_access_line() const {
    if (access_ < 0) return;
    const kernels::KernelAccess& access = kernels::kernel_accesses()[size_t(access_)];
    ImGui::TextDisabled("%s: %s, rung %d; %s on its %c tile of %d x %d bytes, kernel swizzle %s",
                        access.name.c_str(), access.kernel->title.c_str(), access.kernel->rung,
                        access.pattern.name.c_str(), access.access->operand, access.tile.rows,
                        access.tile.row_bytes, access.swizzle.spec.c_str());
}

// Per side: the model's error in red, or the GPU's answer next to the model's.
void BanksPanel::draw_side_lines() const {
    for (size_t i = 0; i < sides_.size(); ++i) {
        const Side& side = sides_[i];
        if (!side.report) {
            ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().error));
            ImGui::TextWrapped("%s (%s): %s", kSideNames[i], side.spec.c_str(), side.error.c_str());
            ImGui::PopStyleColor();
            continue;
        }
        const BankCaseMeasurement* found =
            measurements_ ? measurements_->find(bank_case(*side.report)) : nullptr;
        if (!found) continue;
        const std::string model = "model " + number_text(found->model);
        if (found->measured) {
            const bool match = std::abs(*found->measured - found->model) < 0.005;
            ImGui::TextColored(
                imgui_colour(match ? theme().ok : theme().error), "%s (%s): %s / measured %s%s",
                kSideNames[i], side.spec.c_str(), model.c_str(),
                number_text(*found->measured).c_str(),
                measurements_->device.empty() ? "" : (" on " + measurements_->device).c_str());
        } else {
            ImGui::TextWrapped("%s (%s): %s / not measured: %s", kSideNames[i], side.spec.c_str(),
                               model.c_str(), found->error.c_str());
        }
    }
}

void BanksPanel::draw_view() {
    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const viz::Rgba highlight = theme().palette.highlight;
    const int hovered = hovered_;
    const int hit = paint_draw_list(
        view_.draw, zoom_.for_drawing(view_.draw), [&](int h) -> std::optional<viz::Rgba> {
            if (hovered < 0) return std::nullopt;
            if (h == hovered ||
                viz::related_hits(view_.hits[size_t(hovered)], view_.hits[size_t(h)])) {
                return highlight;
            }
            return std::nullopt;
        });
    hovered_ = hit;
    if (hit >= 0) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(viz::bank_hit_tooltip(view_.hits[size_t(hit)]).c_str());
        ImGui::EndTooltip();
    }
    ImGui::EndChild();
}

void BanksPanel::draw_contents(AppContext& context) {
    if (const auto latest = context.bank_measurements.latest(); latest != measurements_) {
        measurements_ = latest;
        rebuild();
    }
    if (panel_reads_arrow_keys(context)) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) step_phase(-1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) step_phase(+1);
    }
    if (!controls_folded()) {  // folded (the presentation layout): the drawing fills the pane
        draw_controls(context);
        draw_access_line();
        draw_side_lines();
    }
    draw_view();
}

}  // namespace tclens::gui
