#pragma once
// The tile map views: a TileMapSpec's model (viz/tile_map.h) drawn as draw records
// (viz/draw_list.h). The GUI's Tile map panel paints them with ImDrawList and `tclens tilemap`
// exports the same records to SVG and PNG, so the screen and the files always agree.
//
// Every view starts with a title and caption lines (what is drawn, in the kernel's terms) and
// draws its main figure with its longer side TileMapViewOptions::size pixels long, matrices at
// their true proportions (row down, column right). Colours come from the palette: blocks, warps
// and boxes take category_colour(palette, id); pipeline states take stage_state_colour.
//   kGrid   C split into block tiles, each filled by TileMapViewOptions::colouring (its wave by
//           default, viz/tile_colouring.h) and numbered with its launch (or schedule) order when
//           the number fits; the selected block outlined in
//           palette.highlight (a persistent kernel: with every other tile its CTA computes, a
//           thinner line, listed below); tiles a persistent cluster computes past M outlined
//           only, below C. Beside the grid, one entry a line, the key of the colouring
//           (tile_colour_key); its caption above the grid.
//   kBlock  the selected block tile: each work tile (MMA tile, or a lane's FMA sub-tile) filled
//           with its warp's colour, alternate issue indices a shade lighter (so interleaved
//           columns show as stripes) and labelled "#index" (FMA: the lane) when it fits; wgmma
//           tiles are outlined over the warps' 16-row bands. The part of a block tile past C is
//           veiled. Legend: the warps. With TileMapViewOptions::warp >= 0 (warp-tiled kernels:
//           WarpLayout::kGrid), one warp's part instead: the block at half size, unlabelled, the
//           warp's tile outlined in palette.highlight, and beside it that warp tile alone, as
//           tall as the whole block would be, its work tiles labelled (a lecture's step: the
//           numbers read from the back of a hall).
//   kLoad   the A tile (block_m x block_k) and the B tile (block_k x block_n), one cell per
//           16-byte chunk (4-byte word for word copies), at K step `step`: each cell filled
//           with the copying thread's warp colour and labelled with the thread, 12 pixels high
//           or more so the numbers stay readable (a tall tile makes a tall view); TMA tiles are
//           filled per box and each box labelled with the CTA that issues it. Above them, the
//           stage ring with the stage this K tile lands in filled and outlined, and a legend of
//           the warps (or boxes).
//   kKLoop  K step `step` of the selected block: the block's A panel (block_m x K) left of its
//           C tile and its B panel (K x block_n) above it, each K tile coloured by its pipeline
//           state (done, computing, in flight, issuing); the C tile's work tiles; the stage
//           ring, one box per stage naming the K tile it holds. Legend: the states.
#include <optional>
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"
#include "viz/tile_colouring.h"
#include "viz/tile_map.h"

namespace tclens::viz {

enum class TileMapViewKind { kGrid, kBlock, kLoad, kKLoop };

// "grid", "block", "load", "kloop".
const char* tile_map_view_name(TileMapViewKind kind);
// The inverse of tile_map_view_name; nullopt for anything else.
std::optional<TileMapViewKind> parse_tile_map_view(const std::string& text);

enum class TileMapHitKind {
    kBlockTile,  // index: the tile's order (clicking it selects that block)
    kWork,       // index: into work_tiles(spec)
    kChunk,      // index: into load_map(...)
    kStage,      // index: the stage
    kKTile,      // index: the K tile
};

// One hover target; DrawRect::hit indexes TileMapView::hits.
struct TileMapHit {
    TileMapHitKind kind = TileMapHitKind::kBlockTile;
    int index = 0;
    std::string text;  // one line for a tooltip
};

struct TileMapViewOptions {
    TileMapViewKind kind = TileMapViewKind::kGrid;
    int block = 0;        // order of the selected block tile; clamped to the valid range
    int step = 0;         // K step of kLoad and kKLoop; clamped to 0 .. k_tiles - 1
    float size = 560.0f;  // the main figure's longer side, pixels
    TileColouring colouring = TileColouring::kWave;  // of kGrid's block tiles
    int warp = -1;  // kBlock: the warp whose part is shown (-1: the whole block; see above)
    int sms = 132;  // SMs a wave fills (tile_wave), e.g. the open recording's GPU's
    const Palette* palette = nullptr;  // nullptr: dark_palette()
};

struct TileMapView {
    DrawList draw;
    std::vector<TileMapHit> hits;
};

// Builds the view. Precondition: validate_tile_map_spec(spec) == "". Linear in what is drawn:
// one rect per tile of the grid (tile_map_view_test counts the records); bench/viz/
// tile_map_view_bench.cpp times the largest grid (65,536 tiles).
TileMapView tile_map_view(const TileMapSpec& spec, const TileMapViewOptions& options);

// The spec in six lines, as the views caption it: C and its block tiles, the launch order, the
// warps, the work per K step, who loads what, the pipeline. For `tclens tilemap`.
std::vector<std::string> tile_map_summary(const TileMapSpec& spec);

// The fill of a pipeline state: kComputing categories[2], kInFlight categories[0], kIssuing
// categories[1], kEmpty the background mixed 12% toward the text.
Rgba stage_state_colour(const Palette& palette, StageState state);

// "computing", "in flight", "issuing", "empty".
const char* stage_state_name(StageState state);

// The fill of a K tile the block has already multiplied: the background mixed 35% toward
// the text.
Rgba done_colour(const Palette& palette);

}  // namespace tclens::viz
