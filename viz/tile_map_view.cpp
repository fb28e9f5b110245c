#include "viz/tile_map_view.h"

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "viz/view_builder.h"

// [SECTION] index: helpers and the builder; captions; grid view; block view; load view;
// K-loop view.

namespace tclens::viz {

namespace {

constexpr float kMargin = 16.0f;
constexpr float kTitleSize = 14.0f;
constexpr float kLineSize = 12.0f;
constexpr float kLineGap = 4.0f;
constexpr float kSectionGap = 14.0f;
constexpr float kSwatch = 12.0f;
constexpr float kMinLabel = 7.0f;   // smallest label text drawn inside a cell
constexpr float kMaxLabel = 12.0f;  // largest
constexpr float kSelectedStroke = 3.0f;
constexpr float kBoxStroke = 2.0f;
constexpr float kShade = 0.18f;  // alternate work tiles, mixed toward the text
constexpr float kVeil = 0.6f;    // alpha of the veil over a block tile's part past C
constexpr int kWarpThreads = 32;
constexpr float kMinChunkRow = 12.0f;  // load map rows: thread numbers stay readable

std::string range_text(std::int64_t first, std::int64_t count) {
    return count == 1 ? std::to_string(first)
                      : std::to_string(first) + "-" + std::to_string(first + count - 1);
}

// "k 64-127" of K tile t (clipped to K), and " (past K: zeros)" when it is partial.
std::string k_range_text(const TileMapSpec& spec, int k_tile) {
    const std::int64_t first = std::int64_t{k_tile} * spec.block_k;
    const std::int64_t count = std::min<std::int64_t>(spec.block_k, spec.k - first);
    std::string text = "k " + range_text(first, count);
    if (count < spec.block_k) text += " (rest of the tile past K: zeros)";
    return text;
}

// [SECTION] the builder: the shared one (viz/view_builder.h) with the tile map's lines, fitted
// labels and wrapping legends; the drawing's size is the extent of everything drawn.
class Builder : public ViewBuilder<TileMapHit> {
  public:
    using ViewBuilder::ViewBuilder;

    // One left-aligned line in palette.text; returns the y of the next line.
    float line(float x, float y, float size, std::string text) {
        this->text(x, y, size, palette().text, TextAlign::kLeft, std::move(text));
        return y + size + kLineGap;
    }

    // `label` centred in the w x h cell at (x, y), as large as fits (at most kMaxLabel, at least
    // kMinLabel, else not drawn); readable on `fill`.
    void fitted_label(float x, float y, float w, float h, Rgba fill, const std::string& label) {
        float size = std::min({kMaxLabel, 0.7f * h, (w - 2.0f) / (0.62f * label.size())});
        size = std::floor(size);
        if (size < kMinLabel) return;
        cell_label(x, y, w, h, size, fill, {label});
    }

    // Swatches with labels in rows no wider than `width`; returns the y below them.
    float legend(float x, float y, float width,
                 const std::vector<std::pair<Rgba, std::string>>& entries) {
        float lx = x;
        for (const auto& [colour, label] : entries) {
            const float entry =
                kSwatch + kSwatchLabelGap + text_width(label.size(), kLineSize) + 12.0f;
            if (lx > x && lx + entry > x + width) {
                lx = x;
                y += kSwatch + kLineGap;
            }
            if (colour.a > 0) rect(lx, y, kSwatch, kSwatch, colour, palette().grid, 1.0f);
            swatch_label(lx, y, kSwatch, kLineSize, label);
            lx += entry;
        }
        return y + kSwatch + kSectionGap;
    }

