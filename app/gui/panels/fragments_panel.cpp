#include "app/gui/panels/fragments_panel.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/jobs/app_context.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/exercise_overlay.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/presentation.h"
#include "app/parse_number.h"
#include "viz/layout_catalogue.h"
#include "viz/layout_description.h"
#include "viz/layouts/wgmma_layouts.h"

namespace tclens::gui {
namespace {

constexpr const char* kColouringNames[] = {"register", "lane", "thread group", "sub-element"};
constexpr const char* kColouringKeys[] = {"register", "lane", "group", "sub"};

}  // namespace

// The Help menu's text of the panel.
constexpr const char* kFragmentsPanelHelp =
    "Which lane (T0..T31, or 0..127 for wgmma) and which register (a0, b1, c2, e0 ...) "
    "holds each element of the A, B, C/D and (mma.sp) metadata E operands. Pick an "
    "instruction from the list, grouped by family and architecture; type in its search "
    "box to filter (e.g. 'e4m3', 'sm_90', 'sel1'). The Description says in words how "
    "each operand is split over registers and lanes. Colour by register to see the A "
    "quadrants, B halves and C even/odd stripes; by thread group to see groupID = "
    "lane / 4. Hover a cell or a lane in the strip to light up everything that lane "
    "holds; click to pin it. For ldmatrix and stmatrix, the left column shows which lane "
    "supplies each row's address; for wgmma, the bands show which warp of the warpgroup "
    "holds which 16 rows; the wgmma smem views colour each element and each 16-byte chunk "
    "of shared memory by its core matrix. tcgen05 layouts are models from the PTX ISA "
    "that no GPU here can check. 'Verify on GPU' runs the instruction with "
    "self-describing inputs and marks every element where the hardware disagrees with "
    "the model in red.";

FragmentsPanel::FragmentsPanel()
    : Panel("fragments", "Fragments", kFragmentsPanelHelp), ids_(viz::fragment_layout_ids()) {
    const auto start = std::find(ids_.begin(), ids_.end(), "mma.m16n8k8.tf32");
    select(start == ids_.end() ? 0 : int(start - ids_.begin()));
}

void FragmentsPanel::select(int index) {
    selected_ = index;
    pinned_lane_ = -1;
    rebuild_view();
}

std::string FragmentsPanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "layout") {
        const auto it = std::find(ids_.begin(), ids_.end(), text);
        if (it == ids_.end()) {
            return "layout='" + text + "': valid IDs: " + viz::fragment_layout_ids_text();
        }
        select(int(it - ids_.begin()));
        return "";
    }
    if (key == "colour") {
        for (int i = 0; i < IM_ARRAYSIZE(kColouringKeys); ++i) {
            if (text == kColouringKeys[i]) {
                colouring_ = viz::FragmentColouring(i);
                rebuild_view();
                return "";
            }
        }
        return "colour='" + text + "': allowed: register, lane, group, sub";
    }
    if (key == "lane") {
        const auto lane = parse_number<int>(text);
        if (!lane || *lane < -1 || *lane >= layout_.threads) {
            return "lane='" + text + "': allowed: -1 (none) or 0.." +
                   std::to_string(layout_.threads - 1) + " for " + layout_.id;
        }
        pinned_lane_ = *lane;
        return "";
    }
    if (key == "zoom") return zoom_.apply_setting(text);
    if (key == "labels") {
        if (text != "on" && text != "off") return "labels='" + text + "': allowed: on, off";
        labels_ = text == "on";
        rebuild_view();
        return "";
    }
    if (key == "part") {
        static constexpr const char* kParts[] = {"all", "a", "b", "c", "d"};
        if (std::find(std::begin(kParts), std::end(kParts), text) == std::end(kParts)) {
            return "part='" + text + "': allowed: a, b, c, d, all";
        }
        part_ = text == "all" ? "" : std::string(1, char(text[0] - 'a' + 'A'));
        rebuild_view();
        return "";
    }
    if (key == "warp") {
        const int warps = std::max(1, layout_.threads / 32);
        const auto warp = parse_number<int>(text);
        if (!warp || *warp < -1 || *warp >= warps || (warps == 1 && *warp != -1)) {
            return "warp='" + text + "': allowed: -1 (all)" +
                   (warps > 1 ? " or 0.." + std::to_string(warps - 1) : std::string()) + " for " +
                   layout_.id;
        }
        warp_ = *warp;
        rebuild_view();
        return "";
    }
    if (key == "exercise") {
        if (std::string error = check_user_kernel_ref(text); !error.empty())
            return "exercise: " + error;
        pending_exercise_ = text;
        return "";
    }
    return "view 'fragments' has no setting '" + std::string(key) +
           "'; settings: layout, colour, lane, zoom, labels, part, warp, exercise";
}

