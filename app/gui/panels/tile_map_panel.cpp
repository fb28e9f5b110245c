#include "app/gui/panels/tile_map_panel.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/export_buttons.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/presentation.h"
#include "app/parse_number.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/tile_map_spec.h"

namespace tclens::gui {
namespace {

constexpr const char* kViewLabels[] = {"Grid", "Block", "Load map", "K loop"};
constexpr viz::TileMapViewKind kViews[] = {
    viz::TileMapViewKind::kGrid, viz::TileMapViewKind::kBlock, viz::TileMapViewKind::kLoad,
    viz::TileMapViewKind::kKLoop};
constexpr int kMaxSide = static_cast<int>(kernels::kMaxProblemSide);
constexpr int kMaxSms = 1024;
constexpr float kMinSpeed = 0.5f;
constexpr float kMaxSpeed = 30.0f;

// A label on the left of the next widget, which is then named "##<label>".
}  // namespace

// The Help menu's text of the panel.
constexpr const char* kTileMapPanelHelp =
    "How the selected rung cuts C = A * B into work, read from its own descriptor and "
    "kernel file. Grid: C in block tiles, numbered in launch order, so the raster order "
    "shows, and coloured by their wave (the tiles that run at one time: one block per SM "
    "on the SMs given; a persistent kernel's CTAs' first tiles, second tiles ...), by "
    "launch order, or by the block (persistent kernel: the CTA) that computes each, with a "
    "key under the grid; click a tile to zoom into it. Block: that tile's warp tiles and, inside "
    "them, the "
    "MMA tiles (numbered in issue order) or, for FMA rungs, each lane's sub-tiles, with "
    "the instructions per K step. Load map: which thread copies which 16-byte chunk of "
    "the A and B tiles, and into which shared-memory stage (TMA rungs: which box one "
    "thread issues). K loop: per K step, which K tile each stage holds (computing, in "
    "flight, being issued) and what the block multiplies; Play steps through it, the "
    "slider sets the step, Left/Right step by one. Hover anything for details.";

TileMapPanel::TileMapPanel()
    : Panel("tilemap", "Tile map", kTileMapPanelHelp), sms_(kernels::kDefaultPersistentSms) {
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) {
        if (kernel.rung > 0) kernels_.push_back(&kernel);
    }
    const auto start = std::find_if(kernels_.begin(), kernels_.end(),
                                    [](const auto* k) { return k->id == "mma_cp_async.f16"; });
    kernel_ = start == kernels_.end() ? 0 : int(start - kernels_.begin());
    rebuild_spec();
}

void TileMapPanel::rebuild_spec() {
    const kernels::GemmProblem problem{m_, n_, k_};
    auto spec = kernels::tile_map_spec(*kernels_[size_t(kernel_)], problem, sms_);
    if (!spec) {
        spec_.reset();
        spec_error_ = spec.error();
        blocks_ = 0;
        k_steps_ = 0;
        view_ = viz::TileMapView{};
        return;
    }
    spec_ = *spec;
    spec_error_.clear();
    blocks_ = int(viz::block_tile_count(*spec_));
    k_steps_ = viz::k_tiles(*spec_);
    block_ = std::clamp(block_, 0, blocks_ - 1);
    step_ = std::clamp(step_, 0, k_steps_ - 1);
    rebuild_view();
}

void TileMapPanel::rebuild_view() {
    hovered_ = -1;
    if (!spec_) return;
    viz::TileMapViewOptions options;
    options.kind = kind_;
    options.block = block_;
    options.warp = warp_;
    options.step = step_;
    options.colouring = colouring_;
    options.sms = sms_;
    options.palette = &theme().palette;
    view_ = viz::tile_map_view(*spec_, options);
}

void TileMapPanel::theme_changed() { rebuild_view(); }

int TileMapPanel::warp_tiles() const {
    if (!spec_ || spec_->warp_layout != viz::WarpLayout::kGrid) return 0;
    return int(viz::warp_regions(*spec_).size());
}

