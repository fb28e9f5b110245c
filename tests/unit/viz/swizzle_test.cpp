// Tests for viz/swizzle.*.
//
// Expected addresses are worked out by hand from the definitions in the issue and in CuTe's
// Swizzle<B,M,S> (o ^ ((o & (((1<<B)-1) << (M+S))) >> S)), never computed with the code under
// test; the exhaustive tests check properties (permutation, equivalences) over whole tiles.
#include "viz/swizzle.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace tclens::viz {
namespace {

Swizzle parsed(const std::string& spec) {
    const common::Expected<Swizzle> result = parse_swizzle(spec);
    EXPECT_TRUE(result.ok()) << spec << ": " << result.error();
    return result.ok() ? result.value() : Swizzle{};
}

TEST(SwizzleParse, NamedSwizzles) {
    EXPECT_EQ(parsed("none").kind, SwizzleKind::kNone);
    EXPECT_EQ(parsed("xor").kind, SwizzleKind::kXor);

    struct Tma {
        const char* spec;
        int bits;
    };
    for (const Tma& tma : {Tma{"tma32", 1}, Tma{"tma64", 2}, Tma{"tma128", 3}}) {
        const Swizzle swizzle = parsed(tma.spec);
        EXPECT_EQ(swizzle.kind, SwizzleKind::kCute) << tma.spec;
        EXPECT_EQ(swizzle.bits, tma.bits) << tma.spec;
        EXPECT_EQ(swizzle.base, 4) << tma.spec;
        EXPECT_EQ(swizzle.shift, 3) << tma.spec;
        EXPECT_EQ(swizzle.spec, tma.spec);
    }
}

TEST(SwizzleParse, PadAndCute) {
    const Swizzle pad = parsed("pad:16");
    EXPECT_EQ(pad.kind, SwizzleKind::kPad);
    EXPECT_EQ(pad.pad_bytes, 16);
    EXPECT_EQ(pad.spec, "pad:16");
    EXPECT_EQ(parsed("pad:0").pad_bytes, 0);

    const Swizzle cute = parsed("cute:2,5,6");
    EXPECT_EQ(cute.kind, SwizzleKind::kCute);
    EXPECT_EQ(cute.bits, 2);
    EXPECT_EQ(cute.base, 5);
    EXPECT_EQ(cute.shift, 6);
    EXPECT_EQ(cute.spec, "cute:2,5,6");
    EXPECT_EQ(parsed("cute:0,4,3").bits, 0);  // B = 0 is CuTe's identity swizzle
}

TEST(SwizzleParse, BadSpecsGiveOneLineNamingTheValue) {
    const std::vector<std::string> bad = {"",
                                          "foo",
                                          "XOR",
                                          "tma256",
                                          "pad:",
                                          "pad:3",
                                          "pad:-4",
                                          "pad:x",
                                          "pad:2048",
                                          "pad:4.0",
                                          "cute:",
                                          "cute:3,4",
                                          "cute:3,4,3,1",
                                          "cute:a,4,3",
                                          "cute:3,4,2",
                                          "cute:-1,4,3",
                                          "cute:3,-4,3",
                                          "cute:3,4,-3",
                                          "cute:17,4,17",
                                          "cute:6,6,7",
                                          "cute:3,4,3 "};
    for (const std::string& spec : bad) {
        const common::Expected<Swizzle> result = parse_swizzle(spec);
        ASSERT_FALSE(result.ok()) << "accepted \"" << spec << "\"";
        EXPECT_NE(result.error().find("\"" + spec + "\""), std::string::npos)
            << spec << " -> " << result.error();
        EXPECT_EQ(result.error().find('\n'), std::string::npos) << result.error();
    }
}

TEST(SwizzleParse, ErrorsSayWhatIsAllowed) {
    EXPECT_NE(parse_swizzle("foo").error().find("tma128"), std::string::npos);
    EXPECT_NE(parse_swizzle("foo").error().find("cute:B,M,S"), std::string::npos);
    EXPECT_NE(parse_swizzle("pad:6").error().find("multiple of 4"), std::string::npos);
    EXPECT_NE(parse_swizzle("pad:-4").error().find("0..1024"), std::string::npos);
    EXPECT_NE(parse_swizzle("cute:3,4,2").error().find("S = 2 must be >= B = 3"),
              std::string::npos);
    EXPECT_NE(parse_swizzle("cute:17,4,17").error().find("B = 17"), std::string::npos);
    // 6 + 6 + 7 = 19 bits: a 512 KiB span, more than the 256 KiB allowed.
    EXPECT_NE(parse_swizzle("cute:6,6,7").error().find("B + M + S = 19"), std::string::npos);
    EXPECT_NE(parse_swizzle("cute:3,4").error().find("three integers"), std::string::npos);
}

TEST(PhysicalAddress, WorkedExamplesOn8x128) {
    const Tile tile{8, 128};
    // Logical offset of (3, 20) is 3 * 128 + 20 = 404 = 0b1'1001'0100.
    EXPECT_EQ(physical_address(parsed("none"), tile, 3, 20), 404);
    EXPECT_EQ(physical_address(parsed("pad:4"), tile, 3, 20), 3 * 132 + 20);
    // xor: chunk 20 / 16 = 1, 1 ^ (3 mod 8) = 2 -> 384 + 32 + 4.
    EXPECT_EQ(physical_address(parsed("xor"), tile, 3, 20), 420);
    // cute:3,4,3: bits 7..9 of 404 are 3, bits 4..6 are 1; 1 ^ 3 = 2 -> 420.
    EXPECT_EQ(physical_address(parsed("cute:3,4,3"), tile, 3, 20), 420);
    EXPECT_EQ(physical_address(parsed("tma128"), tile, 3, 20), 420);
    // Row 5, byte 0: offset 640, bits 7..9 = 5.
    EXPECT_EQ(physical_address(parsed("tma128"), tile, 5, 0), 640 + 5 * 16);
    EXPECT_EQ(physical_address(parsed("tma64"), tile, 5, 0), 640 + 1 * 16);  // bits 7..8 = 1
    EXPECT_EQ(physical_address(parsed("tma32"), tile, 5, 0), 640 + 1 * 16);  // bit 7 = 1
    EXPECT_EQ(physical_address(parsed("tma32"), tile, 6, 0), 768);           // bit 7 = 0
    // Row 1, byte 0: bit 7 set -> bit 4 flipped.
    EXPECT_EQ(physical_address(parsed("cute:3,4,3"), tile, 1, 0), 144);
}

TEST(PhysicalAddress, XorPeriodFollowsChunksPerRow) {
    // 64-byte rows: 4 chunks, period 4. (5, 16): chunk 1 ^ (5 mod 4) = 0 -> 320.
    EXPECT_EQ(physical_address(parsed("xor"), Tile{8, 64}, 5, 16), 320);
    // 32-byte rows: 2 chunks, period 2. (3, 4): chunk 0 ^ 1 = 1 -> 96 + 16 + 4.
    EXPECT_EQ(physical_address(parsed("xor"), Tile{8, 32}, 3, 4), 116);
    // 16-byte rows: 1 chunk, nothing moves.
    EXPECT_EQ(physical_address(parsed("xor"), Tile{8, 16}, 7, 12), 124);
    // 256-byte rows: period 8, chunks 8..15 permute among themselves. (9, 128): 8 ^ 1 = 9.
    EXPECT_EQ(physical_address(parsed("xor"), Tile{16, 256}, 9, 128), 9 * 256 + 144);
}

TEST(PhysicalAddress, TmaModesEqualTheirCuteSwizzles) {
    const Tile tile{32, 128};
    const std::pair<const char*, const char*> pairs[] = {
        {"tma32", "cute:1,4,3"}, {"tma64", "cute:2,4,3"}, {"tma128", "cute:3,4,3"}};
    for (const auto& [tma, cute] : pairs) {
        const Swizzle a = parsed(tma), b = parsed(cute);
        for (int row = 0; row < tile.rows; ++row) {
            for (int col = 0; col < tile.row_bytes; ++col) {
                ASSERT_EQ(physical_address(a, tile, row, col), physical_address(b, tile, row, col))
                    << tma << " (" << row << ", " << col << ")";
            }
        }
    }
}

TEST(PhysicalAddress, Tma128MatchesTheXorLayoutOn128ByteRows) {
    // With 128-byte rows, CuTe's Swizzle<3,4,3> XORs the row (mod 8) into the 16-byte chunk:
    // the same permutation as `xor`.
    const Tile tile{64, 128};
    for (int row = 0; row < tile.rows; ++row) {
        for (int col = 0; col < tile.row_bytes; col += 4) {
            ASSERT_EQ(physical_address(parsed("tma128"), tile, row, col),
                      physical_address(parsed("xor"), tile, row, col));
        }
    }
}

// Every valid (swizzle, tile) places the tile's 4-byte words at distinct, aligned addresses
// inside its storage: a swizzle never loses or overlaps data.
TEST(PhysicalAddress, EveryValidSwizzleIsAPermutationOfTheStorage) {
    const std::vector<std::string> specs = {"none",       "pad:4",      "pad:16",     "xor",
                                            "tma32",      "tma64",      "tma128",     "cute:2,2,3",
                                            "cute:1,5,5", "cute:3,4,4", "cute:0,4,3", "cute:2,3,2"};
    const std::vector<Tile> tiles = {{8, 16}, {16, 32},  {8, 64},   {8, 128}, {32, 128},
                                     {3, 48}, {24, 128}, {16, 256}, {4, 384}, {64, 64}};
    int checked = 0;
    for (const std::string& spec : specs) {
        const Swizzle swizzle = parsed(spec);
        for (const Tile& tile : tiles) {
            if (!validate_swizzle(swizzle, tile, 4, "lds.32").empty()) {
                continue;
            }
            ++checked;
            std::set<std::int64_t> seen;
            for (int row = 0; row < tile.rows; ++row) {
                for (int col = 0; col < tile.row_bytes; col += 4) {
                    const std::int64_t addr = physical_address(swizzle, tile, row, col);
                    ASSERT_EQ(addr % 4, 0) << spec;
                    ASSERT_GE(addr, 0) << spec;
                    ASSERT_LT(addr, storage_bytes(swizzle, tile)) << spec;
                    ASSERT_TRUE(seen.insert(addr).second)
                        << spec << " on " << tile.rows << " x " << tile.row_bytes
                        << " maps two words to " << addr;
                }
            }
        }
    }
    EXPECT_GE(checked, 90);  // 98 of the 120 combinations are valid
}

TEST(StorageBytes, PaddingCounts) {
    EXPECT_EQ(storage_bytes(parsed("none"), Tile{32, 128}), 4096);
    EXPECT_EQ(storage_bytes(parsed("pad:4"), Tile{32, 128}), 32 * 132);
    EXPECT_EQ(storage_bytes(parsed("tma128"), Tile{32, 128}), 4096);
}

TEST(ValidateSwizzle, AcceptsFittingCombinations) {
    EXPECT_EQ(validate_swizzle(parsed("none"), Tile{1, 4}, 4, "p"), "");
    EXPECT_EQ(validate_swizzle(parsed("pad:16"), Tile{16, 32}, 16, "p"), "");
    EXPECT_EQ(validate_swizzle(parsed("pad:4"), Tile{32, 128}, 4, "p"), "");
    EXPECT_EQ(validate_swizzle(parsed("xor"), Tile{16, 32}, 16, "p"), "");
    EXPECT_EQ(validate_swizzle(parsed("xor"), Tile{4, 384}, 16, "p"), "");     // 24 chunks
    EXPECT_EQ(validate_swizzle(parsed("tma128"), Tile{8, 128}, 16, "p"), "");  // span 1024
    EXPECT_EQ(validate_swizzle(parsed("tma32"), Tile{16, 32}, 16, "p"), "");   // span 256
    EXPECT_EQ(validate_swizzle(parsed("cute:3,2,3"), Tile{32, 128}, 4, "p"), "");
    EXPECT_EQ(validate_swizzle(parsed("cute:0,4,3"), Tile{1, 4}, 4, "p"), "");  // identity
}

TEST(ValidateSwizzle, RejectsWithOneLineNamingTheValue) {
    struct Case {
        const char* spec;
        Tile tile;
        int access_bytes;
        const char* must_mention;
    };
    const Case cases[] = {
        {"pad:4", {16, 128}, 16, "multiple of 16"},  // breaks 16-byte alignment
        {"pad:4", {32, 128}, 8, "multiple of 8"},
        {"xor", {8, 48}, 16, "row_bytes 48"},          // 3 chunks: 2 ^ 1 = 3 leaves the row
        {"xor", {8, 40}, 4, "row_bytes 40"},           // not whole chunks
        {"xor", {8, 160}, 16, "row_bytes 160"},        // 10 chunks: 9 ^ 7 = 14 leaves the row
        {"tma128", {16, 32}, 16, "spans 1024 bytes"},  // tile is only 512 bytes
        {"tma64", {4, 64}, 4, "spans 512 bytes"},
        {"cute:3,2,3", {32, 128}, 16, "M must be >= 4"},
        {"cute:3,2,3", {32, 128}, 8, "M must be >= 3"},
        {"cute:1,4,1", {3, 48}, 16, "32-byte blocks"},  // 144 bytes, span 64 fits
    };
    for (const Case& c : cases) {
        const std::string error = validate_swizzle(parsed(c.spec), c.tile, c.access_bytes, "pat");
        ASSERT_FALSE(error.empty()) << c.spec << " on " << c.tile.rows << " x " << c.tile.row_bytes;
        EXPECT_NE(error.find(c.must_mention), std::string::npos) << error;
        EXPECT_NE(error.find(c.spec), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

TEST(Describe, SaysWhatEachSwizzleDoes) {
    EXPECT_NE(describe(parsed("none")).find("row-major"), std::string::npos);
    EXPECT_NE(describe(parsed("pad:8")).find("row_bytes + 8"), std::string::npos);
    EXPECT_NE(describe(parsed("xor")).find("c ^ (r mod min(8, row_bytes / 16))"),
              std::string::npos);
    const std::string tma = describe(parsed("tma128"));
    EXPECT_NE(tma.find("cute:3,4,3"), std::string::npos) << tma;
    EXPECT_NE(tma.find("128B"), std::string::npos) << tma;
    const std::string cute = describe(parsed("cute:3,4,3"));
    EXPECT_NE(cute.find("bits 7..9"), std::string::npos) << cute;
    EXPECT_NE(cute.find("bits 4..6"), std::string::npos) << cute;
    EXPECT_NE(cute.find("(o & 896) >> 3"), std::string::npos) << cute;  // 0b111 << 7 = 896
    EXPECT_NE(cute.find("every 1024 bytes"), std::string::npos) << cute;
    EXPECT_NE(describe(parsed("cute:0,4,3")).find("identity"), std::string::npos);
}

TEST(ListSwizzles, NamesEveryKindAndTheConcreteOnesParse) {
    std::set<std::string> specs;
    for (const NamedSwizzle& named : list_swizzles()) {
        specs.insert(named.spec);
        EXPECT_FALSE(named.summary.empty()) << named.spec;
        if (named.spec.find(':') == std::string::npos) {
            EXPECT_TRUE(parse_swizzle(named.spec).ok()) << named.spec;
        }
    }
    const std::set<std::string> expected = {"none",  "pad:N", "xor",   "cute:B,M,S",
                                            "tma32", "tma64", "tma128"};
    EXPECT_EQ(specs, expected);
}

}  // namespace
}  // namespace tclens::viz
