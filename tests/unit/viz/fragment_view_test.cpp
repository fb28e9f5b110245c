// Tests for viz/fragment_view.*.
//
// Expected owners of cells are written by hand from the PTX ISA ("Matrix Fragments for
// mma.m16n8k8" with .tf32: groupID = lane >> 2, threadID_in_group = lane % 4;
// a0 = (g, t), a1 = (g + 8, t), a2 = (g, t + 4), a3 = (g + 8, t + 4); b0 = (t, g),
// b1 = (t + 4, g); c0 = (g, 2t), c1 = (g, 2t + 1), c2 = (g + 8, 2t), c3 = (g + 8, 2t + 1)),
// never computed with the code under test.
#include "viz/fragment_view.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace tclens::viz {
namespace {

FragmentLayout fragment_layout_of(const std::string& id) {
    std::optional<FragmentLayout> layout = fragment_layout(id);
    EXPECT_TRUE(layout.has_value()) << id;
    return layout ? *layout : FragmentLayout{};
}

// The rect of element (row, col) of `op`, found through its hit target.
const DrawRect* cell_rect(const FragmentView& view, const FragmentLayout& layout, Operand op,
                          int row, int col) {
    const OperandLayout* operand = layout.find(op);
    if (!operand) return nullptr;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit < 0) continue;
        const FragmentHit& hit = view.hits[size_t(rect.hit)];
        if (hit.element == kLaneOnlyHit || hit.operand != op) continue;
        const LayoutElement& e = operand->elements[size_t(hit.element)];
        if (e.row == row && e.col == col) return &rect;
    }
    return nullptr;
}

const FragmentHit* hit_of(const FragmentView& view, const DrawRect* rect) {
    return rect && rect->hit >= 0 ? &view.hits[size_t(rect->hit)] : nullptr;
}

bool has_text(const FragmentView& view, const std::string& text) {
    for (const DrawText& t : view.draw.texts) {
        if (t.text == text) return true;
    }
    return false;
}

int count_rects(const FragmentView& view, bool (*predicate)(const DrawRect&)) {
    int count = 0;
    for (const DrawRect& rect : view.draw.rects) count += predicate(rect);
    return count;
}

TEST(FragmentView, RegisterNamesFollowPtxOperandLetters) {
    EXPECT_EQ(register_name(Operand::A, 0), "a0");
    EXPECT_EQ(register_name(Operand::B, 1), "b1");
    EXPECT_EQ(register_name(Operand::C, 2), "c2");
    EXPECT_EQ(register_name(Operand::D, 127), "d127");
}

TEST(FragmentView, MmaTf32DrawsOneCellPerElementPlusTheLaneStrip) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    const FragmentView view = fragment_view(layout, {});
    // A 16x8 + B 8x8 + C/D 16x8 (drawn once) + 32 lanes, each block on one grid backdrop.
    EXPECT_EQ(view.draw.rects.size(), 128u + 64u + 128u + 32u + 4u);
    EXPECT_EQ(view.hits.size(), 128u + 64u + 128u + 32u);
    EXPECT_EQ(
        count_rects(view,
                    [](const DrawRect& r) { return r.hit < 0 && r.fill == dark_palette().grid; }),
        4);
    EXPECT_TRUE(has_text(view, "A 16x8 tf32"));
    EXPECT_TRUE(has_text(view, "B 8x8 tf32"));
    EXPECT_TRUE(has_text(view, "C/D 16x8 f32"));
    EXPECT_TRUE(has_text(view, "lanes"));
    // Two label lines per element cell, one per lane cell, four titles.
    EXPECT_EQ(view.draw.texts.size(), 2u * 320u + 32u + 4u);
    EXPECT_EQ(view.draw.background, dark_palette().background);
}