void TileMapPanel::set_step(int step) {
    step_ = std::clamp(step, 0, std::max(k_steps_ - 1, 0));
    rebuild_view();
}

std::string TileMapPanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "kernel") {
        const auto it = std::find_if(kernels_.begin(), kernels_.end(),
                                     [&](const auto* k) { return k->id == text; });
        if (it == kernels_.end()) {
            return "kernel='" + text + "': allowed: " + kernels::tile_map_kernel_ids_text();
        }
        kernel_ = int(it - kernels_.begin());
        rebuild_spec();
        return "";
    }
    if (key == "m" || key == "n" || key == "k" || key == "sms") {
        const int most = key == "sms" ? kMaxSms : kMaxSide;
        const auto number = parse_number<int>(text);
        if (!number || *number < 1 || *number > most) {
            return std::string(key) + "='" + text + "': allowed: 1.." + std::to_string(most);
        }
        (key == "m" ? m_ : key == "n" ? n_ : key == "k" ? k_ : sms_) = *number;
        rebuild_spec();
        return "";
    }
    if (key == "colour") {
        const auto colouring = viz::parse_tile_colouring(text);
        if (!colouring) return "colour='" + text + "': allowed: wave, order, block";
        colouring_ = *colouring;
        rebuild_view();
        return "";
    }
    if (key == "view") {
        const auto kind = viz::parse_tile_map_view(text);
        if (!kind) return "view='" + text + "': allowed: grid, block, load, kloop";
        kind_ = *kind;
        rebuild_view();
        return "";
    }
    if (key == "block" || key == "step") {
        if (!spec_) return std::string(key) + "='" + text + "': no tile map: " + spec_error_;
        const int count = key == "block" ? blocks_ : k_steps_;
        const auto number = parse_number<int>(text);
        if (!number || *number < 0 || *number >= count) {
            return std::string(key) + "='" + text + "': allowed: 0.." + std::to_string(count - 1) +
                   " for " + spec_->kernel + " at " + std::to_string(m_) + "x" +
                   std::to_string(n_) + "x" + std::to_string(k_);
        }
        (key == "block" ? block_ : step_) = *number;
        rebuild_view();
        return "";
    }
    if (key == "warp") {
        const int warps = warp_tiles();
        const auto number = parse_number<int>(text);
        if (!number || *number < -1 || *number >= warps) {
            return "warp='" + text + "': allowed: -1 (the whole block)" +
                   (warps > 0 ? " or 0.." + std::to_string(warps - 1)
                              : std::string(" (") + kernels_[size_t(kernel_)]->id +
                                    " splits its block by warpgroup)");
        }
        warp_ = *number;
        rebuild_view();
        return "";
    }
    if (key == "zoom") return zoom_.apply_setting(text);
    return "view 'tilemap' has no setting '" + std::string(key) +
           "'; settings: kernel, m, n, k, view, block, warp, step, sms, colour, zoom";
}

// While playing: one K step every 1 / speed seconds; stops on the last step.
void TileMapPanel::advance_animation() {
    if (!playing_ || !spec_) return;
    step_clock_ += ImGui::GetIO().DeltaTime;
    const float period = 1.0f / speed_;
    if (step_clock_ < period) return;
    const int steps = int(step_clock_ / period);
    step_clock_ -= float(steps) * period;
    if (step_ + steps >= k_steps_ - 1) playing_ = false;
    set_step(step_ + steps);
}

