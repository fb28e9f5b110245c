// Tests for viz/tile_map_view.*: what each view draws, where, in which colour, and what its
// hover targets say. Positions are worked out from the view's contract (tile_map_view.h) and
// the hand-written specs (tile_map_specs.h).
#include "viz/tile_map_view.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/unit/viz/tile_map_specs.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::viz {
namespace {

using namespace test_specs;

TileMapView view_of(const TileMapSpec& spec, TileMapViewKind kind, int block = 0, int step = 0,
                    TileColouring colouring = TileColouring::kWave) {
    TileMapViewOptions options;
    options.kind = kind;
    options.colouring = colouring;
    options.block = block;
    options.step = step;
    return tile_map_view(spec, options);
}

// The rects whose hover target is (kind, index).
std::vector<const DrawRect*> targets(const TileMapView& view, TileMapHitKind kind, int index) {
    std::vector<const DrawRect*> found;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit < 0) continue;
        const TileMapHit& hit = view.hits[static_cast<size_t>(rect.hit)];
        if (hit.kind == kind && hit.index == index) found.push_back(&rect);
    }
    return found;
}

int count_hits(const TileMapView& view, TileMapHitKind kind) {
    int count = 0;
    for (const TileMapHit& hit : view.hits) count += hit.kind == kind;
    return count;
}

bool has_text(const TileMapView& view, const std::string& text) {
    for (const DrawText& t : view.draw.texts) {
        if (t.text == text) return true;
    }
    return false;
}

bool has_text_containing(const TileMapView& view, const std::string& part) {
    for (const DrawText& t : view.draw.texts) {
        if (t.text.find(part) != std::string::npos) return true;
    }
    return false;
}

// The centred label inside `rect`, or "".
std::string label_in(const TileMapView& view, const DrawRect& rect) {
    for (const DrawText& t : view.draw.texts) {
        if (t.align == TextAlign::kCenter && t.x > rect.x && t.x < rect.x + rect.w &&
            t.y >= rect.y && t.y < rect.y + rect.h) {
            return t.text;
        }
    }
    return "";
}

TEST(TileMapView, ViewNamesRoundTrip) {
    for (TileMapViewKind kind : {TileMapViewKind::kGrid, TileMapViewKind::kBlock,
                                 TileMapViewKind::kLoad, TileMapViewKind::kKLoop}) {
        EXPECT_EQ(parse_tile_map_view(tile_map_view_name(kind)), kind);
    }
    EXPECT_EQ(tile_map_view_name(TileMapViewKind::kKLoop), std::string("kloop"));
    EXPECT_FALSE(parse_tile_map_view("Grid").has_value());
}

TEST(TileMapView, GridColoursEachTileByItsBlockAndNumbersItInLaunchOrder) {
    // Rung 8 at 4096^2: 32 x 16 tiles of 128 x 256; C is square, so it is 560 px wide and one
    // tile is 17.5 x 35 px. Order 37 is tile (5, 2) (08_mma_cp_async.cu's worked example).
    const TileMapView view = view_of(rung8(), TileMapViewKind::kGrid, 37, 0, TileColouring::kBlock);
    EXPECT_EQ(count_hits(view, TileMapHitKind::kBlockTile), 32 * 16);
    const std::vector<const DrawRect*> rects = targets(view, TileMapHitKind::kBlockTile, 37);
    ASSERT_EQ(rects.size(), 1u);
    const Palette& palette = dark_palette();
    EXPECT_EQ(rects[0]->fill, category_colour(palette, 37));
    const std::vector<const DrawRect*> first = targets(view, TileMapHitKind::kBlockTile, 0);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_NEAR(rects[0]->x - first[0]->x, 2 * 35.0f, 0.01f);
    EXPECT_NEAR(rects[0]->y - first[0]->y, 5 * 17.5f, 0.01f);
    EXPECT_EQ(label_in(view, *rects[0]), "37");
    // The selected tile is outlined in the highlight colour, at its place.
    int outlines = 0;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.stroke == palette.highlight && rect.stroke_width > 0) {
            ++outlines;
            EXPECT_NEAR(rect.x, first[0]->x - 1 + 2 * 35.0f, 1.01f);
            EXPECT_NEAR(rect.y, first[0]->y - 1 + 5 * 17.5f, 1.01f);
        }
    }
    EXPECT_EQ(outlines, 1);
    EXPECT_TRUE(has_text_containing(view, "bands of 16 tile rows"));
    EXPECT_NE(view.hits[static_cast<size_t>(rects[0]->hit)].text.find("tile row 5, col 2"),
              std::string::npos);
}