TEST(FragmentView, CellsSitAtTheirMatrixCoordinatesAndNameTheirOwner) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    FragmentViewOptions options;
    options.cell = 30.0f;
    const FragmentView view = fragment_view(layout, options);
    const DrawRect* origin = cell_rect(view, layout, Operand::A, 0, 0);
    const DrawRect* a1 = cell_rect(view, layout, Operand::A, 9, 1);  // lane 5, a1
    ASSERT_TRUE(origin && a1);
    EXPECT_FLOAT_EQ(a1->x - origin->x, 30.0f);
    EXPECT_FLOAT_EQ(a1->y - origin->y, 9 * 30.0f);
    EXPECT_FLOAT_EQ(a1->w, 30.0f - 1.0f);  // inset by the 1-pixel grid line on its left
    EXPECT_EQ(hit_of(view, a1)->lane, 5);
    // B sits right of A, C/D right of B, all top-aligned.
    const DrawRect* b = cell_rect(view, layout, Operand::B, 0, 0);
    const DrawRect* c = cell_rect(view, layout, Operand::C, 0, 0);
    ASSERT_TRUE(b && c);
    EXPECT_GE(b->x, origin->x + 8 * 30.0f);
    EXPECT_GE(c->x, b->x + 8 * 30.0f);
    EXPECT_FLOAT_EQ(b->y, origin->y);
    EXPECT_FLOAT_EQ(c->y, origin->y);
    EXPECT_LE(c->x + 8 * 30.0f, view.draw.width);
    // The labels of lane 5's a1 cell.
    EXPECT_TRUE(has_text(view, "T5"));
    EXPECT_TRUE(has_text(view, "a1"));
}

TEST(FragmentView, ColourByRegisterSeparatesQuadrantsAndStripes) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    const FragmentView view = fragment_view(layout, {});
    const Palette& palette = dark_palette();
    const DrawRect* a0 = cell_rect(view, layout, Operand::A, 0, 0);
    const DrawRect* a1 = cell_rect(view, layout, Operand::A, 8, 0);
    const DrawRect* a2 = cell_rect(view, layout, Operand::A, 0, 4);
    ASSERT_TRUE(a0 && a1 && a2);
    EXPECT_EQ(a0->fill, palette.categories[0]);
    EXPECT_EQ(a1->fill, palette.categories[1]);
    EXPECT_EQ(a2->fill, palette.categories[2]);
    EXPECT_NE(a0->fill, a1->fill);
    EXPECT_NE(a0->fill, a2->fill);
    // B: two halves, b0 on top.
    EXPECT_EQ(cell_rect(view, layout, Operand::B, 3, 7)->fill, palette.categories[0]);
    EXPECT_EQ(cell_rect(view, layout, Operand::B, 4, 0)->fill, palette.categories[1]);
    // C: even and odd column stripes are c0 and c1 of one lane.
    const DrawRect* c0 = cell_rect(view, layout, Operand::C, 0, 0);
    const DrawRect* c1 = cell_rect(view, layout, Operand::C, 0, 1);
    ASSERT_TRUE(c0 && c1);
    EXPECT_EQ(c0->fill, palette.categories[0]);
    EXPECT_EQ(c1->fill, palette.categories[1]);
    EXPECT_EQ(cell_rect(view, layout, Operand::C, 8, 2)->fill, palette.categories[2]);
}

TEST(FragmentView, ColourByLaneAndByThreadGroup) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    FragmentViewOptions options;
    options.colouring = FragmentColouring::kLane;
    FragmentView view = fragment_view(layout, options);
    const Palette& palette = dark_palette();
    // c0 and c1 of lane 0 share its colour; A (0,1) is lane 1.
    EXPECT_EQ(cell_rect(view, layout, Operand::C, 0, 0)->fill,
              cell_rect(view, layout, Operand::C, 0, 1)->fill);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 0, 1)->fill, palette.categories[1]);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 9, 5)->fill, palette.categories[5]);

    options.colouring = FragmentColouring::kThreadGroup;
    view = fragment_view(layout, options);
    // Lanes 0..3 are group 0 (row 0 of A), lane 4 starts group 1 (row 1).
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 0, 0)->fill, palette.categories[0]);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 0, 3)->fill, palette.categories[0]);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 1, 0)->fill, palette.categories[1]);
    // The lane strip follows lane-based colourings.
    EXPECT_EQ(view.draw.rects.back().fill, palette.categories[31 / 4]);
}