void FragmentsPanel::rebuild_view() {
    layout_ = *viz::fragment_layout(ids_[selected_]);
    descriptions_.clear();
    for (const viz::OperandLayout& operand : layout_.operands) {
        descriptions_.push_back(viz::describe_operand(layout_, operand));
    }
    for (const viz::SharedMemoryTile& tile : layout_.shared_memory) {
        descriptions_.push_back(std::string(1, viz::operand_letter(tile.operand)) + ": " +
                                std::to_string(tile.rows) + "x" + std::to_string(tile.cols) +
                                (tile.k_major ? ", K-major" : ", MN-major") + ", LBO " +
                                std::to_string(tile.leading_bytes) + ", SBO " +
                                std::to_string(tile.stride_bytes) +
                                "; colours are core matrices (8 rows of 16 contiguous bytes).");
    }
    viz::FragmentViewOptions options;
    options.colouring = colouring_;
    options.labels = labels_;
    options.palette = &theme().palette;
    options.operands = part_;
    options.warp = warp_ < layout_.threads / 32 ? warp_ : -1;
    view_ = viz::fragment_view(layout_, options);
    register_operand_ = 0;
    shown_verification_.reset();
    mismatch_by_hit_.assign(view_.hits.size(), false);
    shown_exercise_.reset();
    exercise_wrong_.assign(view_.hits.size(), nullptr);
    painted_ = view_.draw;
}

void FragmentsPanel::refresh_exercise(const std::shared_ptr<const ExerciseRun>& run) {
    if (run == shown_exercise_) return;
    if (run && run->result && run->result->report.layout_id != layout_.id) {
        const auto it = std::find(ids_.begin(), ids_.end(), run->result->report.layout_id);
        if (it != ids_.end()) select(int(it - ids_.begin()));  // resets shown_exercise_
    }
    shown_exercise_ = run;
    exercise_wrong_.assign(view_.hits.size(), nullptr);
    painted_ = view_.draw;
    if (run && run->result) {
        exercise_wrong_ = exercise_wrong_hits(layout_, view_, run->result->report);
        painted_ = with_exercise_arrows(layout_, view_, run->result->report, theme().error);
    }
}

void FragmentsPanel::draw_exercise_line() {
    const JobSnapshot job = exercise_job_.snapshot();
    if (job.active()) {
        ImGui::TextDisabled("exercise: %s", job.message.empty() ? "running" : job.message.c_str());
        return;
    }
    if (!shown_exercise_) return;
    const std::string name = shown_exercise_->ref;
    if (!shown_exercise_->result) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().error));
        ImGui::TextWrapped("exercise %s: %s", name.c_str(), shown_exercise_->error.c_str());
        ImGui::PopStyleColor();
        return;
    }
    const kernels::user::ExerciseReport& report = shown_exercise_->result->report;
    const bool ok = report.wrong == 0 && report.product_correct;
    ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(ok ? theme().ok : theme().error));
    ImGui::TextWrapped("exercise %s (%s): %s%s", name.c_str(), report.function.c_str(),
                       shown_exercise_->result->summary.c_str(),
                       report.product_correct ? "" : "; the product a * b + c is not exact");
    ImGui::PopStyleColor();
    if (report.wrong > 0)
        ImGui::TextDisabled(
            "wrong elements are outlined, an arrow to where each went; hover one for the details");
}

void FragmentsPanel::theme_changed() { rebuild_view(); }

int FragmentsPanel::lane_of_hit(int hit) const {
    return hit < 0 || hit >= int(view_.hits.size()) ? -1 : view_.hits[hit].lane;
}

void FragmentsPanel::refresh_mismatches(
    const std::shared_ptr<const LayoutVerification>& verification) {
    if (verification == shown_verification_) return;
    shown_verification_ = verification;
    mismatch_by_hit_.assign(view_.hits.size(), false);
    if (!verification || verification->id != layout_.id) return;
    for (size_t hit = 0; hit < view_.hits.size(); ++hit) {
        const viz::FragmentHit& h = view_.hits[hit];
        // Register slots only: a shared-memory tile's hit is not one of the model's operands.
        if (!layout_.find(h.operand) || h.element == viz::kLaneOnlyHit) continue;
        for (const kernels::WrongSlot& wrong : verification->comparison.wrong) {
            if (wrong.operand == h.operand && wrong.element == h.element)
                mismatch_by_hit_[hit] = true;
        }
    }
}