// By default a tile's colour is its wave, not an index that means nothing: rung 8's 512 tiles
// on 132 SMs run in four waves (0-131, 132-263, 264-395, 396-511), and the key beside the grid
// names each wave's tiles.
TEST(TileMapView, GridColoursTilesByWaveWithAKey) {
    const TileMapView view = view_of(rung8(), TileMapViewKind::kGrid);
    const Palette& palette = dark_palette();
    for (const auto& [order, wave] : {std::pair{0, 0}, {131, 0}, {132, 1}, {300, 2}, {511, 3}}) {
        const std::vector<const DrawRect*> rects = targets(view, TileMapHitKind::kBlockTile, order);
        ASSERT_EQ(rects.size(), 1u) << order;
        EXPECT_EQ(rects[0]->fill, category_colour(palette, wave)) << order;
    }
    EXPECT_TRUE(has_text_containing(view, "colour = wave (132 tiles at a time"));
    for (const char* key : {"wave 1: tiles 0-131", "wave 4: tiles 396-511"}) {
        EXPECT_TRUE(has_text_containing(view, key)) << key;
    }
    EXPECT_FALSE(has_text_containing(view, "wave 5"));
    // The key's swatches, in the waves' colours.
    int swatches = 0;
    for (const DrawRect& rect : view.draw.rects) {
        swatches += rect.hit < 0 && rect.fill == category_colour(palette, 3);
    }
    EXPECT_EQ(swatches, 1);
}

// A persistent kernel's waves are its CTAs' rounds; by launch order the first tile and the last
// take the ramp's two ends.
TEST(TileMapView, GridColoursAPersistentKernelsRoundsAndTheLaunchOrder) {
    const TileMapSpec spec = rung11(3 * 128, 4 * 256, 128, 3);
    const TileMapView waves = view_of(spec, TileMapViewKind::kGrid);
    for (const BlockTile& tile : block_tiles(spec)) {
        if (!tile.inside) continue;
        const auto rects = targets(waves, TileMapHitKind::kBlockTile, tile.order);
        ASSERT_EQ(rects.size(), 1u);
        EXPECT_EQ(rects[0]->fill, category_colour(dark_palette(), tile.round)) << tile.order;
    }
    const TileMapView order = view_of(rung8(), TileMapViewKind::kGrid, 0, 0, TileColouring::kOrder);
    EXPECT_EQ(targets(order, TileMapHitKind::kBlockTile, 0)[0]->fill,
              category_colour(dark_palette(), 0));
    EXPECT_EQ(targets(order, TileMapHitKind::kBlockTile, 511)[0]->fill,
              category_colour(dark_palette(), 1));
    EXPECT_TRUE(has_text_containing(order, "colour = launch order"));
}

TEST(TileMapView, GridOfPersistentKernelColoursByCtaAndShowsTilesPastM) {
    // 3 tile rows: the second cluster's rank-1 CTA sits below C and is only outlined.
    const TileMapSpec spec = rung11(3 * 128, 4 * 256, 128, 3);
    const TileMapView view = view_of(spec, TileMapViewKind::kGrid, 0, 0, TileColouring::kBlock);
    const std::vector<BlockTile> tiles = block_tiles(spec);
    int outside = 0;
    for (const BlockTile& tile : tiles) {
        const std::vector<const DrawRect*> rects =
            targets(view, TileMapHitKind::kBlockTile, tile.order);
        ASSERT_EQ(rects.size(), 1u);
        if (!tile.inside) {
            ++outside;
            EXPECT_EQ(rects[0]->fill.a, 0);
            EXPECT_NE(view.hits[static_cast<size_t>(rects[0]->hit)].text.find("past M"),
                      std::string::npos);
        } else {
            EXPECT_EQ(rects[0]->fill, category_colour(dark_palette(), tile.block));
        }
    }
    EXPECT_EQ(outside, 4);  // one per column
    EXPECT_TRUE(has_text_containing(view, "persistent: 3 clusters of 2 CTAs"));
}