    TileMapView finish() {
        draw().width = std::ceil(right() + kMargin);
        draw().height = std::ceil(bottom() + kMargin);
        return take_view<TileMapView>();
    }
};

// Grid lines show between cells of at least this many pixels.
float gap_for(float cell) { return cell >= 6.0f ? 1.0f : 0.0f; }

// The shorter side of the smallest work tile (a wgmma warp band: 16 rows).
int smallest_work_side(const TileMapSpec& spec) {
    switch (spec.work) {
        case WorkKind::kFma:
            return std::min(spec.sub_m, spec.sub_n);
        case WorkKind::kMma:
            return std::min(spec.mma_m, spec.mma_n);
        case WorkKind::kWgmma:
            return 16;
    }
    return 1;
}

// Who computes a work tile, for labels and legends: its warp, or its warpgroup's first warp.
int owner_colour_index(const WorkTile& tile) {
    return tile.warp >= 0 ? tile.warp : tile.warpgroup * 4;
}

std::string work_tooltip(const TileMapSpec& spec, const WorkTile& tile) {
    std::string owner;
    if (spec.work == WorkKind::kWgmma) {
        owner = "warpgroup " + std::to_string(tile.warpgroup) + ", " + spec.instruction + " #" +
                std::to_string(tile.index);
    } else if (spec.work == WorkKind::kFma) {
        owner = "warp " + std::to_string(tile.warp) + ", lane " + std::to_string(tile.lane) +
                ", sub-tile " + std::to_string(tile.index);
    } else {
        owner = "warp " + std::to_string(tile.warp) + ", " + spec.instruction + " #" +
                std::to_string(tile.index);
    }
    std::string cols = "cols " + range_text(tile.col, tile.cols);
    if (tile.col_stride > 1) {
        cols = "cols " + std::to_string(tile.col) + ", " +
               std::to_string(tile.col + tile.col_stride) + ", ... " +
               std::to_string(tile.col + (tile.cols - 1) * tile.col_stride) + " (every " +
               std::to_string(tile.col_stride) + "th)";
    }
    return owner + ": rows " + range_text(tile.row, tile.rows) + ", " + cols;
}

// One MMA tile or FMA sub-tile, element (0, 0) of the block tile at (x, y), `scale` pixels per
// element, `gap` between cells: filled with its warp's colour (alternate ones a shade lighter)
// and, when `labelled`, numbered where the number fits.
void draw_work_tile(Builder& b, const TileMapSpec& spec, const WorkTile& tile, float x, float y,
                    float scale, float gap, int hit, bool labelled) {
    const Palette& palette = b.palette();
    const float tx = x + tile.col * scale;
    const float ty = y + tile.row * scale;
    const Rgba base = category_colour(palette, owner_colour_index(tile));
    const int shade_by = spec.work == WorkKind::kFma ? tile.lane : tile.index;
    const Rgba fill = shade_by % 2 == 1 ? mix(base, palette.text, kShade) : base;
    if (tile.col_stride == 1) {
        b.rect(tx + gap, ty + gap, tile.cols * scale - gap, tile.rows * scale - gap, fill,
               kTransparent, 0.0f, hit);
        if (labelled) {
            b.fitted_label(tx, ty, tile.cols * scale, tile.rows * scale, fill,
                           spec.work == WorkKind::kFma ? std::to_string(tile.lane)
                                                       : "#" + std::to_string(tile.index));
        }
        return;
    }
    for (int c = 0; c < tile.cols; ++c) {  // interleaved columns: one strip each
        b.rect(x + (tile.col + c * tile.col_stride) * scale, ty + gap, scale,
               tile.rows * scale - gap, fill, kTransparent, 0.0f, hit);
    }
}

// The block tile's work tiles at (x, y), `scale` pixels per element: fills by warp, wgmma
// outlines, then the veil over the part past C. `detailed`: hover targets, and labels where
// they fit.
void draw_work(Builder& b, const TileMapSpec& spec, const BlockTile& block, float x, float y,
               float scale, bool detailed) {
    const Palette& palette = b.palette();
    const float gap = gap_for(smallest_work_side(spec) * scale);
    b.rect(x, y, spec.block_n * scale + gap, spec.block_m * scale + gap, palette.grid);
    const std::vector<WorkTile> tiles = work_tiles(spec);
    if (spec.work == WorkKind::kWgmma) {
        for (const WarpRegion& region : warp_regions(spec)) {
            const Rgba fill = category_colour(palette, region.warp);
            b.rect(x + region.col * scale + gap, y + region.row * scale + gap,
                   region.cols * scale - gap, region.rows * scale - gap, fill);
            b.fitted_label(x + region.col * scale, y + region.row * scale,
                           std::min(region.cols * scale, 80.0f), region.rows * scale, fill,
                           "warp " + std::to_string(region.warp));
        }
    }
    for (size_t i = 0; i < tiles.size(); ++i) {
        const WorkTile& tile = tiles[i];
        const int hit =
            detailed ? b.hit({TileMapHitKind::kWork, static_cast<int>(i), work_tooltip(spec, tile)})
                     : -1;
        if (spec.work != WorkKind::kWgmma) {
            draw_work_tile(b, spec, tile, x, y, scale, gap, hit, detailed);
            continue;
        }
        const float tx = x + tile.col * scale;
        const float ty = y + tile.row * scale;
        b.rect(tx, ty, tile.cols * scale + gap, tile.rows * scale + gap, kTransparent, palette.text,
               kBoxStroke, hit);
        const std::string label = "warpgroup " + std::to_string(tile.warpgroup) + ": " +
                                  spec.instruction + " #" + std::to_string(tile.index);
        b.text(tx + 0.5f * tile.cols * scale, ty + tile.rows * scale - kLineSize - 4.0f, kLineSize,
               palette.text, TextAlign::kCenter, label);
    }
    // The part of an edge tile past C: computed on zeros, never stored.
    const float inside_w = static_cast<float>(block.cols) * scale;
    const float inside_h = static_cast<float>(block.rows) * scale;
    const Rgba veil = with_alpha(palette.background, static_cast<std::uint8_t>(255 * kVeil));
    if (block.cols < spec.block_n) {
        b.rect(x + inside_w, y, spec.block_n * scale - inside_w + gap, spec.block_m * scale + gap,
               veil);
    }
    if (block.rows < spec.block_m) {
        b.rect(x, y + inside_h, inside_w, spec.block_m * scale - inside_h + gap, veil);
    }
}

// Title lines common to the views that show one block.
std::string block_title(const TileMapSpec& spec, const BlockTile& block) {
    std::string title = spec.kernel + ": block tile " + std::to_string(block.order) + " = C rows " +
                        range_text(block.row, std::max<std::int64_t>(block.rows, 1)) + ", cols " +
                        range_text(block.col, block.cols) + ", computed by " +
                        (spec.raster == RasterOrder::kPersistent ? "CTA " : "block ") +
                        std::to_string(block.block);
    if (spec.raster == RasterOrder::kPersistent) {
        title += " (its tile " + std::to_string(block.round + 1) + " of " +
                 std::to_string(rounds_of_block(spec, block.block)) + ")";
    }
    if (!block.inside) title += ", wholly past M: computes zeros";
    return title;
}

std::string work_summary(const TileMapSpec& spec) {
    const int owners = work_owners(spec);
    const int per_owner = instructions_per_k_step(spec);
    const std::string k_step = "per K step (" + std::to_string(spec.block_k) + " of K): ";
    if (spec.work == WorkKind::kFma) {
        return k_step + std::to_string(spec.thread_m * spec.thread_n) + " FFMA per lane per k x " +
               std::to_string(spec.block_k) + " k = " + std::to_string(per_owner) + " per warp, " +
               std::to_string(per_owner * owners) + " per block";
    }
    const std::string owner = spec.work == WorkKind::kWgmma ? "warpgroup" : "warp";
    return k_step + std::to_string(k_substeps(spec)) + " k" + std::to_string(spec.mma_k) +
           " steps x " + std::to_string(per_owner / k_substeps(spec)) + " " + spec.instruction +
           " = " + std::to_string(per_owner) + " per " + owner + ", " +
           std::to_string(per_owner * owners) + " per block";
}

std::string warp_summary(const TileMapSpec& spec) {
    if (spec.warp_layout == WarpLayout::kWarpgroups) {
        const int first_warp = spec.first_consumer_warpgroup * 4;
        const int rows = spec.block_m / spec.consumer_warpgroups;
        std::string text =
            common::count_text(spec.consumer_warpgroups, "consumer warpgroup") + " (warps " +
            range_text(first_warp, spec.consumer_warpgroups * 4) + "), " + std::to_string(rows) +
            " x " + std::to_string(spec.block_n) + " each as " +
            common::count_text(rows / 64 * (spec.block_n / spec.mma_n), spec.instruction) +
            "; warp w of a warpgroup holds rows 16w..16w+15 of each";
        if (first_warp > 0) text += "; warps " + range_text(0, first_warp) + " only load";
        return text;
    }
    const int warps_m = spec.block_m / spec.warp_m;
    const int warps_n = spec.block_n / spec.warp_n;
    std::string text = std::to_string(warps_m * warps_n) + " warps as " + std::to_string(warps_m) +
                       " x " + std::to_string(warps_n) + " (warp w -> row w / " +
                       std::to_string(warps_n) + ", col w % " + std::to_string(warps_n) +
                       "), warp tile " + std::to_string(spec.warp_m) + " x " +
                       std::to_string(spec.warp_n);
    if (spec.work == WorkKind::kFma) {
        text += " = " + std::to_string(spec.lanes_m) + " x " + std::to_string(spec.lanes_n) +
                " lanes of " + std::to_string(spec.thread_m) + " x " +
                std::to_string(spec.thread_n);
        if (spec.sub_m < spec.thread_m || spec.sub_n < spec.thread_n) {
            text += " in " + std::to_string(spec.sub_m) + " x " + std::to_string(spec.sub_n) +
                    " pieces";
        }
    } else {
        text += " = " + std::to_string(spec.warp_m / spec.mma_m) + " x " +
                std::to_string(spec.warp_n / spec.mma_n) + " tiles of " +
                std::to_string(spec.mma_m) + " x " + std::to_string(spec.mma_n);
        if (spec.mma_col_stride > 1) {
            text += " (a tile's 8 columns are every " + std::to_string(spec.mma_col_stride) +
                    "th of a " + std::to_string(spec.mma_n * spec.mma_col_stride) +
                    "-column group)";
        }
        if (spec.serpentine) text += ", issued in serpentine order";
    }
    return text;
}

// Warp colours for a legend: warps `first` .. first + count - 1, at most 12 (the colours
// repeat after that).
std::vector<std::pair<Rgba, std::string>> warp_legend(const Palette& palette, int first, int count,
                                                      const std::string& noun) {
    std::vector<std::pair<Rgba, std::string>> entries;
    const int shown = std::min<int>(count, static_cast<int>(palette.categories.size()));
    for (int w = first; w < first + shown; ++w) {
        entries.emplace_back(category_colour(palette, w), noun + " " + std::to_string(w));
    }
    if (shown < count) entries.emplace_back(kTransparent, "(colours repeat)");
    return entries;
}

// [SECTION] captions, shared by the views and tile_map_summary

// kPersistent: the clusters launched, at most one per cluster tile.
std::int64_t launched_clusters(const TileMapSpec& spec) {
    const std::int64_t cluster_tiles =
        (tiles_m(spec) + spec.cluster_m - 1) / spec.cluster_m * tiles_n(spec);
    return std::min<std::int64_t>(spec.clusters, cluster_tiles);
}

// How blocks walk the tiles.
std::string raster_text(const TileMapSpec& spec) {
    switch (spec.raster) {
        case RasterOrder::kRowMajor:
            return "launch order: row by row (blockIdx.x along N, then down M)";
        case RasterOrder::kColumnBands:
            return "launch order: bands of " + std::to_string(spec.raster_group) +
                   " tile rows, down each column of a band, then the next column (tiles running "
                   "together share A and B in L2)";
        case RasterOrder::kPersistent:
            return "persistent: " + common::count_text(launched_clusters(spec), "cluster") +
                   " of " + std::to_string(spec.cluster_m) +
                   " CTAs (one per SM) take cluster tiles q, q + " + std::to_string(spec.clusters) +
                   ", ... in bands of " + std::to_string(spec.raster_group) +
                   " cluster rows, down each column";
    }
    return "";
}

std::string grid_title(const TileMapSpec& spec) {
    return spec.kernel + ": C " + std::to_string(spec.m) + " x " + std::to_string(spec.n) + " in " +
           std::to_string(tiles_m(spec)) + " x " + std::to_string(tiles_n(spec)) +
           " block tiles of " + std::to_string(spec.block_m) + " x " + std::to_string(spec.block_n);
}

std::string pipeline_text(const TileMapSpec& spec) {
    if (spec.load == LoadKind::kNone) return spec.pipeline_note;
    return common::count_text(spec.stages, "shared-memory stage") + " of " +
           std::to_string(spec.block_k) + " of K; " + spec.pipeline_note;
}

// Who copies what per K tile.
std::string load_summary(const TileMapSpec& spec) {
    const int unit = load_unit_bytes(spec);
    if (spec.load == LoadKind::kNone) return "nothing is copied";
    if (spec.load == LoadKind::kThreads) {
        const int a_per =
            spec.block_m * (spec.block_k * spec.elem_bytes / unit) / spec.copy_threads;
        const int b_per =
            spec.block_k * (spec.block_n * spec.elem_bytes / unit) / spec.copy_threads;
        return std::to_string(spec.copy_threads) + " threads copy " + std::to_string(a_per) +
               " A + " + std::to_string(b_per) + " B units of " + std::to_string(unit) +
               " bytes each per K tile";
    }
    const int b_boxes = tma_b_boxes(spec);
    const int per_cta = tma_b_boxes_per_cta(spec);
    const std::string b_box =
        std::to_string(spec.block_k) + " x " + std::to_string(spec.tma_box_cols);
    std::string text = "per K tile, thread " + std::to_string(spec.tma_thread) + " issues " +
                       common::count_text(spec.block_k / spec.tma_box_cols, "A box") + " of " +
                       std::to_string(spec.block_m) + " x " + std::to_string(spec.tma_box_cols) +
                       " and ";
    if (spec.cluster_m > 1) {
        text += "its CTA's " + std::string(b_boxes % spec.cluster_m == 0 ? "" : "up to ") +
                std::to_string(per_cta) + " of the " + std::to_string(b_boxes) + " B boxes of " +
                b_box + ", multicast to all " + std::to_string(spec.cluster_m) +
                " CTAs of the cluster (the other B boxes "
                "arrive from the other CTAs)";
    } else {
        text += common::count_text(b_boxes, "B box") + " of " + b_box;
    }
    return text + "; no other thread copies";
}

// [SECTION] grid view
void grid_view(Builder& b, const TileMapSpec& spec, const std::vector<BlockTile>& tiles,
               int selected, const TileMapViewOptions& options) {
    const Palette& palette = b.palette();
    const float size = options.size;
    const TileColourKey key = tile_colour_key(spec, tiles, options.colouring, options.sms, palette);
    std::int64_t extent_m = spec.m;
    for (const BlockTile& tile : tiles) {
        if (!tile.inside) extent_m = std::max(extent_m, tile.row + spec.block_m);
    }
    const float scale = size / static_cast<float>(std::max(extent_m, spec.n));
    float y = b.line(kMargin, kMargin, kTitleSize, grid_title(spec));
    y = b.line(kMargin, y, kLineSize, raster_text(spec));
    y = b.line(kMargin, y, kLineSize, key.caption);
    if (spec.raster == RasterOrder::kPersistent) {
        y = b.line(kMargin, y, kLineSize,
                   "schedule order = cluster tile x " + std::to_string(spec.cluster_m) +
                       " + rank; rank r takes the r-th tile row of its cluster's pair");
    }
    y += kSectionGap - kLineGap;

    const float x0 = kMargin;
    const float y0 = y;
    const float gap = gap_for(std::min(spec.block_m, spec.block_n) * scale);
    b.rect(x0, y0, spec.n * scale + gap, spec.m * scale + gap, palette.grid);
    const BlockTile* chosen = nullptr;
    for (const BlockTile& tile : tiles) {
        const float tx = x0 + tile.col * scale;
        const float ty = y0 + tile.row * scale;
        std::string tooltip =
            "block tile " + std::to_string(tile.order) + " (tile row " +
            std::to_string(tile.tile_row) + ", col " + std::to_string(tile.tile_col) +
            "): " + (spec.raster == RasterOrder::kPersistent ? "CTA " : "block ") +
            std::to_string(tile.block);
        if (spec.raster == RasterOrder::kPersistent) {
            tooltip += ", its tile " + std::to_string(tile.round + 1);
        }
        if (!tile.inside) {
            const int hit = b.hit({TileMapHitKind::kBlockTile, tile.order,
                                   tooltip + ", past M: computes zeros, stores nothing"});
            b.rect(tx, ty, spec.block_n * scale, spec.block_m * scale, kTransparent,
                   mix(palette.background, palette.text, 0.5f), 1.0f, hit);
            b.fitted_label(tx, ty, tile.cols * scale, spec.block_m * scale, palette.background,
                           std::to_string(tile.order));
            if (tile.order == selected) chosen = &tile;
            continue;
        }
        tooltip += "; C rows " + range_text(tile.row, tile.rows) + ", cols " +
                   range_text(tile.col, tile.cols);
        const int hit = b.hit({TileMapHitKind::kBlockTile, tile.order, std::move(tooltip)});
        const Rgba fill =
            tile_fill(spec, tile, int(tiles.size()), options.colouring, options.sms, palette);
        b.rect(tx + gap, ty + gap, tile.cols * scale - gap, tile.rows * scale - gap, fill,
               kTransparent, 0.0f, hit);
        b.fitted_label(tx, ty, tile.cols * scale, tile.rows * scale, fill,
                       std::to_string(tile.order));
        if (tile.order == selected) chosen = &tile;
    }
    // The selected tile, and for a persistent kernel every other tile its CTA computes.
    std::vector<int> same_cta;
    for (const BlockTile& tile : tiles) {
        if (!chosen || tile.block != chosen->block) continue;
        same_cta.push_back(tile.order);
        const float h = (tile.inside ? tile.rows : spec.block_m) * scale;
        const float stroke = &tile == chosen ? kSelectedStroke : kSelectedStroke - 1.0f;
        b.rect(x0 + tile.col * scale, y0 + tile.row * scale,
               std::max(tile.cols * scale + gap, 2 * stroke), std::max(h + gap, 2 * stroke),
               kTransparent, palette.highlight, stroke);
    }
    y = y0 + static_cast<float>(extent_m) * scale + kSectionGap;
    if (chosen && spec.raster == RasterOrder::kPersistent) {
        const std::string orders =
            common::join(same_cta, ", ", [](int order) { return std::to_string(order); });
        y = b.line(kMargin, y, kLineSize,
                   "outlined: the " +
                       common::count_text(static_cast<std::int64_t>(same_cta.size()), "tile") +
                       " CTA " + std::to_string(chosen->block) +
                       " computes, one after another: " + orders);
        y += kSectionGap - kLineGap;
    }
    // The key beside the grid, one entry a line.
    const float key_x = x0 + static_cast<float>(spec.n) * scale + gap + kSectionGap;
    b.legend(key_x, y0, 1.0f, key.entries);
}

// [SECTION] block view

// One warp's part of the block (TileMapViewOptions::warp) at (x, y): the block at half `scale`,
// without labels, the warp's tile outlined; right of it that tile alone, as tall as the whole
// block would be at `scale` (no wider than the block), its work tiles numbered. Returns the y
// below them.
float warp_part(Builder& b, const TileMapSpec& spec, const BlockTile& block,
                const WarpRegion& region, float x, float y, float scale) {
    const float block_scale = 0.5f * scale;
    draw_work(b, spec, block, x, y, block_scale, false);
    b.rect(x + region.col * block_scale, y + region.row * block_scale,
           region.cols * block_scale + 1.0f, region.rows * block_scale + 1.0f, kTransparent,
           b.palette().highlight, kSelectedStroke);
    const float warp_x = x + spec.block_n * block_scale + 2.0f * kSectionGap;
    const float warp_scale =
        std::min(spec.block_m * scale / region.rows, spec.block_n * scale / region.cols);
    const float gap = gap_for(smallest_work_side(spec) * warp_scale);
    b.rect(warp_x, y, region.cols * warp_scale + gap, region.rows * warp_scale + gap,
           b.palette().grid);
    const std::vector<WorkTile> tiles = work_tiles(spec);
    for (size_t i = 0; i < tiles.size(); ++i) {
        if (tiles[i].warp != region.warp) continue;
        const int hit =
            b.hit({TileMapHitKind::kWork, static_cast<int>(i), work_tooltip(spec, tiles[i])});
        draw_work_tile(b, spec, tiles[i], warp_x - region.col * warp_scale,
                       y - region.row * warp_scale, warp_scale, gap, hit, true);
    }
    return y + std::max(spec.block_m * block_scale, region.rows * warp_scale);
}

void block_view(Builder& b, const TileMapSpec& spec, const BlockTile& block, float size, int warp) {
    const Palette& palette = b.palette();
    float y = b.line(kMargin, kMargin, kTitleSize, block_title(spec, block));
    y = b.line(kMargin, y, kLineSize, warp_summary(spec));
    y = b.line(kMargin, y, kLineSize, work_summary(spec));
    std::string legend = "colour = warp, number = issue order within the warp in each k" +
                         std::to_string(spec.mma_k) + " step; alternate tiles a shade lighter";
    if (spec.work == WorkKind::kFma)
        legend = "colour = warp, number = lane; lanes alternate shades";
    if (spec.work == WorkKind::kWgmma) {
        legend =
            "colour = warp (its accumulator rows), outline = one wgmma of a warpgroup, "
            "numbered in issue order in each k" +
            std::to_string(spec.mma_k) + " step";
    }
    y = b.line(kMargin, y, kLineSize, legend);
    const float scale = size / static_cast<float>(std::max(spec.block_m, spec.block_n));
    const std::vector<WarpRegion> regions = warp_regions(spec);
    const auto shown = std::find_if(regions.begin(), regions.end(),
                                    [&](const WarpRegion& r) { return r.warp == warp; });
    if (spec.warp_layout == WarpLayout::kGrid && shown != regions.end()) {
        y = b.line(kMargin, y, kLineSize,
                   "shown: warp " + std::to_string(warp) + "'s tile, rows " +
                       range_text(shown->row, shown->rows) + ", cols " +
                       range_text(shown->col, shown->cols) +
                       " of the block (outlined in the block at the left)");
        y += kSectionGap - kLineGap;
        y = warp_part(b, spec, block, *shown, kMargin, y, scale) + kSectionGap;
    } else {
        y += kSectionGap - kLineGap;
        draw_work(b, spec, block, kMargin, y, scale, true);
        y += spec.block_m * scale + kSectionGap;
    }
    if (block.rows < spec.block_m || block.cols < spec.block_n) {
        y = b.line(kMargin, y, kLineSize,
                   "veiled: past the edge of C (computed on zero-filled A and B, never stored)");
    }
    const int first = regions.empty() ? 0 : regions.front().warp;
    const int count = regions.empty() ? 0 : regions.back().warp - first + 1;
    b.legend(kMargin, y, size, warp_legend(palette, first, count, "warp"));
}

// [SECTION] load view
std::string chunk_tooltip(const TileMapSpec& spec, const ChunkCopy& copy, int unit_bytes) {
    std::string text = std::string(1, copy.operand) + " row " + std::to_string(copy.row) +
                       ", bytes " + range_text(std::int64_t{copy.unit} * unit_bytes, unit_bytes) +
                       ": ";
    if (spec.load == LoadKind::kTma) {
        text += "TMA box " + std::to_string(copy.copy) + " issued by thread " +
                std::to_string(copy.thread) + " of CTA rank " + std::to_string(copy.cta);
    } else {
        text += "thread " + std::to_string(copy.thread) + " (warp " +
                std::to_string(copy.thread / kWarpThreads) + "), its copy " +
                std::to_string(copy.copy);
    }
    return text + " -> stage " + std::to_string(copy.stage);
}

void load_view(Builder& b, const TileMapSpec& spec, const BlockTile& block, int step, float size) {
    const Palette& palette = b.palette();
    const int unit = load_unit_bytes(spec);
    const int stage = stage_of(spec, block, step);
    float y = b.line(kMargin, kMargin, kTitleSize, block_title(spec, block));
    y = b.line(kMargin, y, kLineSize,
               "load map of K tile " + std::to_string(step) + " of " +
                   std::to_string(k_tiles(spec)) + " (" + k_range_text(spec, step) + ") -> stage " +
                   std::to_string(stage) + " of " + std::to_string(spec.stages));
    y = b.line(kMargin, y, kLineSize, "how: " + spec.load_instruction);
    if (spec.load == LoadKind::kNone) {
        y = b.line(kMargin, y + kSectionGap, kLineSize,
                   "No shared memory: lane l of warp w reads A row w and B column l itself, "
                   "once per k, every element fetched again by every thread that needs it.");
        return;
    }
    const std::vector<ChunkCopy> copies = load_map(spec, block, step);
    const int a_units = spec.block_k * spec.elem_bytes / unit;
    const int b_units = spec.block_n * spec.elem_bytes / unit;
    y = b.line(kMargin, y, kLineSize,
               load_summary(spec) + (spec.load == LoadKind::kTma
                                         ? "; colour = box"
                                         : "; colour = warp of the copying thread, number = "
                                           "thread"));
    y += kSectionGap - kLineGap;

    // The stage ring: where this K tile lands.
    y = b.line(kMargin, y, kLineSize,
               "shared-memory stages: K tile t lands in stage " +
                   std::string(spec.ring_across_tiles ? "(CTA's running K-tile count) " : "t ") +
                   "mod " + std::to_string(spec.stages));
    const float box_w = 90.0f;
    for (int s = 0; s < spec.stages; ++s) {
        const Rgba fill = s == stage ? stage_state_colour(palette, StageState::kIssuing)
                                     : stage_state_colour(palette, StageState::kEmpty);
        const float x = kMargin + s * (box_w + 8.0f);
        const int hit = b.hit(
            {TileMapHitKind::kStage, s,
             "stage " + std::to_string(s) +
                 (s == stage ? ": receives K tile " + std::to_string(step) : ": other K tiles")});
        b.rect(x, y, box_w, 26.0f, fill, s == stage ? palette.highlight : palette.grid,
               s == stage ? 2.0f : 1.0f, hit);
        b.fitted_label(x, y, box_w, 26.0f, fill, "stage " + std::to_string(s));
    }
    y += 26.0f + kSectionGap;
    if (spec.load == LoadKind::kTma) {
        std::vector<std::pair<Rgba, std::string>> entries{{category_colour(palette, 0), "A box"}};
        for (int j = 0; j < spec.block_n / spec.tma_box_cols; ++j) {
            entries.emplace_back(category_colour(palette, 1 + j), "B box " + std::to_string(j));
        }
        y = b.legend(kMargin, y, 2 * size, entries);
    } else {
        y = b.legend(
            kMargin, y, 2 * size,
            warp_legend(palette, 0, (spec.copy_threads + kWarpThreads - 1) / kWarpThreads, "warp"));
    }

    // Cells: width from the units side by side, height from the taller tile.
    const float cell_w =
        std::clamp(2.0f * size / static_cast<float>(a_units + b_units + 4), 6.0f, 48.0f);
    const float cell_h = std::clamp(size / static_cast<float>(std::max(spec.block_m, spec.block_k)),
                                    spec.load == LoadKind::kThreads ? kMinChunkRow : 2.0f, 16.0f);
    const float a_x = kMargin;
    const float b_x = a_x + a_units * cell_w + 4 * cell_w;
    const float title_y = y;
    b.text(a_x, title_y, kLineSize, palette.text, TextAlign::kLeft,
           "A tile " + std::to_string(spec.block_m) + " x " + std::to_string(spec.block_k));
    b.text(b_x, title_y, kLineSize, palette.text, TextAlign::kLeft,
           "B tile " + std::to_string(spec.block_k) + " x " + std::to_string(spec.block_n));
    const float top = title_y + kLineSize + kLineGap;
    const float gap = gap_for(std::min(cell_w, cell_h));
    b.rect(a_x, top, a_units * cell_w + gap, spec.block_m * cell_h + gap, palette.grid);
    b.rect(b_x, top, b_units * cell_w + gap, spec.block_k * cell_h + gap, palette.grid);
    for (size_t i = 0; i < copies.size(); ++i) {
        const ChunkCopy& copy = copies[i];
        const float x = (copy.operand == 'A' ? a_x : b_x) + copy.unit * cell_w;
        const float cy = top + copy.row * cell_h;
        const int colour = spec.load == LoadKind::kTma ? (copy.operand == 'A' ? 0 : 1 + copy.copy)
                                                       : copy.thread / kWarpThreads;
        const Rgba fill = category_colour(palette, colour);
        const int hit =
            b.hit({TileMapHitKind::kChunk, static_cast<int>(i), chunk_tooltip(spec, copy, unit)});
        b.rect(x + gap, cy + gap, cell_w - gap, cell_h - gap, fill, kTransparent, 0.0f, hit);
        if (spec.load == LoadKind::kThreads) {
            b.fitted_label(x, cy, cell_w, cell_h, fill, std::to_string(copy.thread));
        }
    }
    if (spec.load == LoadKind::kTma) {
        const int box_units = spec.tma_box_cols * spec.elem_bytes / unit;
        const auto box_label = [&](float x, float h, Rgba fill, std::string text) {
            b.fitted_label(x, top, box_units * cell_w, h, fill, text);
        };
        for (int a = 0; a < spec.block_k / spec.tma_box_cols; ++a) {
            box_label(a_x + a * box_units * cell_w, spec.block_m * cell_h,
                      category_colour(palette, 0), "A box " + std::to_string(a));
        }
        const int per_cta = tma_b_boxes_per_cta(spec);
        for (int j = 0; j < tma_b_boxes(spec); ++j) {
            const std::string from =
                spec.cluster_m > 1 ? " (CTA " + std::to_string(j / per_cta) + ")" : "";
            box_label(b_x + j * box_units * cell_w, spec.block_k * cell_h,
                      category_colour(palette, 1 + j), "B box " + std::to_string(j) + from);
        }
    }
}

// [SECTION] K-loop view
std::string slot_text(const StageSlot& slot, const BlockTile& block) {
    if (slot.state == StageState::kEmpty) return "empty";
    std::string text = "K tile " + std::to_string(slot.k_tile);
    if (slot.round != block.round) text += " of next tile";
    return text;
}

void k_loop_view(Builder& b, const TileMapSpec& spec, const BlockTile& block, int step,
                 float size) {
    const Palette& palette = b.palette();
    const int steps = k_tiles(spec);
    float y = b.line(kMargin, kMargin, kTitleSize, block_title(spec, block));
    y = b.line(kMargin, y, kLineSize,
               "K step " + std::to_string(step) + " of " + std::to_string(steps) + " (" +
                   k_range_text(spec, step) +
                   "): every work tile multiplies its part of this "
                   "K tile");
    y = b.line(kMargin, y, kLineSize, work_summary(spec));
    y = b.line(kMargin, y, kLineSize, "pipeline: " + pipeline_text(spec));
    y += kSectionGap - kLineGap;

    const std::vector<StageSlot> ring = stage_ring(spec, block, step);
    // K tile t of this block -> its state at this step.
    const auto state_of = [&](int t) -> std::optional<StageState> {
        for (const StageSlot& slot : ring) {
            if (slot.round == block.round && slot.k_tile == t) return slot.state;
        }
        return std::nullopt;
    };
    const float panel = 0.35f * size;  // the K axis of the A and B panels
    const float c_scale = 0.65f * size / static_cast<float>(std::max(spec.block_m, spec.block_n));
    const float c_w = spec.block_n * c_scale;
    const float c_h = spec.block_m * c_scale;
    const float c_x = kMargin + panel + 12.0f;
    const float b_y = y + kLineSize + kLineGap;
    const float c_y = b_y + panel + 12.0f;
    b.text(c_x, y, kLineSize, palette.text, TextAlign::kLeft,
           "B panel: K x " + std::to_string(spec.block_n));
    b.text(kMargin, c_y - kLineSize - kLineGap, kLineSize, palette.text, TextAlign::kLeft,
           "A panel: " + std::to_string(spec.block_m) + " x K");
    const float tile_k = panel / static_cast<float>(steps);
    const Rgba idle = stage_state_colour(palette, StageState::kEmpty);
    b.rect(kMargin, c_y, panel, c_h, idle);
    b.rect(c_x, b_y, c_w, panel, idle);
    if (step > 0) {
        b.rect(kMargin, c_y, step * tile_k, c_h, done_colour(palette));
        b.rect(c_x, b_y, c_w, step * tile_k, done_colour(palette));
    }
    for (int t = step; t < std::min(steps, step + spec.stages); ++t) {
        const std::optional<StageState> state = state_of(t);
        if (!state) continue;
        const Rgba fill = stage_state_colour(palette, *state);
        const float w = std::max(tile_k, 2.0f);
        const std::string tip = "K tile " + std::to_string(t) + " (" + k_range_text(spec, t) +
                                "): " + stage_state_name(*state) + ", stage " +
                                std::to_string(stage_of(spec, block, t));
        b.rect(kMargin + t * tile_k, c_y, w, c_h, fill, kTransparent, 0.0f,
               b.hit({TileMapHitKind::kKTile, t, tip}));
        b.rect(c_x, b_y + t * tile_k, c_w, w, fill, kTransparent, 0.0f,
               b.hit({TileMapHitKind::kKTile, t, tip}));
    }
    draw_work(b, spec, block, c_x, c_y, c_scale, false);
    y = c_y + c_h + kSectionGap;

    y = b.line(kMargin, y, kLineSize,
               "stages at this step (the kernel runs " + std::to_string(spec.stages - 1) +
                   " K tile" + (spec.stages == 2 ? "" : "s") + " ahead):");
    const float box_w = 128.0f;
    const float box_h = 40.0f;
    for (const StageSlot& slot : ring) {
        const Rgba fill = stage_state_colour(palette, slot.state);
        const float x = kMargin + slot.stage * (box_w + 8.0f);
        const std::string what = slot_text(slot, block);
        const int hit = b.hit({TileMapHitKind::kStage, slot.stage,
                               "stage " + std::to_string(slot.stage) + ": " + what + ", " +
                                   stage_state_name(slot.state)});
        b.rect(x, y, box_w, box_h, fill, palette.grid, 1.0f, hit);
        const Rgba label = label_colour_on(palette, fill);
        b.text(x + 0.5f * box_w, y + 4.0f, kLineSize, label, TextAlign::kCenter,
               "stage " + std::to_string(slot.stage) + ": " + stage_state_name(slot.state));
        b.text(x + 0.5f * box_w, y + 8.0f + kLineSize, kLineSize, label, TextAlign::kCenter, what);
    }
    y += box_h + kSectionGap;
    b.legend(kMargin, y, 2 * size,
             {{done_colour(palette), "done"},
              {stage_state_colour(palette, StageState::kComputing), "computing"},
              {stage_state_colour(palette, StageState::kInFlight), "in flight"},
              {stage_state_colour(palette, StageState::kIssuing), "issuing (copies start)"},
              {stage_state_colour(palette, StageState::kEmpty), "empty / later"}});
}

}  // namespace

const char* tile_map_view_name(TileMapViewKind kind) {
    switch (kind) {
        case TileMapViewKind::kGrid:
            return "grid";
        case TileMapViewKind::kBlock:
            return "block";
        case TileMapViewKind::kLoad:
            return "load";
        case TileMapViewKind::kKLoop:
            return "kloop";
    }
    return "?";
}

std::optional<TileMapViewKind> parse_tile_map_view(const std::string& text) {
    for (TileMapViewKind kind : {TileMapViewKind::kGrid, TileMapViewKind::kBlock,
                                 TileMapViewKind::kLoad, TileMapViewKind::kKLoop}) {
        if (text == tile_map_view_name(kind)) return kind;
    }
    return std::nullopt;
}

Rgba stage_state_colour(const Palette& palette, StageState state) {
    switch (state) {
        case StageState::kComputing:
            return category_colour(palette, 2);
        case StageState::kInFlight:
            return category_colour(palette, 0);
        case StageState::kIssuing:
            return category_colour(palette, 1);
        case StageState::kEmpty:
            break;
    }
    return mix(palette.background, palette.text, 0.12f);
}

const char* stage_state_name(StageState state) {
    switch (state) {
        case StageState::kComputing:
            return "computing";
        case StageState::kInFlight:
            return "in flight";
        case StageState::kIssuing:
            return "issuing";
        case StageState::kEmpty:
            return "empty";
    }
    return "?";
}

Rgba done_colour(const Palette& palette) { return mix(palette.background, palette.text, 0.35f); }

std::vector<std::string> tile_map_summary(const TileMapSpec& spec) {
    return {grid_title(spec),
            raster_text(spec),
            "warps: " + warp_summary(spec),
            "work: " + work_summary(spec),
            "loads: " + spec.load_instruction +
                (spec.load == LoadKind::kNone ? "" : "; " + load_summary(spec)),
            "pipeline: " + pipeline_text(spec)};
}

TileMapView tile_map_view(const TileMapSpec& spec, const TileMapViewOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    Builder b(palette);
    const std::vector<BlockTile> tiles = block_tiles(spec);
    const int selected = std::clamp(options.block, 0, static_cast<int>(tiles.size()) - 1);
    const int step = std::clamp(options.step, 0, k_tiles(spec) - 1);
    switch (options.kind) {
        case TileMapViewKind::kGrid:
            grid_view(b, spec, tiles, selected, options);
            break;
        case TileMapViewKind::kBlock:
            block_view(b, spec, tiles[static_cast<size_t>(selected)], options.size, options.warp);
            break;
        case TileMapViewKind::kLoad:
            load_view(b, spec, tiles[static_cast<size_t>(selected)], step, options.size);
            break;
        case TileMapViewKind::kKLoop:
            k_loop_view(b, spec, tiles[static_cast<size_t>(selected)], step, options.size);
            break;
    }
    return b.finish();
}

}  // namespace tclens::viz
