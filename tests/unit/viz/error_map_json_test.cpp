// Tests for viz/error_map_json.*: a map round-trips (NaN "got" included), and a map that does
// not add up (cells that do not cover C, counts that contradict each other, a first element
// outside C) is refused naming what is wrong.

#include "viz/error_map_json.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tclens::viz {
namespace {

ErrorMap map_of_2x3_cells() {
    ErrorMap map;
    map.rows = 20;
    map.cols = 17;
    map.cell_rows = 16;
    map.cell_cols = 8;
    map.granularity = "16x8 tile";
    map.grid_rows = 2;
    map.grid_cols = 3;
    map.cells = {{128, 2, 0}, {128, 0, 0}, {16, 1, 1}, {32, 0, 0}, {32, 0, 0}, {4, 4, 0}};
    map.wrong = 7;
    map.nan = 1;
    map.tolerance = 0.5;
    map.first_wrong = WrongElement{0, 3, 2.0, -1.0};
    return map;
}

TEST(ErrorMapJson, RoundTrips) {
    ErrorMap map = map_of_2x3_cells();
    map.first_wrong->got = std::nan("");
    ErrorMap back;
    std::string error;
    ASSERT_TRUE(error_map_from_json(error_map_json(map), back, error)) << error;
    EXPECT_EQ(back.rows, 20);
    EXPECT_EQ(back.cols, 17);
    EXPECT_EQ(back.cell_rows, 16);
    EXPECT_EQ(back.granularity, "16x8 tile");
    ASSERT_EQ(back.cells.size(), 6u);
    EXPECT_EQ(back.cell(1, 2).wrong, 4);
    EXPECT_EQ(back.cell(0, 2).nan, 1);
    EXPECT_EQ(back.wrong, 7);
    ASSERT_TRUE(back.first_wrong.has_value());
    EXPECT_EQ(back.first_wrong->col, 3);
    EXPECT_TRUE(std::isnan(back.first_wrong->got));
    EXPECT_TRUE(error_map_json(map)["first_wrong"]["got"].is_null());

    map.first_wrong.reset();
    map.bug = "C: every lane's c1 and c2 are exchanged";
    ASSERT_TRUE(error_map_from_json(error_map_json(map), back, error)) << error;
    EXPECT_FALSE(back.first_wrong.has_value());
    EXPECT_EQ(back.bug, map.bug);
    // The folded tile round-trips; not folded is null.
    EXPECT_TRUE(error_map_json(map)["folded"].is_null());
    map.folded.layout_id = "mma.m16n8k16.f16";
    map.folded.rows = 2;
    map.folded.cols = 2;
    map.folded.tiles = 9;
    map.folded.wrong_tiles = 3;
    map.folded.wrong = {3, 0, 1, 2};
    ASSERT_TRUE(error_map_from_json(error_map_json(map), back, error)) << error;
    EXPECT_EQ(back.folded.layout_id, "mma.m16n8k16.f16");
    EXPECT_EQ(back.folded.wrong, map.folded.wrong);
    EXPECT_EQ(back.folded.wrong_tiles, 3);
    // A map written before the bug was named reads as naming none.
    nlohmann::json older = error_map_json(map);
    older.erase("bug");
    ASSERT_TRUE(error_map_from_json(older, back, error)) << error;
    EXPECT_EQ(back.bug, "");
}

TEST(ErrorMapJson, AMapThatDoesNotAddUpIsRefused) {
    const nlohmann::json good = error_map_json(map_of_2x3_cells());
    struct Case {
        const char* what;
        nlohmann::json json;
        const char* named;
    };
    std::vector<Case> cases;
    auto with = [&](const char* what, auto edit, const char* named) {
        nlohmann::json j = good;
        edit(j);
        cases.push_back({what, j, named});
    };
    with(
        "not an object", [](nlohmann::json& j) { j = nlohmann::json::array(); }, "object");
    with(
        "folded not an object", [](nlohmann::json& j) { j["folded"] = 3; }, "'folded'");
    with(
        "folded counts short",
        [](nlohmann::json& j) {
            j["folded"] = {{"layout", "x"}, {"rows", 2},        {"cols", 2},
                           {"tiles", 4},    {"wrong_tiles", 1}, {"wrong", {0, 1, 0}}};
        },
        "rows x cols");
    with(
        "folded count above the wrong tiles",
        [](nlohmann::json& j) {
            j["folded"] = {{"layout", "x"}, {"rows", 1},        {"cols", 2},
                           {"tiles", 4},    {"wrong_tiles", 1}, {"wrong", {0, 2}}};
        },
        "0..1");
    with(
        "bug not a text", [](nlohmann::json& j) { j["bug"] = 3; }, "'bug'");
    with(
        "rows missing", [](nlohmann::json& j) { j.erase("rows"); }, "'rows'");
    with(
        "rows zero", [](nlohmann::json& j) { j["rows"] = 0; }, "'rows'");
    with(
        "grid too small", [](nlohmann::json& j) { j["grid_cols"] = 2; }, "does not cover");
    with(
        "grid huge", [](nlohmann::json& j) { j["grid_rows"] = 5000; }, "'grid_rows'");
    with(
        "cells short", [](nlohmann::json& j) { j["cells"].erase(0); }, "'cells'");
    with(
        "cell not a triple",
        [](nlohmann::json& j) {
            j["cells"][1] = {1, 2};
        },
        "cells[1]");
    with(
        "nan over wrong",
        [](nlohmann::json& j) {
            j["cells"][0] = {128, 1, 2};
        },
        "cells[0]");
    with(
        "wrong over elements",
        [](nlohmann::json& j) {
            j["cells"][0] = {4, 5, 0};
        },
        "cells[0]");
    with(
        "cell over its size",
        [](nlohmann::json& j) {
            j["cells"][0] = {129, 0, 0};
        },
        "cells[0]");
    with(
        "totals off", [](nlohmann::json& j) { j["wrong"] = 6; }, "sums of the cells");
    with(
        "first outside", [](nlohmann::json& j) { j["first_wrong"]["row"] = 20; }, "first_wrong");
    with(
        "granularity missing", [](nlohmann::json& j) { j.erase("granularity"); }, "'granularity'");
    for (const Case& c : cases) {
        ErrorMap back;
        std::string error;
        EXPECT_FALSE(error_map_from_json(c.json, back, error)) << c.what;
        EXPECT_NE(error.find(c.named), std::string::npos)
            << c.what << ": " << error << " (wanted " << c.named << ")";
    }
}

}  // namespace
}  // namespace tclens::viz
