// Tests for viz/bank_view.* and the bank colours of viz/palette.*.
//
// Expected banks and degrees are worked out by hand (bank of a byte = (addr / 4) mod 32;
// ldmatrix.x4: lane l reads 16 bytes at row l mod 16, byte 16 (l / 16); phase = lane / 8;
// xor: 16-byte chunk c of row r goes to chunk c ^ (r mod 8) on 128-byte rows), never taken from
// the code under test.
#include "viz/bank_view.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace tclens::viz {
namespace {

BankReport view_report(const std::string& swizzle, const std::string& pattern, Tile tile) {
    const common::Expected<Swizzle> s = parse_swizzle(swizzle);
    const common::Expected<Pattern> p = parse_pattern(pattern);
    EXPECT_TRUE(s.ok() && p.ok());
    const common::Expected<BankReport> result = bank_requests(*s, *p, tile);
    EXPECT_TRUE(result.ok()) << result.error();
    return result.ok() ? *result : BankReport{};
}

const Tile kTile16x128{16, 128};

// The rect of a hover target of `kind` matching (bank, phase) for kHeat / kBank or
// (row, byte_col) for kWord.
const DrawRect* target(const BankView& view, BankHitKind kind, int a, int b, int side = 0) {
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit < 0) continue;
        const BankHit& hit = view.hits[size_t(rect.hit)];
        if (hit.kind != kind || hit.side != side) continue;
        if (kind == BankHitKind::kHeat && hit.bank == a && hit.phase == b) return &rect;
        if (kind == BankHitKind::kBank && hit.bank == a) return &rect;
        if (kind == BankHitKind::kWord && hit.row == a && hit.byte_col == b) return &rect;
    }
    return nullptr;
}

const BankHit& hit_of(const BankView& view, const DrawRect* rect) {
    return view.hits[size_t(rect->hit)];
}

bool has_text(const BankView& view, const std::string& text) {
    for (const DrawText& t : view.draw.texts) {
        if (t.text == text) return true;
    }
    return false;
}

// The label drawn centred in `rect`, or "".
std::string label_in(const BankView& view, const DrawRect* rect) {
    for (const DrawText& t : view.draw.texts) {
        if (t.align == TextAlign::kCenter && t.x > rect->x && t.x < rect->x + rect->w &&
            t.y > rect->y && t.y < rect->y + rect->h) {
            return t.text;
        }
    }
    return "";
}

Rgba dimmed(int bank) {
    const Rgba c = bank_colour(dark_bank_palette(), bank);
    const Rgba bg = dark_palette().background;
    auto ch = [](int x, int y) { return std::uint8_t(std::lround(x + (y - x) * kDimming)); };
    return {ch(c.r, bg.r), ch(c.g, bg.g), ch(c.b, bg.b), 255};
}

TEST(BankPalette, BucketsAreThePowersOfTwo) {
    EXPECT_EQ(conflict_bucket(1), 0);
    EXPECT_EQ(conflict_bucket(2), 1);
    EXPECT_EQ(conflict_bucket(3), 2);
    EXPECT_EQ(conflict_bucket(4), 2);
    EXPECT_EQ(conflict_bucket(5), 3);
    EXPECT_EQ(conflict_bucket(8), 3);
    EXPECT_EQ(conflict_bucket(16), 4);
    EXPECT_EQ(conflict_bucket(17), 5);
    EXPECT_EQ(conflict_bucket(32), 5);
    EXPECT_EQ(conflict_bucket(1000), 5);
    EXPECT_EQ(conflict_bucket_label(0), "1");
    EXPECT_EQ(conflict_bucket_label(1), "2");
    EXPECT_EQ(conflict_bucket_label(2), "3-4");
    EXPECT_EQ(conflict_bucket_label(5), "17-32");
}