TEST(FragmentView, ColourBySubSeparatesHalvesOfAPackedRegister) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k16.f16");
    FragmentViewOptions options;
    options.colouring = FragmentColouring::kSub;
    const FragmentView view = fragment_view(layout, options);
    // a0 of lane 0 packs A (0,0) (low half) and A (0,1) (high half).
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 0, 0)->fill, dark_palette().categories[0]);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 0, 1)->fill, dark_palette().categories[1]);
    EXPECT_TRUE(has_text(view, "a0.1"));
    EXPECT_TRUE(has_text(view, "A 16x16 f16"));
}

TEST(FragmentView, HighlightLaneOutlinesExactlyThatLanesCells) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    FragmentViewOptions options;
    options.highlight_lane = 5;
    const FragmentView view = fragment_view(layout, options);
    const Palette& palette = dark_palette();
    int outlined = 0;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.stroke != palette.highlight) continue;
        ++outlined;
        EXPECT_GT(rect.stroke_width, 1.0f);
        ASSERT_GE(rect.hit, 0);
        EXPECT_EQ(view.hits[size_t(rect.hit)].lane, 5);
    }
    // a0..a3, b0..b1, c0..c3 and the lane-strip cell.
    EXPECT_EQ(outlined, 4 + 2 + 4 + 1);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 9, 5)->stroke, palette.highlight);
    EXPECT_EQ(cell_rect(view, layout, Operand::B, 5, 1)->stroke, palette.highlight);
    EXPECT_EQ(cell_rect(view, layout, Operand::C, 9, 3)->stroke, palette.highlight);
    EXPECT_EQ(cell_rect(view, layout, Operand::C, 9, 4)->stroke_width, 0.0f);  // grid shows
}

TEST(FragmentView, LaneStripHitsCarryTheLane) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    const FragmentView view = fragment_view(layout, {});
    int lane = 0;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit < 0) continue;  // backdrops
        const FragmentHit& hit = view.hits[size_t(rect.hit)];
        if (hit.element != kLaneOnlyHit) continue;
        EXPECT_EQ(hit.lane, lane++);
    }
    EXPECT_EQ(lane, 32);
}

TEST(FragmentView, LaneTooltipListsEveryRegisterOfTheLane) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    const std::string tooltip = lane_tooltip(layout, 5);
    EXPECT_NE(tooltip.find("a0=(1,1) a1=(9,1) a2=(1,5) a3=(9,5)"), std::string::npos) << tooltip;
    EXPECT_EQ(tooltip,
              "lane 5: a0=(1,1) a1=(9,1) a2=(1,5) a3=(9,5) | b0=(1,1) b1=(5,1) | "
              "c0=(1,2) c1=(1,3) c2=(9,2) c3=(9,3)");
    EXPECT_EQ(lane_tooltip(layout, 32), "lane 32: no such lane (0..31)");
}

TEST(FragmentView, LaneTooltipGroupsPackedElementsByRegister) {
    // m16n8k16.f16, lane 0: a0 = (0,0),(0,1); a1 = (8,0),(8,1).
    const std::string tooltip = lane_tooltip(fragment_layout_of("mma.m16n8k16.f16"), 0);
    EXPECT_EQ(tooltip.rfind("lane 0: a0=(0,0),(0,1) a1=(8,0),(8,1) ", 0), 0u) << tooltip;
}