TEST(TileMapView, BlockViewFillsWorkTilesByWarpAndStripesInterleavedColumns) {
    const TileMapSpec spec = rung6();
    const TileMapView view = view_of(spec, TileMapViewKind::kBlock);
    const std::vector<WorkTile> tiles = work_tiles(spec);
    EXPECT_EQ(count_hits(view, TileMapHitKind::kWork), static_cast<int>(tiles.size()));
    // Warp 1, index 9: one strip per column, 4 columns apart, in warp 1's colour, a shade
    // lighter (odd index).
    for (size_t i = 0; i < tiles.size(); ++i) {
        if (tiles[i].warp != 1 || tiles[i].index != 9) continue;
        const std::vector<const DrawRect*> strips =
            targets(view, TileMapHitKind::kWork, static_cast<int>(i));
        ASSERT_EQ(strips.size(), 8u);
        const float column = strips[1]->x - strips[0]->x;
        EXPECT_NEAR(column, 4 * strips[0]->w, 0.01f);
        const Palette& palette = dark_palette();
        EXPECT_EQ(strips[0]->fill, mix(category_colour(palette, 1), palette.text, 0.18f));
    }
    EXPECT_TRUE(has_text_containing(view, "every 4th of a 32-column group"));
    EXPECT_TRUE(has_text_containing(view, "4 k8 steps x 24 mma.sync.m16n8k8.tf32 = 96 per warp"));
}

TEST(TileMapView, BlockViewLabelsMmaTilesWithTheirIssueOrder) {
    const TileMapSpec spec = rung8();
    const TileMapView view = view_of(spec, TileMapViewKind::kBlock);
    const std::vector<WorkTile> tiles = work_tiles(spec);
    // Warp 0's serpentine: index 8 sits at (16, 56); its rect is labelled "#8".
    for (size_t i = 0; i < tiles.size(); ++i) {
        if (tiles[i].warp != 0 || tiles[i].index != 8) continue;
        const std::vector<const DrawRect*> rects =
            targets(view, TileMapHitKind::kWork, static_cast<int>(i));
        ASSERT_EQ(rects.size(), 1u);
        EXPECT_EQ(label_in(view, *rects[0]), "#8");
        EXPECT_NE(view.hits[static_cast<size_t>(rects[0]->hit)].text.find("rows 16-31, cols 56-63"),
                  std::string::npos);
    }
    EXPECT_TRUE(has_text_containing(view, "= 128 per warp, 1024 per block"));
}

// One warp's part (options.warp): only that warp's work tiles are hover targets, each as large
// as the whole block's height allows and numbered at the largest label size, beside the block
// drawn at half size without labels.
TEST(TileMapView, BlockViewOfOneWarpShowsItsTilesLargeAndNumbered) {
    const TileMapSpec spec = rung8();
    TileMapViewOptions options;
    options.kind = TileMapViewKind::kBlock;
    options.warp = 1;
    const TileMapView part = tile_map_view(spec, options);
    const TileMapView whole = view_of(spec, TileMapViewKind::kBlock);
    const std::vector<WorkTile> tiles = work_tiles(spec);
    int shown = 0;
    for (size_t i = 0; i < tiles.size(); ++i) {
        const std::vector<const DrawRect*> rects =
            targets(part, TileMapHitKind::kWork, static_cast<int>(i));
        if (tiles[i].warp != 1) {
            EXPECT_TRUE(rects.empty()) << "a tile of warp " << tiles[i].warp;
            continue;
        }
        ASSERT_EQ(rects.size(), 1u);
        const DrawRect& big = *rects[0];
        const DrawRect& small = *targets(whole, TileMapHitKind::kWork, static_cast<int>(i))[0];
        EXPECT_GT(big.w, 1.9f * small.w);  // the warp tile is a quarter of the block's rows
        EXPECT_EQ(label_in(part, big), "#" + std::to_string(tiles[i].index));
        ++shown;
    }
    EXPECT_EQ(shown, (spec.warp_m / spec.mma_m) * (spec.warp_n / spec.mma_n));
    float smallest = 1e9f;
    for (const DrawText& text : part.draw.texts) smallest = std::min(smallest, text.size);
    EXPECT_GE(smallest, 12.0f);  // the caption lines' size: nothing smaller to read
    EXPECT_TRUE(has_text_containing(part, "shown: warp 1's tile"));
}

TEST(TileMapView, WgmmaBlockViewOutlinesWarpgroupTilesOverWarpBands) {
    const TileMapView view = view_of(rung10(), TileMapViewKind::kBlock);
    EXPECT_EQ(count_hits(view, TileMapHitKind::kWork), 2);
    for (int warp = 4; warp < 12; ++warp) {
        EXPECT_TRUE(has_text(view, "warp " + std::to_string(warp))) << warp;
    }
    EXPECT_FALSE(has_text(view, "warp 3"));
    EXPECT_TRUE(has_text(view, "warpgroup 1: wgmma.m64n256k16 #0"));
    EXPECT_TRUE(has_text(view, "warpgroup 2: wgmma.m64n256k16 #0"));
    EXPECT_TRUE(has_text_containing(view, "warps 0-3 only load"));
}