TEST(BankPalette, ThirtyTwoDistinctBankColoursAndARampPerScheme) {
    for (const BankPalette* palette : {&dark_bank_palette(), &high_contrast_bank_palette()}) {
        ASSERT_EQ(palette->banks.size(), 32u) << palette->name;
        ASSERT_EQ(palette->heat.size(), size_t(kConflictBuckets)) << palette->name;
        for (int bank = 0; bank < 32; ++bank) {
            for (int other = bank + 1; other < 32; ++other) {
                EXPECT_NE(palette->banks[bank], palette->banks[other]) << bank << " " << other;
            }
        }
        EXPECT_EQ(bank_colour(*palette, 33), palette->banks[1]);
        EXPECT_EQ(bank_colour(*palette, -1), palette->banks[31]);
        EXPECT_EQ(conflict_colour(*palette, 0), palette->idle);
        EXPECT_EQ(conflict_colour(*palette, 1), palette->heat[0]);
        EXPECT_EQ(conflict_colour(*palette, 8), palette->heat[3]);
    }
    EXPECT_NE(dark_bank_palette().banks[0], high_contrast_bank_palette().banks[0]);
}

TEST(BankView, LdmatrixX4WithoutSwizzleIsEightWayInFourBanks) {
    const BankView view = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), {});
    const BankPalette& banks = dark_bank_palette();
    // Phase 0: lanes 0-7 read rows 0-7 at byte 0, address 128r: words 32r..32r+3, banks 0-3,
    // 8 distinct words each. Phase 2 (lanes 16-23, byte 16): banks 4-7.
    for (int bank = 0; bank < 32; ++bank) {
        const DrawRect* p0 = target(view, BankHitKind::kHeat, bank, 0);
        const DrawRect* p2 = target(view, BankHitKind::kHeat, bank, 2);
        ASSERT_TRUE(p0 && p2);
        const int expected0 = bank < 4 ? 8 : 0;
        const int expected2 = bank >= 4 && bank < 8 ? 8 : 0;
        EXPECT_EQ(hit_of(view, p0).degree, expected0) << bank;
        EXPECT_EQ(hit_of(view, p2).degree, expected2) << bank;
        EXPECT_EQ(p0->fill, expected0 ? banks.heat[3] : banks.idle) << bank;
        EXPECT_EQ(label_in(view, p0), expected0 ? "8" : "") << bank;
    }
    EXPECT_EQ(hit_of(view, target(view, BankHitKind::kHeat, 0, 0)).lanes,
              (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_TRUE(has_text(view, "swizzle none: ldmatrix.x4 on 16 x 128 bytes"));
    EXPECT_TRUE(has_text(view, "wavefronts 32 / ideal 4, conflict factor 8.00x"));
    EXPECT_TRUE(has_text(view, "8 wf"));
    EXPECT_TRUE(has_text(view, "all 4 phases: lanes 0-31, 32 wavefronts"));
    EXPECT_TRUE(has_text(view, "p3"));
    EXPECT_FALSE(has_text(view, "p4"));
    // Two grid backdrops, 32 swatches, 32 x 4 heat cells, 7 legend swatches, 16 x 32 words.
    EXPECT_EQ(view.draw.rects.size(), 2u + 32u + 128u + 7u + 512u);
    int backdrops = 0;
    for (const DrawRect& rect : view.draw.rects) {
        backdrops += rect.hit < 0 && rect.fill == dark_palette().grid;
    }
    EXPECT_EQ(backdrops, 2);
    EXPECT_EQ(view.hits.size(), 32u + 128u + 512u);
}

TEST(BankView, LdmatrixX4WithXorIsConflictFree) {
    const BankView view = bank_view(view_report("xor", "ldmatrix.x4", kTile16x128), {});
    // Row r of a matrix sits in chunk c ^ r: the 8 rows cover all 8 chunks, each bank once.
    for (int phase = 0; phase < 4; ++phase) {
        for (int bank = 0; bank < 32; ++bank) {
            const DrawRect* cell = target(view, BankHitKind::kHeat, bank, phase);
            ASSERT_TRUE(cell);
            EXPECT_EQ(hit_of(view, cell).degree, 1) << bank << " " << phase;
            EXPECT_EQ(cell->fill, dark_bank_palette().heat[0]);
            EXPECT_EQ(label_in(view, cell), "1");
        }
    }
    EXPECT_TRUE(has_text(view, "wavefronts 4 / ideal 4, conflict factor 1.00x"));
    EXPECT_TRUE(has_text(view, "1 wf"));
}

TEST(BankView, WordCellsTakeTheColourOfThePhysicalBank) {
    const BankPalette& banks = dark_bank_palette();
    const BankView none = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), {});
    const BankView xored = bank_view(view_report("xor", "ldmatrix.x4", kTile16x128), {});

    // Row 3, bytes 0-3 (lane 3): none -> address 384, bank 0; xor -> chunk 0 ^ 3 = 3 ->
    // 384 + 48 = 432, word 108, bank 12. Touched, so in full colour and labelled "3".
    const DrawRect* n30 = target(none, BankHitKind::kWord, 3, 0);
    const DrawRect* x30 = target(xored, BankHitKind::kWord, 3, 0);
    ASSERT_TRUE(n30 && x30);
    EXPECT_EQ(hit_of(none, n30).bank, 0);
    EXPECT_EQ(hit_of(xored, x30).bank, 12);
    EXPECT_EQ(hit_of(xored, x30).byte_addr, 432);
    EXPECT_EQ(n30->fill, banks.banks[0]);
    EXPECT_EQ(x30->fill, banks.banks[12]);
    EXPECT_EQ(x30->stroke, dark_palette().text);
    EXPECT_EQ(label_in(xored, x30), "3");

    // Row 3, bytes 20-23 (lane 19): xor -> chunk 1 ^ 3 = 2 -> 384 + 32 + 4 = 420, bank 9.
    const DrawRect* x35 = target(xored, BankHitKind::kWord, 3, 20);
    ASSERT_TRUE(x35);
    EXPECT_EQ(x35->fill, banks.banks[9]);
    EXPECT_EQ(label_in(xored, x35), "19");
    EXPECT_EQ(hit_of(xored, x35).lanes, std::vector<int>{19});
    EXPECT_EQ(hit_of(xored, x35).phase_mask, 1u << 2);

    // Row 3, bytes 32-35: no lane reads it. none -> 416, bank 8; xor -> chunk 2 ^ 3 = 1 ->
    // 384 + 16 = 400, bank 4. Dimmed, unlabelled, no outline.
    const DrawRect* n38 = target(none, BankHitKind::kWord, 3, 32);
    const DrawRect* x38 = target(xored, BankHitKind::kWord, 3, 32);
    ASSERT_TRUE(n38 && x38);
    EXPECT_EQ(n38->fill, dimmed(8));
    EXPECT_EQ(x38->fill, dimmed(4));
    EXPECT_EQ(x38->stroke_width, 0.0f);
    EXPECT_EQ(label_in(xored, x38), "");
    EXPECT_TRUE(hit_of(xored, x38).lanes.empty());

    // Bank swatches are the legend of those colours.
    EXPECT_EQ(target(none, BankHitKind::kBank, 12, 0)->fill, banks.banks[12]);
    EXPECT_EQ(label_in(none, target(none, BankHitKind::kBank, 12, 0)), "12");
}