TEST(FragmentView, LdmatrixShowsWhichLaneSuppliesEachRowAddress) {
    const FragmentLayout layout = fragment_layout_of("ldmatrix.x4");
    FragmentViewOptions options;
    options.highlight_lane = 9;
    const FragmentView view = fragment_view(layout, options);
    // D 32x8 + 32 address cells + 32 lanes, and a backdrop behind each of the three blocks.
    EXPECT_EQ(view.draw.rects.size(), 256u + 32u + 32u + 3u);
    EXPECT_TRUE(has_text(view, "D 32x8 b16"));
    EXPECT_TRUE(has_text(view, "addr"));
    // The address column is left of the tile, row r at the height of tile row r.
    const DrawRect* tile_origin = cell_rect(view, layout, Operand::D, 0, 0);
    ASSERT_TRUE(tile_origin);
    int address_cells = 0;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit < 0) continue;  // backdrops
        const FragmentHit& hit = view.hits[size_t(rect.hit)];
        if (hit.element != kLaneOnlyHit || rect.x >= tile_origin->x) continue;
        if (rect.y >= tile_origin->y + 32 * 28.0f) continue;  // the lane strip is below
        ++address_cells;
        const int row = static_cast<int>((rect.y - tile_origin->y) / 28.0f + 0.5f);
        EXPECT_EQ(hit.lane, layout.address_lanes[size_t(row)]);
        EXPECT_EQ(rect.stroke == dark_palette().highlight, hit.lane == 9);
    }
    EXPECT_EQ(address_cells, 32);
    EXPECT_TRUE(has_text(view, "d3.1"));  // matrix 3 arrives in d3, two b16 per register
    const std::string tooltip = lane_tooltip(layout, 9);
    EXPECT_EQ(tooltip.rfind("lane 9: d0=", 0), 0u) << tooltip;
    EXPECT_NE(tooltip.find(" | addr row 9"), std::string::npos) << tooltip;
}

TEST(FragmentView, WgmmaN256HasWarpBandsA128LaneStripAndNoCellLabels) {
    const FragmentLayout layout = fragment_layout_of("wgmma.m64n256k16.f16");
    FragmentViewOptions options;
    options.highlight_lane = 37;
    const auto start = std::chrono::steady_clock::now();
    const FragmentView view = fragment_view(layout, options);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("fragment_view(wgmma.m64n256k16.f16): %.3f ms, %zu rects\n", ms,
                view.draw.rects.size());
    // A 64x16 + D 64x256 + 4 warp bands on each + 128 lanes + 3 backdrops (A, D, strip).
    EXPECT_EQ(view.draw.rects.size(), 1024u + 16384u + 8u + 128u + 3u);
    EXPECT_EQ(view.hits.size(), 1024u + 16384u + 128u);
    EXPECT_TRUE(has_text(view, "A 64x16 f16"));
    EXPECT_TRUE(has_text(view, "D 64x256 f32"));
    EXPECT_TRUE(has_text(view, "warp 3"));
    EXPECT_FALSE(has_text(view, "T5"));  // too many cells for labels
    // Titles, "lanes", 4 + 4 warp labels, 128 lane numbers.
    EXPECT_EQ(view.draw.texts.size(), 3u + 8u + 128u);

    // Bands: outline only, warp w over rows 16w..16w+15.
    const int bands =
        count_rects(view, [](const DrawRect& r) { return r.hit < 0 && r.fill.a == 0; });
    EXPECT_EQ(bands, 8);
    const DrawRect* row16 = cell_rect(view, layout, Operand::D, 16, 0);
    const DrawRect* row31 = cell_rect(view, layout, Operand::D, 31, 255);
    ASSERT_TRUE(row16 && row31);
    bool found_band1 = false;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit >= 0 || rect.fill.a != 0) continue;  // cells and backdrops
        // Bands follow the block's outer edge; cells sit inset by the 1-pixel grid line.
        found_band1 |= rect.y == row16->y - 1.0f && rect.x == row16->x - 1.0f &&
                       rect.x + rect.w == row31->x + row31->w &&
                       rect.y + rect.h == row31->y + row31->h;
    }
    EXPECT_TRUE(found_band1);

    // Lane 37 (warp 1): 4 A registers x 2 halves, 128 D registers, one strip cell.
    const int outlined =
        count_rects(view, [](const DrawRect& r) { return r.stroke == dark_palette().highlight; });
    EXPECT_EQ(outlined, 8 + 128 + 1);
    EXPECT_EQ(lane_tooltip(layout, 37).rfind("lane 37 (warp 1): a0=", 0), 0u);
}