TEST(TileMapView, EdgeBlockIsVeiledPastC) {
    // 200 x 300 with 128 x 256 tiles: tile 3 is rows 128-199, cols 256-299.
    const TileMapSpec spec = rung8(200, 300, 64);
    const std::vector<BlockTile> tiles = block_tiles(spec);
    int edge = -1;
    for (const BlockTile& t : tiles) {
        if (t.tile_row == 1 && t.tile_col == 1) edge = t.order;
    }
    const TileMapView view = view_of(spec, TileMapViewKind::kBlock, edge);
    int veils = 0;
    for (const DrawRect& rect : view.draw.rects) {
        veils += rect.fill.a > 0 && rect.fill.a < 255;
    }
    EXPECT_EQ(veils, 2);
    EXPECT_TRUE(has_text_containing(view, "past the edge of C"));
}

TEST(TileMapView, LoadViewLabelsEachChunkWithItsThread) {
    const TileMapSpec spec = rung8();
    const BlockTile tile = block_tiles(spec)[0];
    const TileMapView view = view_of(spec, TileMapViewKind::kLoad, 0, 5);
    const std::vector<ChunkCopy> map = load_map(spec, tile, 5);
    EXPECT_EQ(count_hits(view, TileMapHitKind::kChunk), static_cast<int>(map.size()));
    for (size_t i = 0; i < map.size(); ++i) {
        if (map[i].operand != 'A' || map[i].row != 33 || map[i].unit != 1) continue;
        const std::vector<const DrawRect*> rects =
            targets(view, TileMapHitKind::kChunk, static_cast<int>(i));
        ASSERT_EQ(rects.size(), 1u);
        EXPECT_EQ(label_in(view, *rects[0]), "9");
        EXPECT_EQ(rects[0]->fill, category_colour(dark_palette(), 0));  // thread 9: warp 0
        EXPECT_EQ(view.hits[static_cast<size_t>(rects[0]->hit)].text,
                  "A row 33, bytes 16-31: thread 9 (warp 0), its copy 1 -> stage 1");
    }
    // K tile 5 lands in stage 1: its box is the issuing colour, the others empty.
    const Palette& palette = dark_palette();
    for (int s = 0; s < 4; ++s) {
        const std::vector<const DrawRect*> box = targets(view, TileMapHitKind::kStage, s);
        ASSERT_EQ(box.size(), 1u);
        EXPECT_EQ(box[0]->fill,
                  stage_state_colour(palette, s == 1 ? StageState::kIssuing : StageState::kEmpty));
    }
}

TEST(TileMapView, TmaLoadViewNamesBoxesAndTheirCta) {
    const TileMapSpec spec = rung11();
    const TileMapView view = view_of(spec, TileMapViewKind::kLoad, 1);  // rank 1
    EXPECT_TRUE(has_text(view, "A box 0"));
    EXPECT_TRUE(has_text(view, "B box 1 (CTA 0)"));
    EXPECT_TRUE(has_text(view, "B box 3 (CTA 1)"));
    EXPECT_TRUE(has_text_containing(view, "multicast to all 2 CTAs of the cluster"));
    EXPECT_EQ(count_hits(view, TileMapHitKind::kChunk), 128 * 8 + 64 * 32);
}

TEST(TileMapView, NaiveKernelHasNoLoadMapAndSaysSo) {
    TileMapSpec spec = rung3();
    spec.load = LoadKind::kNone;
    spec.load_instruction = "none";
    const TileMapView view = view_of(spec, TileMapViewKind::kLoad);
    EXPECT_EQ(count_hits(view, TileMapHitKind::kChunk), 0);
    EXPECT_TRUE(has_text_containing(view, "No shared memory"));
}