TEST(BankView, PaddingShiftsEachRowByThePad) {
    // pad:16 on 16 x 128: row r starts at 144r, so row 5, bytes 0-3 is address 720, word 180,
    // bank 20.
    const BankView view = bank_view(view_report("pad:16", "ldmatrix.x4", kTile16x128), {});
    const DrawRect* cell = target(view, BankHitKind::kWord, 5, 0);
    ASSERT_TRUE(cell);
    EXPECT_EQ(hit_of(view, cell).byte_addr, 720);
    EXPECT_EQ(cell->fill, dark_bank_palette().banks[20]);
}

TEST(BankView, AShownPhaseHighlightsOnlyItsLanes) {
    BankViewOptions options;
    options.phase = 2;
    const BankView view = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), options);
    // Lane 3 (phase 0) at row 3, byte 0 is dimmed now; lane 19 (phase 2) at row 3, byte 16 is lit.
    const DrawRect* lane3 = target(view, BankHitKind::kWord, 3, 0);
    const DrawRect* lane19 = target(view, BankHitKind::kWord, 3, 16);
    ASSERT_TRUE(lane3 && lane19);
    EXPECT_EQ(lane3->fill, dimmed(0));
    EXPECT_EQ(label_in(view, lane3), "");
    EXPECT_EQ(lane19->fill, dark_bank_palette().banks[4]);  // 384 + 16 = 400 -> bank 4
    EXPECT_EQ(label_in(view, lane19), "19");
    // Lanes 16-23 x 4 words each are outlined, nothing else in the tile.
    int outlined = 0;
    for (const DrawRect& rect : view.draw.rects) {
        if (rect.hit >= 0 && view.hits[size_t(rect.hit)].kind == BankHitKind::kWord) {
            outlined += rect.stroke_width > 0.0f;
        }
    }
    EXPECT_EQ(outlined, 8 * 4);
    EXPECT_TRUE(has_text(view, "phase 2 of 4: lanes 16-23, 8 wavefronts"));
    // The phase's heatmap row is outlined: one stroke-only rect spanning the 32 banks.
    const DrawRect* first = target(view, BankHitKind::kHeat, 0, 2);
    bool row_outlined = false;
    for (const DrawRect& rect : view.draw.rects) {
        row_outlined |= rect.hit < 0 && rect.fill.a == 0 && rect.y == first->y - 1.0f &&
                        rect.w > 32 * 16.0f - 1.0f;
    }
    EXPECT_TRUE(row_outlined);
    // Out of range means all phases.
    options.phase = 9;
    EXPECT_TRUE(has_text(bank_view(view_report("none", "ldmatrix.x4", kTile16x128), options),
                         "all 4 phases: lanes 0-31, 32 wavefronts"));
}