TEST(FragmentView, WgmmaLaneStripHasOneRowPerWarp) {
    const FragmentLayout layout = fragment_layout_of("wgmma.m64n8k16.f16");
    const FragmentView view = fragment_view(layout, {});
    std::vector<const DrawRect*> strip;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit >= 0 && view.hits[size_t(rect.hit)].element == kLaneOnlyHit) {
            strip.push_back(&rect);
        }
    }
    ASSERT_EQ(strip.size(), 128u);
    EXPECT_FLOAT_EQ(strip[32]->x, strip[0]->x);
    EXPECT_GT(strip[32]->y, strip[0]->y);
    EXPECT_FLOAT_EQ(strip[37]->y, strip[32]->y);
    EXPECT_FLOAT_EQ(strip[127]->y - strip[0]->y, 3 * (strip[0]->h + 1.0f));  // + grid line
    // 64 x 8 + 1024 element cells: few enough for labels.
    EXPECT_TRUE(has_text(view, "T127"));
    EXPECT_TRUE(has_text(view, "d3"));
}

TEST(FragmentView, APartShowsOnlyItsOperandWithoutTheLaneStrip) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    FragmentViewOptions options;
    options.operands = "A";
    const FragmentView view = fragment_view(layout, options);
    // A 16x8 on its backdrop; no B, C/D or lanes.
    EXPECT_EQ(view.draw.rects.size(), 128u + 1u);
    EXPECT_TRUE(has_text(view, "A 16x8 tf32"));
    EXPECT_FALSE(has_text(view, "B 8x8 tf32"));
    EXPECT_FALSE(has_text(view, "lanes"));
    // a1 = (g + 8, t): lane 5 (g 1, t 1) holds (9, 1), still at its place.
    const FragmentHit* hit = hit_of(view, cell_rect(view, layout, Operand::A, 9, 1));
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->lane, 5);
    // C and D are drawn once, as C/D: either letter picks that block.
    for (const std::string letter : {"C", "D"}) {
        options.operands = letter;
        const FragmentView cd = fragment_view(layout, options);
        EXPECT_TRUE(has_text(cd, "C/D 16x8 f32")) << letter;
        EXPECT_EQ(cd.draw.rects.size(), 128u + 1u) << letter;
    }
}

TEST(FragmentView, AWarpsBandShowsItsSixteenRowsAtTheTop) {
    const FragmentLayout layout = fragment_layout_of("wgmma.m64n16k16.f16");
    FragmentViewOptions options;
    options.operands = "D";
    options.warp = 1;
    const FragmentView view = fragment_view(layout, options);
    // 16 rows x 16 columns of D, on one backdrop; warp 1 holds rows 16..31, drawn from the top.
    EXPECT_EQ(view.draw.rects.size(), 256u + 1u);
    EXPECT_TRUE(has_text(view, "D 64x16 f32, warp 1: rows 16-31"));
    EXPECT_FALSE(has_text(view, "warp 0"));
    const DrawRect* first = cell_rect(view, layout, Operand::D, 16, 0);
    const DrawRect* last = cell_rect(view, layout, Operand::D, 31, 15);
    ASSERT_NE(first, nullptr);
    ASSERT_NE(last, nullptr);
    EXPECT_EQ(cell_rect(view, layout, Operand::D, 15, 0), nullptr);
    EXPECT_EQ(cell_rect(view, layout, Operand::D, 32, 0), nullptr);
    EXPECT_FLOAT_EQ(last->y - first->y, 15 * options.cell);
    EXPECT_LT(first->y, 3 * options.cell);
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit < 0) continue;
        const FragmentHit& hit = view.hits[size_t(rect.hit)];
        EXPECT_EQ(hit.lane / 32, 1) << "lane " << hit.lane << " is not warp 1's";
    }
}

TEST(FragmentView, LabelsAreLeftOutWhenOffOrTooSmall) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    FragmentViewOptions options;
    options.labels = false;
    EXPECT_EQ(fragment_view(layout, options).draw.texts.size(), 4u);  // titles only
    options.labels = true;
    options.cell = 12.0f;
    const FragmentView small = fragment_view(layout, options);
    EXPECT_FALSE(has_text(small, "a0"));
    EXPECT_TRUE(has_text(small, "31"));  // lane strip cells stay big enough
    EXPECT_EQ(small.draw.rects.size(), 352u + 4u);
}