TEST(TileMapView, KLoopShowsWhatEachStageHolds) {
    const TileMapSpec spec = rung8();  // 64 K tiles, 4 stages
    const TileMapView view = view_of(spec, TileMapViewKind::kKLoop, 0, 10);
    const Palette& palette = dark_palette();
    // Stage 2 computes tile 10, stage 1 is refilled with tile 13 (viz/tile_map.h's example).
    const std::vector<const DrawRect*> two = targets(view, TileMapHitKind::kStage, 2);
    ASSERT_EQ(two.size(), 1u);
    EXPECT_EQ(two[0]->fill, stage_state_colour(palette, StageState::kComputing));
    EXPECT_EQ(view.hits[static_cast<size_t>(two[0]->hit)].text, "stage 2: K tile 10, computing");
    const std::vector<const DrawRect*> one = targets(view, TileMapHitKind::kStage, 1);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0]->fill, stage_state_colour(palette, StageState::kIssuing));
    EXPECT_TRUE(has_text(view, "K tile 13"));
    // K tiles 10..13 drawn on both panels; tiles before 10 as one done band on each (the
    // legend's swatch has an outline).
    for (int t = 10; t < 14; ++t) {
        EXPECT_EQ(targets(view, TileMapHitKind::kKTile, t).size(), 2u) << t;
    }
    EXPECT_TRUE(targets(view, TileMapHitKind::kKTile, 9).empty());
    int done = 0;
    for (const DrawRect& rect : view.draw.rects) {
        done += rect.fill == done_colour(palette) && rect.stroke_width == 0;
    }
    EXPECT_EQ(done, 2);
}

TEST(TileMapView, KLoopOfPersistentKernelShowsTheNextTilesLoads) {
    const TileMapSpec spec = rung11(4 * 128, 2 * 256, 3 * 64, 2);
    const TileMapView view = view_of(spec, TileMapViewKind::kKLoop, 0, 2);
    EXPECT_TRUE(has_text(view, "K tile 0 of next tile"));
    EXPECT_TRUE(has_text_containing(view, "(its tile 1 of 2)"));
}

TEST(TileMapView, StepAndBlockAreClamped) {
    const TileMapSpec spec = rung8(256, 256, 128);  // 2 x 1 tiles, 2 K tiles
    const TileMapView far = view_of(spec, TileMapViewKind::kKLoop, 99, 99);
    const TileMapView last = view_of(spec, TileMapViewKind::kKLoop, 1, 1);
    ASSERT_EQ(far.draw.texts.size(), last.draw.texts.size());
    for (size_t i = 0; i < far.draw.texts.size(); ++i) {
        EXPECT_EQ(far.draw.texts[i].text, last.draw.texts[i].text);
    }
}

TEST(TileMapView, EveryViewExportsToSvgAndPng) {
    for (TileMapViewKind kind : {TileMapViewKind::kGrid, TileMapViewKind::kBlock,
                                 TileMapViewKind::kLoad, TileMapViewKind::kKLoop}) {
        for (const TileMapSpec& spec : every_spec(1000, 777, 300)) {
            SCOPED_TRACE(spec.kernel + " " + tile_map_view_name(kind));
            const TileMapView view = view_of(spec, kind, 1, 2);
            EXPECT_GT(view.draw.width, 100);
            EXPECT_GT(view.draw.height, 100);
            const std::string svg = to_svg(view.draw);
            EXPECT_NE(svg.find("<rect"), std::string::npos);
            const RgbaImage image = rasterize(view.draw, 0.25f);
            EXPECT_GT(image.width, 0);
            for (const DrawRect& rect : view.draw.rects) {
                ASSERT_LE(rect.x + rect.w, view.draw.width);
                ASSERT_LE(rect.y + rect.h, view.draw.height);
            }
        }
    }
}

// The largest grid (65,536 tiles: rung 3's 128 x 128 at 32768^2) draws one filled rect and one
// hover target per tile and nothing else that grows with the tile count: no labels on its
// 2-pixel tiles. Against a quarter of it (16384^2), the extra records are exactly the extra
// tiles. How long it takes is measured by bench/viz/tile_map_view_bench.cpp, not here.
TEST(TileMapView, LargestGridDrawsOneRectPerTileAndNothingElsePerTile) {
    const TileMapSpec spec = rung3(32768, 32768, 8);
    ASSERT_EQ(validate_tile_map_spec(spec), "");
    const TileMapView large = view_of(spec, TileMapViewKind::kGrid);
    const TileMapView quarter = view_of(rung3(16384, 16384, 8), TileMapViewKind::kGrid);
    EXPECT_EQ(count_hits(large, TileMapHitKind::kBlockTile), 65536);
    EXPECT_EQ(large.hits.size(), 65536u);
    for (int order : {0, 255, 256, 65535}) {
        EXPECT_EQ(targets(large, TileMapHitKind::kBlockTile, order).size(), 1u) << order;
    }
    EXPECT_EQ(large.draw.rects.size() - quarter.draw.rects.size(), 65536u - 16384u);
    EXPECT_EQ(large.draw.texts.size(), quarter.draw.texts.size());
    EXPECT_LT(large.draw.texts.size(), 40u) << "titles, captions and legend only";
}

}  // namespace
}  // namespace tclens::viz