TEST(BankView, BroadcastWordsNameTheLowestLane) {
    // lds.32.bcast: all 32 lanes read word 0 of row 0, one phase, 1 wavefront.
    const BankView view = bank_view(view_report("none", "lds.32.bcast", Tile{32, 128}), {});
    const DrawRect* word0 = target(view, BankHitKind::kWord, 0, 0);
    ASSERT_TRUE(word0);
    EXPECT_EQ(label_in(view, word0), "0+");
    EXPECT_EQ(hit_of(view, word0).lanes.size(), 32u);
    EXPECT_EQ(hit_of(view, target(view, BankHitKind::kHeat, 0, 0)).degree, 1);
    EXPECT_TRUE(has_text(view, "all 1 phase: lanes 0-31, 1 wavefront"));
}

TEST(BankView, TotalsMentionAMeasurementOnlyWhenThereIsOne) {
    BankReport r = view_report("none", "ldmatrix.x4", kTile16x128);
    EXPECT_EQ(totals_text(r), "wavefronts 32 / ideal 4, conflict factor 8.00x");
    r.measured_wavefronts = 32.0;
    EXPECT_EQ(totals_text(r), "wavefronts 32 / ideal 4, conflict factor 8.00x | measured 32");
    r.measured_wavefronts = 4.031;
    EXPECT_EQ(totals_text(r), "wavefronts 32 / ideal 4, conflict factor 8.00x | measured 4.03");
    EXPECT_TRUE(has_text(bank_view(r, {}),
                         "wavefronts 32 / ideal 4, conflict factor 8.00x | measured 4.03"));
    // lds.64.row: lanes 0-15 read row 0, lanes 16-31 row 1: 2 phases, each bank once in each.
    EXPECT_EQ(totals_text(view_report("none", "lds.64.row", Tile{32, 128})),
              "wavefronts 2 / ideal 2, conflict factor 1.00x");
}

