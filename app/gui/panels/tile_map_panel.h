#pragma once
// Tile map panel: how one ladder rung cuts the GEMM into work (viz/tile_map_view.h), from its
// own descriptor and kernel file (kernels/tile_map_spec.h): C in block tiles numbered in launch
// order, one block's warp and MMA tiles, the load map of its A and B tiles, and its K loop
// through the shared-memory stages, playable as an animation. Click a block in the grid to
// zoom into it; export SVG/PNG of what is shown.

#include <optional>
#include <string>
#include <vector>

#include "app/gui/panels/panel.h"
#include "app/gui/panels/view_zoom.h"
#include "kernels/gemm.h"
#include "viz/tile_map.h"
#include "viz/tile_map_view.h"

namespace tclens::gui {

class TileMapPanel : public Panel {
  public:
    TileMapPanel();
    // kernel=ID (a ladder rung), m=, n=, k= (1..65536), view=grid|block|load|kloop,
    // block=B (0..block tiles - 1, in launch order), step=S (0..K tiles - 1), sms=N (1..1024:
    // the SMs rung 11's persistent grid is sized for and a wave fills), colour=wave|order|block
    // (what the grid's colours say), zoom=0.25..3.
    std::string apply_setting(std::string_view key, std::string_view value) override;
    ViewZoom* view_zoom() override { return &zoom_; }

  private:
    void draw_contents(AppContext& context) override;
    void theme_changed() override;
    void rebuild_spec();
    void rebuild_view();
    void set_step(int step);
    // Warp tiles of the selected rung (0 when it splits its block by warpgroup).
    int warp_tiles() const;
    void advance_animation();
    void draw_controls();
    void draw_step_controls();
    void draw_status_lines() const;
    void draw_view();

    std::vector<const kernels::KernelDescriptor*> kernels_;  // the ladder rungs
    int kernel_ = 0;                                         // index into kernels_
    int m_ = 4096, n_ = 4096, k_ = 4096;
    int sms_;
    viz::TileMapViewKind kind_ = viz::TileMapViewKind::kGrid;
    viz::TileColouring colouring_ = viz::TileColouring::kWave;
    int block_ = 0;
    int warp_ = -1;  // the Block view's one warp (viz::TileMapViewOptions::warp); -1: all
    int step_ = 0;
    ViewZoom zoom_{0.25f, 3.0f};  // "zoom=" setting, slider and fit
    bool playing_ = false;
    float speed_ = 4.0f;                    // K steps per second while playing
    float step_clock_ = 0.0f;               // seconds since the last step while playing
    std::optional<viz::TileMapSpec> spec_;  // empty when spec_error_ says why
    std::string spec_error_;
    int blocks_ = 0;   // block tiles of spec_
    int k_steps_ = 0;  // K tiles of spec_
    viz::TileMapView view_;
    int hovered_ = -1;  // hit id under the mouse in the last frame
    std::string export_message_;
};

}  // namespace tclens::gui
