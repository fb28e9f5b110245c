// Tests for viz/bank_model.*.
//
// Every wavefront count below is worked out by hand in the comment next to it (bank of a
// byte = (addr / 4) mod 32; a phase costs the largest number of distinct words asked of one
// bank), never taken from the implementation.
#include "viz/bank_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace tclens::viz {
namespace {

Swizzle swz(const std::string& spec) {
    const common::Expected<Swizzle> result = parse_swizzle(spec);
    EXPECT_TRUE(result.ok()) << result.error();
    return result.ok() ? result.value() : Swizzle{};
}

Pattern pat(const std::string& name) {
    const common::Expected<Pattern> result = parse_pattern(name);
    EXPECT_TRUE(result.ok()) << result.error();
    return result.ok() ? result.value() : Pattern{};
}

BankReport model_report(const std::string& swizzle, const std::string& pattern, const Tile& tile) {
    const common::Expected<BankReport> result = bank_requests(swz(swizzle), pat(pattern), tile);
    EXPECT_TRUE(result.ok()) << swizzle << " / " << pattern << ": " << result.error();
    return result.ok() ? result.value() : BankReport{};
}

struct Totals {
    int total;
    int ideal;
    int conflicts;
};

void expect_totals(const std::string& swizzle, const std::string& pattern, const Tile& tile,
                   Totals expected) {
    const BankReport r = model_report(swizzle, pattern, tile);
    EXPECT_EQ(r.total_wavefronts, expected.total) << swizzle << " / " << pattern;
    EXPECT_EQ(r.ideal_wavefronts, expected.ideal) << swizzle << " / " << pattern;
    EXPECT_EQ(r.conflict_wavefronts, expected.conflicts) << swizzle << " / " << pattern;
}

TEST(PhaseCost, BroadcastIsFreeAndDistinctWordsInOneBankConflict) {
    // Two lanes on word 0: one word -> 1 wavefront.
    EXPECT_EQ(phase_cost({0, 0}, 4).wavefronts, 1);
    // Word 0 twice plus word 32 (byte 128): bank 0 holds 2 distinct words.
    const PhaseCost cost = phase_cost({0, 0, 128}, 4);
    EXPECT_EQ(cost.wavefronts, 2);
    EXPECT_EQ(cost.bank_words[0], 2);
    EXPECT_EQ(cost.bank_words[1], 0);
    // 32 consecutive words: one per bank.
    std::vector<std::int64_t> row;
    for (int lane = 0; lane < 32; ++lane) {
        row.push_back(4 * lane);
    }
    EXPECT_EQ(phase_cost(row, 4).wavefronts, 1);
    // 16-byte accesses at 0 and 128 both cover banks 0-3.
    EXPECT_EQ(phase_cost({0, 128}, 16).wavefronts, 2);
    EXPECT_EQ(phase_cost({0, 128}, 16).bank_words[3], 2);
    // Eight 16-byte accesses tiling 128 bytes: conflict-free.
    EXPECT_EQ(phase_cost({0, 16, 32, 48, 64, 80, 96, 112}, 16).wavefronts, 1);
    // 8-byte accesses at 0 and 256: banks 0-1 twice.
    EXPECT_EQ(phase_cost({0, 256}, 8).wavefronts, 2);
    EXPECT_EQ(phase_cost({}, 4).wavefronts, 0);
}

TEST(BankOf, WordsWrapEvery128Bytes) {
    EXPECT_EQ(bank_of(0), 0);
    EXPECT_EQ(bank_of(3), 0);
    EXPECT_EQ(bank_of(4), 1);
    EXPECT_EQ(bank_of(132), 1);
    EXPECT_EQ(bank_of(127), 31);
}

TEST(BankRequests, Lds32RowIsConflictFree) {
    // Lane l reads word l of row 0: banks 0..31 once each.
    expect_totals("none", "lds.32.row", Tile{32, 128}, {1, 1, 0});
}

TEST(BankRequests, Lds32ColumnOf128ByteRowsIs32Way) {
    // Lane l reads byte 128 l: word 32 l, always bank 0, 32 distinct words.
    expect_totals("none", "lds.32.col", Tile{32, 128}, {32, 1, 31});
    const BankReport r = model_report("none", "lds.32.col", Tile{32, 128});
    ASSERT_EQ(r.requests.size(), 1u);
    ASSERT_EQ(r.requests[0].phases.size(), 1u);
    const PhaseReport& phase = r.requests[0].phases[0];
    EXPECT_EQ(phase.bank_words[0], 32);
    for (int bank = 1; bank < kBankCount; ++bank) {
        EXPECT_EQ(phase.bank_words[bank], 0) << bank;
    }
    EXPECT_EQ(phase.bank_lanes[0].size(), 32u);
    EXPECT_EQ(phase.lanes.size(), 32u);
}

TEST(BankRequests, PaddingAndSwizzlesOnTheColumnRead) {
    // pad:4: byte 132 l = word 33 l, bank l: conflict-free.
    expect_totals("pad:4", "lds.32.col", Tile{32, 128}, {1, 1, 0});
    // pad:8: word 34 l, bank 2 l mod 32: lanes l and l + 16 share a bank -> 2-way.
    expect_totals("pad:8", "lds.32.col", Tile{32, 128}, {2, 1, 1});
    // xor moves 16-byte chunks only: lane l at 128 l + 16 (l mod 8), bank 4 (l mod 8);
    // lanes l, l+8, l+16, l+24 share it -> 4-way.
    expect_totals("xor", "lds.32.col", Tile{32, 128}, {4, 1, 3});
    // tma128 does the same on 128-byte rows.
    expect_totals("tma128", "lds.32.col", Tile{32, 128}, {4, 1, 3});
    // The store pattern is priced the same way.
    expect_totals("none", "sts.32.col", Tile{32, 128}, {32, 1, 31});
    expect_totals("pad:4", "sts.32.col", Tile{32, 128}, {1, 1, 0});
    EXPECT_TRUE(model_report("none", "sts.32.col", Tile{32, 128}).requests[0].is_store);
}

TEST(BankRequests, XorColumnReadHeatmap) {
    // xor: banks 0, 4, ..., 28 each get 4 distinct words, the others none.
    const PhaseReport phase =
        model_report("xor", "lds.32.col", Tile{32, 128}).requests[0].phases[0];
    for (int bank = 0; bank < kBankCount; ++bank) {
        EXPECT_EQ(phase.bank_words[bank], bank % 4 == 0 ? 4 : 0) << bank;
    }
    EXPECT_EQ(phase.bank_lanes[4], (std::vector<int>{1, 9, 17, 25}));
}

TEST(BankRequests, BroadcastCostsNothing) {
    // All 32 lanes read word 0: one word, one wavefront.
    expect_totals("none", "lds.32.bcast", Tile{32, 128}, {1, 1, 0});
}

TEST(BankRequests, LdmatrixX4OnWideRowsNoneIs8WayAndXorIsIdeal) {
    // 128-byte rows: the 8 rows of each matrix start at 128 r (+16 for matrices 2 and 3), all
    // in the same 4 banks -> 8 wavefronts per phase, 32 in all, 4 ideal, 28 conflicts (the
    // numbers CUPTI reports for a fully conflicted ldmatrix.x4).
    expect_totals("none", "ldmatrix.x4", Tile{16, 128}, {32, 4, 28});
    const BankReport none = model_report("none", "ldmatrix.x4", Tile{16, 128});
    for (const PhaseReport& phase : none.requests[0].phases) {
        EXPECT_EQ(phase.wavefronts, 8);
    }
    EXPECT_EQ(none.requests[0].phases[0].bank_words[0], 8);
    EXPECT_EQ(none.requests[0].phases[2].bank_words[4], 8);  // byte 16 -> banks 4-7
    EXPECT_EQ(none.requests[0].phases[2].bank_words[0], 0);

    // xor: row r's chunk c goes to c ^ r, 8 different chunks per matrix -> 1 per phase.
    expect_totals("xor", "ldmatrix.x4", Tile{16, 128}, {4, 4, 0});
    expect_totals("tma128", "ldmatrix.x4", Tile{16, 128}, {4, 4, 0});
    expect_totals("cute:3,4,3", "ldmatrix.x4", Tile{16, 128}, {4, 4, 0});
    // pad:16: rows 144 bytes = 36 words apart, banks 4 r .. 4 r + 3 -> conflict-free.
    expect_totals("pad:16", "ldmatrix.x4", Tile{16, 128}, {4, 4, 0});
    // 64-byte rows: rows r and r + 2, r + 4, r + 6 share banks -> 4-way, 16 in all.
    expect_totals("none", "ldmatrix.x4", Tile{16, 64}, {16, 4, 12});
}

TEST(BankRequests, LdmatrixX4OnAPacked16x16Tile) {
    // 32-byte rows: row r at 32 r, rows r and r + 4 share banks -> 2-way, 8 in all.
    expect_totals("none", "ldmatrix.x4", Tile{16, 32}, {8, 4, 4});
    // xor's period is only 2 here (2 chunks per row): rows r and r + 4 still collide.
    expect_totals("xor", "ldmatrix.x4", Tile{16, 32}, {8, 4, 4});
    // tma32 (bit 7 into bit 4) moves rows 4-7 by 16 bytes: banks 0,8,16,24 then 4,12,20,28.
    expect_totals("tma32", "ldmatrix.x4", Tile{16, 32}, {4, 4, 0});
}

TEST(BankRequests, LdmatrixX1AndX2) {
    // 8 rows of 128 bytes in one phase: 8-way.
    expect_totals("none", "ldmatrix.x1", Tile{8, 128}, {8, 1, 7});
    expect_totals("xor", "ldmatrix.x1", Tile{8, 128}, {1, 1, 0});
    // Packed 16-byte rows: 8 rows fill 128 bytes exactly.
    expect_totals("none", "ldmatrix.x1", Tile{8, 16}, {1, 1, 0});
    expect_totals("none", "ldmatrix.x2", Tile{16, 16}, {2, 2, 0});
    expect_totals("none", "ldmatrix.x2", Tile{16, 128}, {16, 2, 14});
    expect_totals("none", "ldmatrix.x4.trans", Tile{16, 128}, {32, 4, 28});
}

TEST(BankRequests, LaneAddressesAndBanks) {
    const BankReport r = model_report("xor", "ldmatrix.x4", Tile{16, 128});
    const std::vector<LaneBanks>& lanes = r.requests[0].lanes;
    ASSERT_EQ(lanes.size(), 32u);
    // Lane 3: row 3, chunk 0 -> chunk 3: byte 384 + 48 = 432, word 108, banks 12-15.
    EXPECT_EQ(lanes[3].row, 3);
    EXPECT_EQ(lanes[3].byte_addr, 432);
    EXPECT_EQ(lanes[3].banks, (std::vector<int>{12, 13, 14, 15}));
    // Lane 17: row 1, chunk 1 -> chunk 0: byte 128, banks 0-3.
    EXPECT_EQ(lanes[17].byte_addr, 128);
    EXPECT_EQ(lanes[17].banks, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(lanes[17].phase, 2);
    // Lane 31: row 15, chunk 1 -> 1 ^ 7 = 6: 1920 + 96 = 2016, word 504, banks 24-27.
    EXPECT_EQ(lanes[31].byte_addr, 2016);
    EXPECT_EQ(lanes[31].banks, (std::vector<int>{24, 25, 26, 27}));
    // 8-byte access: lds.64.row lane 5 at byte 40, word 10 -> banks 10, 11.
    const BankReport lds64 = model_report("none", "lds.64.row", Tile{32, 128});
    EXPECT_EQ(lds64.requests[0].lanes[5].banks, (std::vector<int>{10, 11}));
}

TEST(BankRequests, WiderAccessesHaveMorePhases) {
    // lds.64.row: two 16-lane phases, each 128 contiguous bytes.
    expect_totals("none", "lds.64.row", Tile{32, 128}, {2, 2, 0});
    // 8-byte rows: lane l is row l, still contiguous.
    expect_totals("none", "lds.64.row", Tile{32, 8}, {2, 2, 0});
    // lds.128.row: four 8-lane phases, each one 128-byte row.
    expect_totals("none", "lds.128.row", Tile{32, 128}, {4, 4, 0});
    // cp.async.16 with xor: each phase writes one row, permuted inside it.
    expect_totals("xor", "cp.async.16", Tile{32, 128}, {4, 4, 0});
    EXPECT_TRUE(model_report("xor", "cp.async.16", Tile{32, 128}).requests[0].is_store);
    // cp.async.16 on 16-byte rows padded by 16: lane l at 32 l; lanes l and l + 4 of a phase
    // share banks -> 2 per phase, 8 in all.
    expect_totals("pad:16", "cp.async.16", Tile{32, 16}, {8, 4, 4});
}

TEST(BankRequests, Tma128AndCute343GiveIdenticalReports) {
    for (const Pattern& pattern : list_patterns()) {
        const Tile tile = default_tile(pattern, swz("tma128"));
        const BankReport a = model_report("tma128", pattern.name, tile);
        const BankReport b = model_report("cute:3,4,3", pattern.name, tile);
        EXPECT_EQ(a.total_wavefronts, b.total_wavefronts) << pattern.name;
        ASSERT_EQ(a.requests[0].lanes.size(), b.requests[0].lanes.size());
        for (std::size_t i = 0; i < a.requests[0].lanes.size(); ++i) {
            EXPECT_EQ(a.requests[0].lanes[i].byte_addr, b.requests[0].lanes[i].byte_addr);
        }
    }
}

TEST(DefaultTile, WidensForTheSwizzleSpan) {
    EXPECT_EQ(default_tile(pat("ldmatrix.x4"), swz("none")), (Tile{16, 32}));
    EXPECT_EQ(default_tile(pat("ldmatrix.x4"), swz("xor")), (Tile{16, 32}));
    EXPECT_EQ(default_tile(pat("ldmatrix.x4"), swz("pad:16")), (Tile{16, 32}));
    // tma128: rows of 2^(4+3) = 128 bytes, span 1024 -> 16 x 128 already covers it.
    EXPECT_EQ(default_tile(pat("ldmatrix.x4"), swz("tma128")), (Tile{16, 128}));
    EXPECT_EQ(default_tile(pat("ldmatrix.x1"), swz("tma128")), (Tile{8, 128}));
    EXPECT_EQ(default_tile(pat("ldmatrix.x1"), swz("tma32")), (Tile{8, 128}));
    EXPECT_EQ(default_tile(pat("lds.32.col"), swz("tma128")), (Tile{32, 128}));
    // cute:3,4,6: rows of 2^10 = 1024 bytes, span 8192 -> 8 rows at least, 16 kept.
    EXPECT_EQ(default_tile(pat("ldmatrix.x4"), swz("cute:3,4,6")), (Tile{16, 1024}));
    // cute:2,2,2: rows of 16 bytes (128 kept), span 64.
    EXPECT_EQ(default_tile(pat("lds.32.col"), swz("cute:2,2,2")), (Tile{32, 128}));
    EXPECT_EQ(default_tile(pat("ldmatrix.x1"), swz("cute:0,4,3")), (Tile{8, 16}));
}

TEST(BankRequests, BadInputIsOneLine) {
    struct Case {
        const char* swizzle;
        const char* pattern;
        Tile tile;
        const char* must_mention;
    };
    const Case cases[] = {
        {"pad:4", "ldmatrix.x4", {16, 128}, "pad:4"},
        {"tma128", "ldmatrix.x4", {16, 32}, "spans 1024 bytes"},
        {"none", "ldmatrix.x4", {8, 32}, "too small for ldmatrix.x4"},
        {"none", "lds.128.row", {32, 20}, "row_bytes 20"},
        {"xor", "lds.32.col", {32, 48}, "row_bytes 48"},
        {"cute:3,2,3", "lds.64.row", {32, 128}, "M must be >= 3"},
    };
    for (const Case& c : cases) {
        const common::Expected<BankReport> result =
            bank_requests(swz(c.swizzle), pat(c.pattern), c.tile);
        ASSERT_FALSE(result.ok()) << c.swizzle << " / " << c.pattern;
        EXPECT_NE(result.error().find(c.must_mention), std::string::npos) << result.error();
        EXPECT_EQ(result.error().find('\n'), std::string::npos) << result.error();
    }
}

// Every pattern under every swizzle family on its default tile: the report is consistent.
TEST(BankRequests, ReportsAreConsistentForEveryPatternAndSwizzle) {
    const std::vector<std::string> swizzles = {"none",  "pad:16", "xor",        "tma32",
                                               "tma64", "tma128", "cute:3,4,3", "cute:2,4,2"};
    int checked = 0;
    for (const Pattern& pattern : list_patterns()) {
        for (const std::string& spec : swizzles) {
            const Swizzle swizzle = swz(spec);
            const Tile tile = default_tile(pattern, swizzle);
            const common::Expected<BankReport> result = bank_requests(swizzle, pattern, tile);
            ASSERT_TRUE(result.ok()) << spec << " / " << pattern.name << ": " << result.error();
            const BankReport& r = result.value();
            ++checked;
            EXPECT_FALSE(r.measured_wavefronts.has_value());
            EXPECT_GE(r.total_wavefronts, r.ideal_wavefronts);
            EXPECT_EQ(r.conflict_wavefronts, r.total_wavefronts - r.ideal_wavefronts);
            int total = 0;
            for (const RequestReport& request : r.requests) {
                int sum = 0;
                EXPECT_EQ(request.ideal_wavefronts, static_cast<int>(request.phases.size()));
                for (const PhaseReport& phase : request.phases) {
                    const int busiest =
                        *std::max_element(phase.bank_words.begin(), phase.bank_words.end());
                    EXPECT_EQ(phase.wavefronts, busiest);
                    EXPECT_GE(phase.wavefronts, 1);
                    sum += phase.wavefronts;
                }
                EXPECT_EQ(request.wavefronts, sum);
                total += sum;
                for (const LaneBanks& lane : request.lanes) {
                    EXPECT_EQ(static_cast<int>(lane.banks.size()), request.access_bytes / 4);
                    EXPECT_EQ(lane.byte_addr % request.access_bytes, 0) << "misaligned access";
                    EXPECT_LT(lane.byte_addr, storage_bytes(swizzle, tile));
                }
            }
            EXPECT_EQ(r.total_wavefronts, total);
        }
    }
    EXPECT_EQ(checked, static_cast<int>(list_patterns().size() * swizzles.size()));
}

}  // namespace
}  // namespace tclens::viz