TEST(FragmentView, UsesThePaletteItIsGiven) {
    const FragmentLayout layout = fragment_layout_of("mma.m16n8k8.tf32");
    FragmentViewOptions options;
    options.palette = &high_contrast_palette();
    const FragmentView view = fragment_view(layout, options);
    EXPECT_EQ(view.draw.background, high_contrast_palette().background);
    EXPECT_EQ(cell_rect(view, layout, Operand::A, 8, 0)->fill,
              high_contrast_palette().categories[1]);
    for (const DrawText& text : view.draw.texts) {
        const bool on_palette = text.colour == high_contrast_palette().text ||
                                text.colour == high_contrast_palette().background;
        EXPECT_TRUE(on_palette) << text.text;
    }
}

TEST(FragmentView, ModelsCarryTheirNoteInEveryDrawing) {
    const FragmentView view = fragment_view(fragment_layout_of("tcgen05.ld.16x256b.x1"), {});
    bool banner = false;
    for (const DrawText& text : view.draw.texts) {
        banner = banner || text.text.rfind("model (PTX ISA), not verified: needs sm_100", 0) == 0;
    }
    EXPECT_TRUE(banner);
    const FragmentView verified = fragment_view(fragment_layout_of("mma.m16n8k8.tf32"), {});
    for (const DrawText& text : verified.draw.texts) {
        EXPECT_EQ(text.text.find("not verified"), std::string::npos);
    }
}

TEST(FragmentView, TmemSlotsReadAsLanesAndColumns) {
    const FragmentLayout layout = fragment_layout_of("tcgen05.sf.mxf4.2x");
    const FragmentView view = fragment_view(layout, {});
    // scale_A row 69 sits in TMEM lane 5, column 2, byte 1.
    EXPECT_TRUE(has_text(view, "L5"));
    EXPECT_TRUE(has_text(view, "c2.1"));
    EXPECT_TRUE(has_text(view, "TMEM lanes"));
    EXPECT_FALSE(has_text(view, "T5"));
}

TEST(FragmentView, SparseMetadataCellsNameTheirField) {
    const FragmentLayout layout = fragment_layout_of("mma.sp.m16n8k16.f16.sel0");
    const FragmentView view = fragment_view(layout, {});
    EXPECT_TRUE(has_text(view, "E 16x8 b2"));
    // Selector 0, field 9 of lane 4 (groupID 1) is row 9, compressed column 1.
    const FragmentHit* hit = hit_of(view, cell_rect(view, layout, Operand::E, 9, 1));
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->lane, 4);
    EXPECT_TRUE(has_text(view, "e0.9"));
}

TEST(FragmentView, SharedMemoryViewColoursCoreMatricesAndBytes) {
    const FragmentLayout layout = fragment_layout_of("wgmma.smem.f16.k.none");
    const FragmentView view = fragment_view(layout, {});
    EXPECT_TRUE(has_text(view, "A 64x16 f16, K-major, no swizzle"));
    EXPECT_TRUE(has_text(view, "A in shared memory, 128 B per line (LBO 128, SBO 256)"));
    // Core matrix 3 (rows 8..15, second K chunk) starts at byte 384: chunk 24, line 3, slot 0.
    EXPECT_TRUE(has_text(view, "m3"));
    EXPECT_TRUE(has_text(view, "+404"));  // A(9, 10)
    int coloured = 0;
    for (const DrawRect& rect : view.draw.rects) {
        coloured += rect.fill == category_colour(dark_palette(), 3);
    }
    // Every element cell and every 16-byte chunk (8 elements) of a core matrix whose colour is
    // category 3 (cores 3 and 15 with 12 categories): 64 cells per core per tile.
    int expected = 0;
    for (const SharedMemoryTile& tile : layout.shared_memory) {
        for (const SharedMemoryElement& e : tile.elements) {
            if (e.core_matrix % int(dark_palette().categories.size()) == 3) {
                expected += 1 + (e.byte % 16 == 0 ? 1 : 0);
            }
        }
    }
    EXPECT_EQ(expected, 2 * (64 + 64 + 8 + 8));
    EXPECT_EQ(coloured, expected);
}