void TileMapPanel::draw_controls() {
    label("kernel");
    next_item_width(10, kernels_[size_t(kernel_)]->id, ItemKind::kCombo);
    const bool open = ImGui::BeginCombo("##kernel", kernels_[size_t(kernel_)]->id.c_str(),
                                        ImGuiComboFlags_HeightLarge);
    if (!open) note_shown_value(kernels_[size_t(kernel_)]->id, ItemKind::kCombo);
    if (open) {
        for (int i = 0; i < int(kernels_.size()); ++i) {
            const kernels::KernelDescriptor& kernel = *kernels_[size_t(i)];
            const std::string name = std::to_string(kernel.rung) + "  " + kernel.id;
            if (ImGui::Selectable(name.c_str(), i == kernel_) && i != kernel_) {
                kernel_ = i;
                rebuild_spec();
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kernel.title.c_str());
        }
        ImGui::EndCombo();
    }
    bool size_changed = false;
    for (auto [name, value] : {std::pair{"M", &m_}, std::pair{"N", &n_}, std::pair{"K", &k_}}) {
        ImGui::SameLine(0, 14);
        label(name);
        // Five digits at least, so the fields keep their width as the numbers change.
        next_item_width(0, std::to_string(std::max(*value, 99999)), ItemKind::kStepper);
        if (ImGui::InputInt((std::string("##") + name).c_str(), value, 64, 1024)) {
            *value = std::clamp(*value, 1, kMaxSide);
            size_changed = true;
        }
        note_shown_value(std::to_string(*value), ItemKind::kStepper);
    }
    const bool persistent = spec_ && spec_->raster == viz::RasterOrder::kPersistent;
    const bool waves =
        kind_ == viz::TileMapViewKind::kGrid && colouring_ == viz::TileColouring::kWave;
    if (persistent || waves) {
        ImGui::SameLine(0, 14);
        label("SMs");
        next_item_width(0, std::to_string(std::max(sms_, 999)), ItemKind::kStepper);
        if (ImGui::InputInt("##sms", &sms_, 2, 16)) {
            sms_ = std::clamp(sms_, 1, kMaxSms);
            size_changed = true;
        }
        note_shown_value(std::to_string(sms_), ItemKind::kStepper);
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip(persistent
                                  ? "one persistent CTA per SM: the grid is SMs / 2 clusters of 2"
                                  : "a wave: one block on each SM (the GPU's SM count)");
        }
    }
    if (size_changed) rebuild_spec();
    ImGui::SameLine(0, 14);
    label("zoom");
    zoom_.draw_control();

    for (int i = 0; i < IM_ARRAYSIZE(kViews); ++i) {
        if (i > 0) ImGui::SameLine();
        if (ImGui::RadioButton(kViewLabels[i], kind_ == kViews[i])) {
            kind_ = kViews[i];
            rebuild_view();
        }
    }
    if (kind_ == viz::TileMapViewKind::kGrid) {
        ImGui::SameLine(0, 20);
        label("colour by");
        for (const viz::TileColouring c :
             {viz::TileColouring::kWave, viz::TileColouring::kOrder, viz::TileColouring::kBlock}) {
            ImGui::SameLine();
            if (ImGui::RadioButton(viz::tile_colouring_name(c), colouring_ == c)) {
                colouring_ = c;
                rebuild_view();
            }
        }
    }
    if (spec_) {
        ImGui::SameLine(0, 20);
        label("block");
        next_item_width(0, std::to_string(std::max(blocks_, 999)), ItemKind::kStepper);
        if (ImGui::InputInt("##block", &block_)) {
            block_ = std::clamp(block_, 0, blocks_ - 1);
            rebuild_view();
        }
        note_shown_value(std::to_string(block_), ItemKind::kStepper);
        ImGui::SameLine();
        ImGui::TextDisabled("of %d", blocks_);
    }
    if (kind_ == viz::TileMapViewKind::kBlock && warp_tiles() > 0) {
        ImGui::SameLine(0, 20);
        label("warp");
        next_item_width(0, "999", ItemKind::kStepper);
        if (ImGui::InputInt("##warp", &warp_)) {
            warp_ = std::clamp(warp_, -1, warp_tiles() - 1);
            rebuild_view();
        }
        note_shown_value(std::to_string(warp_), ItemKind::kStepper);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("-1: the whole block; else one warp's tile");
    }
    draw_step_controls();
    if (!spec_) ImGui::BeginDisabled();
    const std::string base =
        spec_ ? "tilemap_" + spec_->kernel + "_" + viz::tile_map_view_name(kind_) : "tilemap";
    draw_export_buttons(view_.draw, base, export_message_);
    if (!spec_) ImGui::EndDisabled();
    if (!export_message_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_message_.c_str());
    }
}

