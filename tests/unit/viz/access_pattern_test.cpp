// Tests for viz/access_pattern.*.
//
// Lane positions are written by hand from the pattern definitions (PTX ldmatrix: lane l
// supplies the address of row l of the source block; x4 over a 16 x 16 b16 tile takes rows
// 0-15 at column 0 from lanes 0-15 and at column 8 from lanes 16-31).
#include "viz/access_pattern.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tclens::viz {
namespace {

Pattern pattern_named(const std::string& name) {
    const common::Expected<Pattern> result = parse_pattern(name);
    EXPECT_TRUE(result.ok()) << name << ": " << result.error();
    return result.ok() ? result.value() : Pattern{};
}

Request only_request(const std::string& name, const Tile& tile) {
    const Pattern pattern = pattern_named(name);
    EXPECT_EQ(validate_tile(pattern, tile), "");
    const std::vector<Request> requests = pattern_requests(pattern, tile);
    EXPECT_EQ(requests.size(), 1u);
    return requests.empty() ? Request{} : requests.front();
}

std::pair<int, int> position(const Request& request, int lane) {
    for (const LaneAccess& access : request.lanes) {
        if (access.lane == lane) {
            return {access.row, access.byte_col};
        }
    }
    ADD_FAILURE() << "lane " << lane << " does not take part";
    return {-1, -1};
}

TEST(PatternList, HasTheRequiredPatternsAndEachParses) {
    std::set<std::string> names;
    for (const Pattern& pattern : list_patterns()) {
        EXPECT_TRUE(names.insert(pattern.name).second) << "duplicate " << pattern.name;
        EXPECT_FALSE(pattern.summary.empty()) << pattern.name;
        EXPECT_EQ(pattern_named(pattern.name).name, pattern.name);
    }
    for (const char* required :
         {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "cp.async.16", "lds.128.row", "lds.32.row",
          "lds.32.col", "lds.64.row", "sts.32.col"}) {
        EXPECT_EQ(names.count(required), 1u) << required;
    }
}

TEST(PatternParse, UnknownNameListsTheAllowedOnes) {
    for (const std::string bad : {"", "ldmatrix.x3", "LDS.32.ROW", "lds.32"}) {
        const common::Expected<Pattern> result = parse_pattern(bad);
        ASSERT_FALSE(result.ok()) << bad;
        EXPECT_NE(result.error().find("\"" + bad + "\""), std::string::npos) << result.error();
        EXPECT_NE(result.error().find("ldmatrix.x4"), std::string::npos) << result.error();
        EXPECT_NE(result.error().find("sts.32.col"), std::string::npos) << result.error();
        EXPECT_EQ(result.error().find('\n'), std::string::npos);
    }
}

TEST(PatternProperties, WidthsStoresAndDefaultTiles) {
    struct Row {
        const char* name;
        int access_bytes;
        bool is_store;
        int active_lanes;
        Tile default_tile;
    };
    const Row rows[] = {
        {"ldmatrix.x1", 16, false, 8, {8, 16}},    {"ldmatrix.x2", 16, false, 16, {16, 16}},
        {"ldmatrix.x4", 16, false, 32, {16, 32}},  {"cp.async.16", 16, true, 32, {32, 128}},
        {"lds.128.row", 16, false, 32, {32, 128}}, {"lds.64.row", 8, false, 32, {32, 128}},
        {"lds.32.row", 4, false, 32, {32, 128}},   {"lds.32.col", 4, false, 32, {32, 128}},
        {"sts.32.col", 4, true, 32, {32, 128}},
    };
    for (const Row& row : rows) {
        const Pattern pattern = pattern_named(row.name);
        EXPECT_EQ(pattern.access_bytes, row.access_bytes) << row.name;
        EXPECT_EQ(pattern.is_store, row.is_store) << row.name;
        EXPECT_EQ(pattern.active_lanes, row.active_lanes) << row.name;
        EXPECT_EQ(pattern.default_tile, row.default_tile) << row.name;
    }
}

TEST(LaneAccess, LdmatrixX4SplitsLanesIntoTwoColumnHalves) {
    const Request request = only_request("ldmatrix.x4", Tile{16, 32});
    EXPECT_EQ(request.lanes.size(), 32u);
    EXPECT_EQ(request.phase_count, 4);
    EXPECT_EQ(position(request, 0), std::make_pair(0, 0));
    EXPECT_EQ(position(request, 7), std::make_pair(7, 0));
    EXPECT_EQ(position(request, 8), std::make_pair(8, 0));
    EXPECT_EQ(position(request, 15), std::make_pair(15, 0));
    EXPECT_EQ(position(request, 16), std::make_pair(0, 16));  // column 8 of b16 = byte 16
    EXPECT_EQ(position(request, 21), std::make_pair(5, 16));
    EXPECT_EQ(position(request, 31), std::make_pair(15, 16));
    for (const LaneAccess& access : request.lanes) {
        EXPECT_EQ(access.phase, access.lane / 8) << "each 8-lane matrix is one phase";
    }
}

TEST(LaneAccess, LdmatrixX1AndX2UseOnlyTheirAddressLanes) {
    const Request x1 = only_request("ldmatrix.x1", Tile{8, 16});
    ASSERT_EQ(x1.lanes.size(), 8u);
    EXPECT_EQ(x1.phase_count, 1);
    EXPECT_EQ(position(x1, 6), std::make_pair(6, 0));

    const Request x2 = only_request("ldmatrix.x2", Tile{16, 16});
    ASSERT_EQ(x2.lanes.size(), 16u);
    EXPECT_EQ(x2.phase_count, 2);
    EXPECT_EQ(position(x2, 13), std::make_pair(13, 0));
    EXPECT_EQ(x2.lanes[13].phase, 1);
}

TEST(LaneAccess, TransposedLdmatrixReadsTheSameAddresses) {
    for (const char* n : {"x1", "x2", "x4"}) {
        const std::string plain = std::string("ldmatrix.") + n;
        const Request a = only_request(plain, Tile{16, 64});
        const Request b = only_request(plain + ".trans", Tile{16, 64});
        ASSERT_EQ(a.lanes.size(), b.lanes.size());
        for (std::size_t i = 0; i < a.lanes.size(); ++i) {
            EXPECT_EQ(a.lanes[i].row, b.lanes[i].row);
            EXPECT_EQ(a.lanes[i].byte_col, b.lanes[i].byte_col);
        }
    }
}

TEST(LaneAccess, LinearPatternsWalkTheTileRowMajor) {
    // 16-byte chunks: 8 per 128-byte row, so lane 9 is chunk 1 of row 1.
    for (const char* name : {"lds.128.row", "cp.async.16"}) {
        const Request request = only_request(name, Tile{32, 128});
        EXPECT_EQ(position(request, 9), std::make_pair(1, 16)) << name;
        EXPECT_EQ(position(request, 31), std::make_pair(3, 112)) << name;
        EXPECT_EQ(request.phase_count, 4) << name;
        EXPECT_EQ(request.lanes[9].phase, 1) << name;
    }
    EXPECT_TRUE(only_request("cp.async.16", Tile{32, 128}).is_store);
    EXPECT_FALSE(only_request("lds.128.row", Tile{32, 128}).is_store);

    // 8-byte pieces on 64-byte rows: lane 9 is byte 72 -> (1, 8). Two 16-lane phases.
    const Request lds64 = only_request("lds.64.row", Tile{32, 64});
    EXPECT_EQ(position(lds64, 9), std::make_pair(1, 8));
    EXPECT_EQ(position(lds64, 31), std::make_pair(3, 56));
    EXPECT_EQ(lds64.phase_count, 2);
    EXPECT_EQ(lds64.lanes[15].phase, 0);
    EXPECT_EQ(lds64.lanes[16].phase, 1);

    const Request lds32 = only_request("lds.32.row", Tile{32, 128});
    EXPECT_EQ(position(lds32, 31), std::make_pair(0, 124));
    EXPECT_EQ(lds32.phase_count, 1);
}

TEST(LaneAccess, ColumnAndBroadcastPatterns) {
    const Request col = only_request("lds.32.col", Tile{32, 128});
    EXPECT_EQ(position(col, 7), std::make_pair(7, 0));
    EXPECT_EQ(position(col, 31), std::make_pair(31, 0));
    EXPECT_FALSE(col.is_store);

    const Request sts = only_request("sts.32.col", Tile{32, 128});
    EXPECT_EQ(position(sts, 20), std::make_pair(20, 0));
    EXPECT_TRUE(sts.is_store);

    const Request same = only_request("lds.32.bcast", Tile{32, 128});
    for (const LaneAccess& access : same.lanes) {
        EXPECT_EQ(access.row, 0);
        EXPECT_EQ(access.byte_col, 0);
    }
}

TEST(ValidateTile, RejectsWithOneLineNamingTheValue) {
    struct Case {
        const char* pattern;
        Tile tile;
        const char* must_mention;
    };
    const Case cases[] = {
        {"ldmatrix.x4", {16, 40}, "row_bytes 40 is not a multiple of 16"},
        {"ldmatrix.x4", {8, 32}, "needs at least 16 rows of 32 bytes"},
        {"ldmatrix.x4", {16, 16}, "needs at least 16 rows of 32 bytes"},
        {"ldmatrix.x1", {4, 16}, "needs at least 8 rows"},
        {"lds.32.col", {16, 128}, "needs at least 32 rows"},
        {"sts.32.col", {31, 4}, "needs at least 32 rows"},
        {"lds.32.row", {32, 64}, "needs at least rows of 128 bytes"},
        {"lds.128.row", {4, 64}, "needs at least 512 bytes"},
        {"cp.async.16", {2, 128}, "needs at least 512 bytes"},
        {"lds.64.row", {32, 12}, "row_bytes 12 is not a multiple of 8"},
        {"lds.64.row", {1, 128}, "needs at least 256 bytes"},
        {"lds.32.row", {0, 128}, "at least 1"},
        {"lds.32.row", {4, -128}, "at least 1"},
        {"lds.32.col", {1024, 1024}, "at most 262144"},
    };
    for (const Case& c : cases) {
        const std::string error = validate_tile(pattern_named(c.pattern), c.tile);
        ASSERT_FALSE(error.empty()) << c.pattern << " " << c.tile.rows << " x " << c.tile.row_bytes;
        EXPECT_NE(error.find(c.must_mention), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

// Every pattern on its default tile and on a few larger ones: lanes stay inside the tile,
// phases hold at most 128 bytes of lanes, and only the broadcast pattern repeats a position.
TEST(PatternRequests, EveryPatternStaysInsideItsTile) {
    for (const Pattern& pattern : list_patterns()) {
        for (const Tile& tile : {pattern.default_tile, Tile{64, 256}, Tile{32, 512}}) {
            ASSERT_EQ(validate_tile(pattern, tile), "") << pattern.name;
            const std::vector<Request> requests = pattern_requests(pattern, tile);
            ASSERT_EQ(requests.size(), 1u);
            const Request& request = requests.front();
            EXPECT_EQ(request.access_bytes, pattern.access_bytes);
            EXPECT_EQ(static_cast<int>(request.lanes.size()), pattern.active_lanes);
            std::vector<int> per_phase(request.phase_count, 0);
            std::set<std::pair<int, int>> positions;
            for (const LaneAccess& access : request.lanes) {
                EXPECT_GE(access.row, 0);
                EXPECT_LT(access.row, tile.rows) << pattern.name << " lane " << access.lane;
                EXPECT_EQ(access.byte_col % pattern.access_bytes, 0);
                EXPECT_LE(access.byte_col + pattern.access_bytes, tile.row_bytes);
                ASSERT_LT(access.phase, request.phase_count);
                ++per_phase[access.phase];
                positions.insert({access.row, access.byte_col});
            }
            for (int count : per_phase) {
                EXPECT_EQ(count * pattern.access_bytes, 128) << pattern.name;
            }
            const std::size_t expected_distinct =
                pattern.name == "lds.32.bcast" ? 1u : request.lanes.size();
            EXPECT_EQ(positions.size(), expected_distinct) << pattern.name;
        }
    }
}

}  // namespace
}  // namespace tclens::viz