// The instruction list: a search box, then the IDs grouped by family and architecture, each
// group a collapsible node (open while a search is typed).
void FragmentsPanel::draw_instruction_list() {
    next_item_width(10, ids_[selected_], ItemKind::kCombo);
    const bool open =
        ImGui::BeginCombo("instruction", ids_[selected_].c_str(), ImGuiComboFlags_HeightLargest);
    if (!open) {
        note_shown_value(ids_[selected_], ItemKind::kCombo, "instruction");
        return;
    }
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##search", "search: e4m3, sm_90, sel1, tcgen05 ...", search_,
                             sizeof search_);
    const bool searching = search_[0] != '\0';
    const std::vector<viz::LayoutGroup> groups = viz::layout_groups(ids_, search_);
    if (groups.empty()) ImGui::TextDisabled("no instruction matches");
    for (const viz::LayoutGroup& group : groups) {
        const bool holds_selected =
            std::find(group.ids.begin(), group.ids.end(), ids_[selected_]) != group.ids.end();
        if (searching) ImGui::SetNextItemOpen(true);
        const std::string label = group.title + " (" + std::to_string(group.ids.size()) + ")";
        if (!ImGui::TreeNodeEx(label.c_str(),
                               holds_selected ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
            continue;
        }
        for (const std::string& id : group.ids) {
            const int index = int(std::find(ids_.begin(), ids_.end(), id) - ids_.begin());
            if (ImGui::Selectable(id.c_str(), index == selected_) && index != selected_) {
                select(index);
                ImGui::CloseCurrentPopup();
            }
        }
        ImGui::TreePop();
    }
    ImGui::EndCombo();
}

// What each operand is, in words derived from the model; models say they are not verified.
void FragmentsPanel::draw_descriptions() {
    if (!layout_.verifiable) {
        ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "%s (%s)", viz::kModelOnlyNote,
                           layout_.source.c_str());
    }
    // Closed at start: the drawing keeps the room it needs to fit (lecture tours, small screens).
    if (!ImGui::CollapsingHeader("Description")) return;
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& text : descriptions_) ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
}

void FragmentsPanel::draw_controls(AppContext& context) {
    draw_instruction_list();
    draw_family_controls();
    ImGui::SameLine();
    next_item_width(0, widest_text(kColouringNames), ItemKind::kCombo);
    int colouring = int(colouring_);
    if (ImGui::Combo("colour by", &colouring, kColouringNames, IM_ARRAYSIZE(kColouringNames))) {
        colouring_ = viz::FragmentColouring(colouring);
        rebuild_view();
    }
    note_shown_value(kColouringNames[int(colouring_)], ItemKind::kCombo, "colour by");
    ImGui::SameLine();
    if (ImGui::Checkbox("labels", &labels_)) rebuild_view();
    ImGui::SameLine();
    ImGui::TextUnformatted("zoom");
    ImGui::SameLine();
    zoom_.draw_control();

    draw_export_buttons(view_.draw, layout_.id, export_message_);
    if (!export_message_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_message_.c_str());
    }
    JobControls controls;
    controls.run_label = "Verify on GPU";
    controls.run_tooltip = "run the instruction with self-describing inputs and compare";
    controls.gpu_use = "the layout probe";
    if (draw_job_controls(controls, job_, context.system.latest().get(), theme())) {
        job_ = request_layout_verification(context, layout_);
    }
}

// ldmatrix: a .trans toggle; wgmma: the N of m64nNk16. Both just pick another layout ID.
void FragmentsPanel::draw_family_controls() {
    const std::string& id = ids_[selected_];
    std::string target;
    if (id.rfind("ldmatrix.", 0) == 0) {
        bool trans = id.size() > 6 && id.compare(id.size() - 6, 6, ".trans") == 0;
        ImGui::SameLine();
        if (ImGui::Checkbox(".trans", &trans)) {
            target = trans ? id + ".trans" : id.substr(0, id.size() - 6);
        }
    } else if (const int n = viz::wgmma_layout_n(id); n > 0) {
        // The slider walks the type's valid N (integer and b1 shapes step by 16 above 32).
        const std::string type = viz::wgmma_layout_type(id);
        const std::vector<int> ns = viz::wgmma_layout_ns(type);
        int index = int(std::find(ns.begin(), ns.end(), n) - ns.begin());
        ImGui::SameLine();
        next_item_width(6, std::to_string(ns.back()));
        if (ImGui::SliderInt("N", &index, 0, int(ns.size()) - 1, std::to_string(n).c_str()) &&
            index >= 0 && index < int(ns.size()) && ns[size_t(index)] != n) {
            target = viz::wgmma_layout_id(type, ns[size_t(index)]);
        }
        note_shown_value(std::to_string(n), ItemKind::kField, "N");
    }
    if (target.empty()) return;
    const auto it = std::find(ids_.begin(), ids_.end(), target);
    if (it != ids_.end()) select(int(it - ids_.begin()));
}