TEST(FragmentView, TitlesNameEachOperandsPtxType) {
    EXPECT_TRUE(has_text(fragment_view(fragment_layout_of("mma.m16n8k32.s8"), {}), "C/D 16x8 s32"));
    EXPECT_TRUE(
        has_text(fragment_view(fragment_layout_of("mma.m16n8k32.e4m3"), {}), "A 16x32 e4m3"));
    EXPECT_TRUE(has_text(fragment_view(fragment_layout_of("mma.m8n8k4.f64"), {}), "B 4x8 f64"));
    EXPECT_TRUE(
        has_text(fragment_view(fragment_layout_of("mma.m16n8k16.bf16"), {}), "B 16x8 bf16"));
}

TEST(FragmentView, EveryLayoutGivesOneTargetPerElementInsideTheCanvas) {
    for (const std::string& id : fragment_layout_ids()) {
        SCOPED_TRACE(id);
        const FragmentLayout layout = fragment_layout_of(id);
        const FragmentView view = fragment_view(layout, {});
        size_t elements = 0;
        for (const OperandLayout& operand : layout.operands) {
            if (operand.operand != Operand::D || !layout.find(Operand::C)) {
                elements += operand.elements.size();
            }
        }
        const bool smem_only = layout.operands.empty();
        const size_t bands = layout.threads > 32 && !layout.tmem_slots && !smem_only ? 8 : 0;
        // One backdrop per matrix block drawn, the address column and the lane strip.
        size_t blocks = 1 + (layout.address_lanes.empty() ? 0 : 1);
        for (const OperandLayout& operand : layout.operands) {
            blocks += operand.operand != Operand::D || !layout.find(Operand::C);
        }
        if (smem_only) {
            // Shared-memory views: tiles and bytes, no hover targets and no lane strip.
            EXPECT_TRUE(view.hits.empty());
            EXPECT_FALSE(layout.shared_memory.empty());
        } else {
            EXPECT_EQ(view.draw.rects.size(), elements + layout.address_lanes.size() +
                                                  size_t(layout.threads) + bands + blocks);
        }
        std::vector<int> seen_per_lane(size_t(layout.threads), 0);
        for (const DrawRect& rect : view.draw.rects) {
            EXPECT_GE(rect.x, 0.0f);
            EXPECT_GE(rect.y, 0.0f);
            EXPECT_LE(rect.x + rect.w, view.draw.width);
            EXPECT_LE(rect.y + rect.h, view.draw.height);
            if (rect.hit < 0) continue;
            ASSERT_LT(size_t(rect.hit), view.hits.size());
            const FragmentHit& hit = view.hits[size_t(rect.hit)];
            ASSERT_GE(hit.lane, 0);
            ASSERT_LT(hit.lane, layout.threads);
            if (hit.element == kLaneOnlyHit) continue;
            const OperandLayout* operand = layout.find(hit.operand);
            ASSERT_TRUE(operand);
            ASSERT_LT(size_t(hit.element), operand->elements.size());
            EXPECT_EQ(operand->elements[size_t(hit.element)].lane, hit.lane);
            ++seen_per_lane[size_t(hit.lane)];
        }
        bool dense = true;
        for (const OperandLayout& operand : layout.operands) {
            dense = dense && is_dense(operand, layout.threads);
        }
        if (dense) {
            for (int count : seen_per_lane) EXPECT_EQ(count, seen_per_lane[0]);
        }
        for (const DrawText& text : view.draw.texts) {
            EXPECT_LE(text.x, view.draw.width);
            EXPECT_LE(text.y + text.size, view.draw.height);
        }
    }
}

}  // namespace
}  // namespace tclens::viz