TEST(BankView, SideBySideShiftsTheRightViewAndNumbersItsHits) {
    const BankView left = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), {});
    const BankView right = bank_view(view_report("xor", "ldmatrix.x4", kTile16x128), {});
    const BankView both = side_by_side(left, right, 20.0f);
    EXPECT_EQ(both.draw.rects.size(), left.draw.rects.size() + right.draw.rects.size());
    EXPECT_EQ(both.hits.size(), left.hits.size() + right.hits.size());
    EXPECT_EQ(both.draw.width, left.draw.width + 20.0f + right.draw.width);
    const DrawRect* l = target(both, BankHitKind::kWord, 3, 0, 0);
    const DrawRect* r = target(both, BankHitKind::kWord, 3, 0, 1);
    ASSERT_TRUE(l && r);
    EXPECT_FLOAT_EQ(r->x - l->x, left.draw.width + 20.0f);
    EXPECT_FLOAT_EQ(r->y, l->y);
    EXPECT_EQ(hit_of(both, l).bank, 0);
    EXPECT_EQ(hit_of(both, r).bank, 12);
    EXPECT_TRUE(has_text(both, "swizzle none: ldmatrix.x4 on 16 x 128 bytes"));
    EXPECT_TRUE(has_text(both, "swizzle xor: ldmatrix.x4 on 16 x 128 bytes"));
}

TEST(BankView, HoverRelationsLinkWordsHeatCellsAndSwatchesOfOneBank) {
    const BankView view = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), {});
    const BankHit& swatch0 = hit_of(view, target(view, BankHitKind::kBank, 0, 0));
    const BankHit& heat00 = hit_of(view, target(view, BankHitKind::kHeat, 0, 0));
    const BankHit& heat01 = hit_of(view, target(view, BankHitKind::kHeat, 0, 1));
    const BankHit& lane3 = hit_of(view, target(view, BankHitKind::kWord, 3, 0));    // bank 0, p0
    const BankHit& lane11 = hit_of(view, target(view, BankHitKind::kWord, 11, 0));  // bank 0, p1
    const BankHit& idle = hit_of(view, target(view, BankHitKind::kWord, 3, 32));    // bank 8
    const BankHit& idle0 = hit_of(view, target(view, BankHitKind::kWord, 0, 64));   // bank 16
    EXPECT_TRUE(related_hits(swatch0, lane3));
    EXPECT_TRUE(related_hits(lane3, swatch0));
    EXPECT_TRUE(related_hits(heat00, lane3));
    EXPECT_FALSE(related_hits(heat00, lane11));  // phase 1's word
    EXPECT_TRUE(related_hits(heat01, lane11));
    EXPECT_TRUE(related_hits(lane3, heat00));
    EXPECT_FALSE(related_hits(lane3, heat01));
    EXPECT_FALSE(related_hits(lane3, lane11));  // same kind
    EXPECT_FALSE(related_hits(swatch0, idle));  // bank 8
    EXPECT_FALSE(related_hits(heat00, idle0));
    BankHit other_side = lane3;
    other_side.side = 1;
    EXPECT_FALSE(related_hits(swatch0, other_side));
}

TEST(BankView, TooltipsSayWhereAWordLandsAndWhoAsks) {
    const BankView view = bank_view(view_report("xor", "ldmatrix.x4", kTile16x128), {});
    EXPECT_EQ(bank_hit_tooltip(hit_of(view, target(view, BankHitKind::kWord, 3, 20))),
              "row 3, bytes 20-23 -> address 420, bank 9; lane 19 (phase 2)");
    EXPECT_EQ(bank_hit_tooltip(hit_of(view, target(view, BankHitKind::kWord, 3, 32))),
              "row 3, bytes 32-35 -> address 400, bank 4; no lane");
    EXPECT_EQ(bank_hit_tooltip(hit_of(view, target(view, BankHitKind::kBank, 8, 0))),
              "bank 8: bytes 32-35 of every 128-byte line");
    // xor phase 0: lanes 0-7 at chunk r, bank 12 is row 3's first word: lane 3 alone.
    EXPECT_EQ(bank_hit_tooltip(hit_of(view, target(view, BankHitKind::kHeat, 12, 0))),
              "phase 0, bank 12: 1 distinct word (conflict-free); lane 3");
    const BankView none = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), {});
    EXPECT_EQ(bank_hit_tooltip(hit_of(none, target(none, BankHitKind::kHeat, 0, 0))),
              "phase 0, bank 0: 8 distinct words (8-way conflict); lanes 0-7");
    EXPECT_EQ(bank_hit_tooltip(hit_of(none, target(none, BankHitKind::kHeat, 9, 0))),
              "phase 0, bank 9: idle");
}