// The K step: slider, one-step buttons, Play / Pause and speed (load map and K loop views).
void TileMapPanel::draw_step_controls() {
    if (!spec_ || (kind_ != viz::TileMapViewKind::kLoad && kind_ != viz::TileMapViewKind::kKLoop)) {
        return;
    }
    label("K step");
    next_item_width(14);
    int step = step_;
    if (ImGui::SliderInt("##step", &step, 0, k_steps_ - 1)) set_step(step);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) set_step(step_ - 1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) set_step(step_ + 1);
    ImGui::SameLine();
    if (ImGui::Button(playing_ ? "Pause" : "Play",
                      ImVec2(width_to_show("Pause", ItemKind::kField), 0))) {
        playing_ = !playing_;
        step_clock_ = 0.0f;
        if (playing_ && step_ >= k_steps_ - 1) set_step(0);
    }
    ImGui::SameLine(0, 14);
    label("speed");
    next_item_width(0, "99.9 steps/s");
    ImGui::SliderFloat("##speed", &speed_, kMinSpeed, kMaxSpeed, "%.1f steps/s",
                       ImGuiSliderFlags_Logarithmic);
}

// Why there is no map, or what the kernel itself would say about the size.
void TileMapPanel::draw_status_lines() const {
    if (!spec_) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().error));
        ImGui::TextWrapped("%s", spec_error_.c_str());
        ImGui::PopStyleColor();
        return;
    }
    const kernels::KernelDescriptor& kernel = *kernels_[size_t(kernel_)];
    const std::string refused = kernel.can_run(kernels::GemmProblem{m_, n_, k_});
    if (!refused.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().note));
        ImGui::TextWrapped("the kernel itself refuses %s: %s",
                           kernels::problem_text({m_, n_, k_}).c_str(), refused.c_str());
        ImGui::PopStyleColor();
    }
}

void TileMapPanel::draw_view() {
    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const viz::Rgba highlight = theme().palette.highlight;
    const int hovered = hovered_;
    const int hit = paint_draw_list(view_.draw, zoom_.for_drawing(view_.draw),
                                    [&](int h) -> std::optional<viz::Rgba> {
                                        if (h == hovered) return highlight;
                                        return std::nullopt;
                                    });
    hovered_ = hit;
    if (hit >= 0) {
        const viz::TileMapHit& target = view_.hits[size_t(hit)];
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(target.text.c_str());
        if (target.kind == viz::TileMapHitKind::kBlockTile) {
            ImGui::TextDisabled("click: zoom into this block");
        }
        ImGui::EndTooltip();
        if (target.kind == viz::TileMapHitKind::kBlockTile &&
            ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            block_ = target.index;
            kind_ = viz::TileMapViewKind::kBlock;
            rebuild_view();
        }
    }
    ImGui::EndChild();
}

void TileMapPanel::draw_contents(AppContext& context) {
    // Left and Right step through the K tiles of the load and K-loop views.
    if ((kind_ == viz::TileMapViewKind::kLoad || kind_ == viz::TileMapViewKind::kKLoop) &&
        panel_reads_arrow_keys(context)) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) set_step(step_ - 1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) set_step(step_ + 1);
    }
    advance_animation();
    if (!controls_folded()) {  // folded (the presentation layout): the drawing fills the pane
        draw_controls();
        draw_status_lines();
    }
    draw_view();
}

}  // namespace tclens::gui