void FragmentsPanel::draw_verification_line(const LayoutVerification* verification) {
    if (!verification || verification->id != layout_.id) return;
    const auto& comparison = verification->comparison;
    if (!verification->error.empty()) {
        ImGui::TextColored(imgui_colour(theme().error), "GPU: not verified: %s",
                           verification->error.c_str());
    } else if (comparison.matched == comparison.total && comparison.total > 0) {
        ImGui::TextColored(imgui_colour(theme().ok), "model vs %s: %s",
                           verification->device.c_str(),
                           kernels::comparison_summary(comparison).c_str());
    } else {
        ImGui::TextColored(imgui_colour(theme().error), "model vs %s: %s (red cells)",
                           verification->device.c_str(),
                           kernels::comparison_summary(comparison).c_str());
    }
}

// Each register of one operand as a row of lanes: (reg, lane) -> (row, col).
void FragmentsPanel::draw_register_view() {
    if (layout_.operands.empty()) return;  // shared-memory views have no registers
    if (!ImGui::CollapsingHeader("Registers (lanes x registers)")) return;
    for (int i = 0; i < int(layout_.operands.size()); ++i) {
        const char letter = viz::operand_letter(layout_.operands[i].operand);
        ImGui::SameLine();
        ImGui::RadioButton(std::string(1, letter).c_str(), &register_operand_, i);
    }
    const viz::OperandLayout& op = layout_.operands[register_operand_];
    const int lanes = std::min(layout_.threads, 32);
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("registers", lanes + 1, flags, ImVec2(0, 0))) return;
    ImGui::TableSetupColumn("reg");
    for (int lane = 0; lane < lanes; ++lane) {
        ImGui::TableSetupColumn(("T" + std::to_string(lane)).c_str());
    }
    ImGui::TableHeadersRow();
    const int per_register = viz::elements_per_register(op.elem_bits);
    for (int reg = 0; reg < op.regs_per_thread; ++reg) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(viz::register_name(op.operand, reg).c_str());
        for (const viz::LayoutElement& e : op.elements) {
            if (e.reg != reg || e.lane >= lanes) continue;
            ImGui::TableSetColumnIndex(e.lane + 1);
            if (e.sub > 0) ImGui::SameLine();
            ImGui::Text(per_register > 1 ? "%d,%d;" : "%d,%d", e.row, e.col);
            if (e.lane == hovered_lane_) {
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, IM_COL32(90, 90, 30, 255));
            }
        }
    }
    ImGui::EndTable();
}

void FragmentsPanel::draw_contents(AppContext& context) {
    if (!pending_exercise_.empty()) {
        exercise_job_ = request_exercise(context, pending_exercise_);
        pending_exercise_.clear();
    }
    // Folded (the presentation layout), the drawing alone fills the pane.
    const bool folded = controls_folded();
    if (!folded) draw_controls(context);
    refresh_exercise(context.exercise.latest());
    if (!folded) draw_exercise_line();
    const auto verification = context.layout_verification.latest();
    refresh_mismatches(verification);
    if (!folded) {
        draw_verification_line(verification.get());
        draw_descriptions();
        draw_register_view();
    }

    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const int highlight = hovered_lane_ >= 0 ? hovered_lane_ : pinned_lane_;
    const viz::Rgba highlight_colour = theme().palette.highlight;
    const int hit = paint_draw_list(painted_, zoom_.for_drawing(painted_),
                                    [&](int h) -> std::optional<viz::Rgba> {
                                        if (mismatch_by_hit_[h] || exercise_wrong_[h])
                                            return theme().error;
                                        if (highlight >= 0 && lane_of_hit(h) == highlight)
                                            return highlight_colour;
                                        return std::nullopt;
                                    });
    hovered_lane_ = lane_of_hit(hit);
    if (hovered_lane_ >= 0) {
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            pinned_lane_ = pinned_lane_ == hovered_lane_ ? -1 : hovered_lane_;
        }
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50.0f);
        ImGui::TextUnformatted(viz::lane_tooltip(layout_, hovered_lane_).c_str());
        if (const kernels::user::ExerciseElement* e = exercise_wrong_[std::size_t(hit)]) {
            ImGui::Text("your mapping: %c (%d, %d) %s",
                        viz::operand_letter(view_.hits[std::size_t(hit)].operand), e->row, e->col,
                        e->outcome.c_str());
        }
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::EndChild();
}

}  // namespace tclens::gui