TEST(BankView, UsesThePalettesItIsGiven) {
    BankViewOptions options;
    options.palette = &high_contrast_palette();
    options.banks = &high_contrast_bank_palette();
    const BankView view = bank_view(view_report("none", "ldmatrix.x4", kTile16x128), options);
    EXPECT_EQ(view.draw.background, high_contrast_palette().background);
    EXPECT_EQ(target(view, BankHitKind::kWord, 3, 0)->fill, high_contrast_bank_palette().banks[0]);
    EXPECT_EQ(target(view, BankHitKind::kHeat, 0, 0)->fill, high_contrast_bank_palette().heat[3]);
    for (const DrawText& text : view.draw.texts) {
        const bool on_palette = text.colour == high_contrast_palette().text ||
                                text.colour == high_contrast_palette().background;
        EXPECT_TRUE(on_palette) << text.text;
    }
}

TEST(BankView, LargestTileBuildsQuicklyAndStaysOnTheCanvas) {
    // 256 KiB: 512 rows x 512 bytes = 65,536 words, lds.128.row over the first 512 bytes.
    const BankReport big = view_report("xor", "lds.128.row", Tile{512, 512});
    BankViewOptions options;
    options.cell = 4.0f;  // no grid, no labels
    const auto start = std::chrono::steady_clock::now();
    const BankView view = bank_view(big, options);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("bank_view(lds.128.row, 512 x 512): %.3f ms, %zu rects\n", ms,
                view.draw.rects.size());
    EXPECT_EQ(view.hits.size(), 32u + 32u * 4u + 65536u);
    // Row numbers every 4th row (4 px rows, 11 px numbers), no cell labels at 4 px.
    EXPECT_TRUE(has_text(view, "508"));
    EXPECT_FALSE(has_text(view, "510"));
    EXPECT_FALSE(has_text(view, "0+"));
    for (const DrawRect& rect : view.draw.rects) {
        ASSERT_LE(rect.x + rect.w, view.draw.width);
        ASSERT_LE(rect.y + rect.h, view.draw.height);
    }
    for (const DrawText& text : view.draw.texts) {
        EXPECT_LE(text.y + text.size, view.draw.height);
    }
}

TEST(BankView, EveryPatternGivesOneTargetPerWordAndPerHeatCell) {
    for (const Pattern& pattern : list_patterns()) {
        SCOPED_TRACE(pattern.name);
        for (const char* spec : {"none", "xor", "pad:16"}) {
            const Swizzle swizzle = *parse_swizzle(spec);
            const common::Expected<BankReport> r =
                bank_requests(swizzle, pattern, default_tile(pattern, swizzle));
            if (!r) continue;  // e.g. xor needs 16-byte chunks
            const BankView view = bank_view(*r, {});
            const size_t words = size_t(r->tile.rows) * size_t(r->tile.row_bytes / 4);
            const size_t phases = r->requests.front().phases.size();
            EXPECT_EQ(view.hits.size(), 32u + 32u * phases + words);
            for (const DrawRect& rect : view.draw.rects) {
                EXPECT_GE(rect.x, 0.0f);
                EXPECT_LE(rect.x + rect.w, view.draw.width);
                EXPECT_LE(rect.y + rect.h, view.draw.height);
            }
            for (const DrawText& text : view.draw.texts) {
                EXPECT_LE(text.y + text.size, view.draw.height);
            }
        }
    }
}

}  // namespace
}  // namespace tclens::viz
