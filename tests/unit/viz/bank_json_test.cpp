// Tests for viz/bank_json.*: the bank JSON of docs/json-formats.md, key for key.
//
// The expected documents are written out by hand from the contract and the bank rules.
#include "viz/bank_json.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tclens::viz {
namespace {

BankReport json_report(const std::string& swizzle, const std::string& pattern, const Tile& tile) {
    const common::Expected<Swizzle> s = parse_swizzle(swizzle);
    const common::Expected<Pattern> p = parse_pattern(pattern);
    EXPECT_TRUE(s.ok() && p.ok());
    const common::Expected<BankReport> result = bank_requests(s.value(), p.value(), tile);
    EXPECT_TRUE(result.ok()) << result.error();
    return result.ok() ? result.value() : BankReport{};
}

std::set<std::string> keys(const nlohmann::json& object) {
    std::set<std::string> names;
    for (auto it = object.begin(); it != object.end(); ++it) {
        names.insert(it.key());
    }
    return names;
}

TEST(BankJson, KeysAreExactlyTheContracts) {
    const nlohmann::json doc = bank_report_json(json_report("xor", "ldmatrix.x4", Tile{16, 128}));
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(keys(doc), (std::set<std::string>{"swizzle", "pattern", "bank_count", "bank_bytes",
                                                "requests", "total_wavefronts", "ideal_wavefronts",
                                                "conflict_wavefronts", "measured"}));
    ASSERT_TRUE(doc["requests"].is_array());
    ASSERT_EQ(doc["requests"].size(), 1u);
    const nlohmann::json& request = doc["requests"][0];
    EXPECT_EQ(keys(request), (std::set<std::string>{"index", "access_bytes", "lanes", "wavefronts",
                                                    "ideal_wavefronts"}));
    ASSERT_TRUE(request["lanes"].is_array());
    for (const nlohmann::json& lane : request["lanes"]) {
        EXPECT_EQ(keys(lane), (std::set<std::string>{"lane", "byte_addr", "banks"}));
    }
}

TEST(BankJson, ValuesForXorLdmatrixX4) {
    const nlohmann::json doc = bank_report_json(json_report("xor", "ldmatrix.x4", Tile{16, 128}));
    EXPECT_EQ(doc["swizzle"], "xor");
    EXPECT_EQ(doc["pattern"], "ldmatrix.x4");
    EXPECT_EQ(doc["bank_count"], 32);
    EXPECT_EQ(doc["bank_bytes"], 4);
    EXPECT_EQ(doc["total_wavefronts"], 4);
    EXPECT_EQ(doc["ideal_wavefronts"], 4);
    EXPECT_EQ(doc["conflict_wavefronts"], 0);
    EXPECT_TRUE(doc["measured"].is_null());
    const nlohmann::json& request = doc["requests"][0];
    EXPECT_EQ(request["index"], 0);
    EXPECT_EQ(request["access_bytes"], 16);
    EXPECT_EQ(request["wavefronts"], 4);
    EXPECT_EQ(request["ideal_wavefronts"], 4);
    ASSERT_EQ(request["lanes"].size(), 32u);
    EXPECT_EQ(request["lanes"][0],
              nlohmann::json::parse(R"({"lane": 0, "byte_addr": 0, "banks": [0, 1, 2, 3]})"));
    // Lane 3: row 3, chunk 0 ^ 3 = 3 -> 432, banks 12-15.
    EXPECT_EQ(request["lanes"][3],
              nlohmann::json::parse(R"({"lane": 3, "byte_addr": 432, "banks": [12, 13, 14, 15]})"));
}

TEST(BankJson, ConflictedReportCountsConflicts) {
    const nlohmann::json doc = bank_report_json(json_report("none", "ldmatrix.x4", Tile{16, 128}));
    EXPECT_EQ(doc["total_wavefronts"], 32);
    EXPECT_EQ(doc["ideal_wavefronts"], 4);
    EXPECT_EQ(doc["conflict_wavefronts"], 28);
    EXPECT_TRUE(doc["total_wavefronts"].is_number_integer());
    // Lane 17: row 1 at byte 16 -> 144, word 36, banks 4-7.
    EXPECT_EQ(doc["requests"][0]["lanes"][17]["byte_addr"], 144);
    EXPECT_EQ(doc["requests"][0]["lanes"][17]["banks"], nlohmann::json::parse("[4, 5, 6, 7]"));
}

TEST(BankJson, WholeDocumentForLdmatrixX1OnPackedRows) {
    // 8 rows of 16 bytes: lane l at byte 16 l, banks 4l .. 4l+3, one wavefront.
    const nlohmann::json expected = nlohmann::json::parse(R"({
        "swizzle": "none", "pattern": "ldmatrix.x1", "bank_count": 32, "bank_bytes": 4,
        "requests": [ { "index": 0, "access_bytes": 16,
            "lanes": [
                {"lane": 0, "byte_addr": 0,   "banks": [0, 1, 2, 3]},
                {"lane": 1, "byte_addr": 16,  "banks": [4, 5, 6, 7]},
                {"lane": 2, "byte_addr": 32,  "banks": [8, 9, 10, 11]},
                {"lane": 3, "byte_addr": 48,  "banks": [12, 13, 14, 15]},
                {"lane": 4, "byte_addr": 64,  "banks": [16, 17, 18, 19]},
                {"lane": 5, "byte_addr": 80,  "banks": [20, 21, 22, 23]},
                {"lane": 6, "byte_addr": 96,  "banks": [24, 25, 26, 27]},
                {"lane": 7, "byte_addr": 112, "banks": [28, 29, 30, 31]} ],
            "wavefronts": 1, "ideal_wavefronts": 1 } ],
        "total_wavefronts": 1, "ideal_wavefronts": 1, "conflict_wavefronts": 0,
        "measured": null })");
    EXPECT_EQ(bank_report_json(json_report("none", "ldmatrix.x1", Tile{8, 16})), expected);
}

TEST(BankJson, MeasuredIsNullUntilSet) {
    BankReport r = json_report("none", "lds.32.col", Tile{32, 128});
    EXPECT_TRUE(bank_report_json(r)["measured"].is_null());
    r.measured_wavefronts = 31.5;
    const nlohmann::json doc = bank_report_json(r);
    ASSERT_TRUE(doc["measured"].is_number());
    EXPECT_DOUBLE_EQ(doc["measured"].get<double>(), 31.5);
    EXPECT_EQ(doc["total_wavefronts"], 32);
}

TEST(BankJson, SwizzleIsTheCanonicalSpec) {
    EXPECT_EQ(bank_report_json(json_report("tma128", "lds.32.col", Tile{32, 128}))["swizzle"],
              "tma128");
    EXPECT_EQ(bank_report_json(json_report("pad:4", "lds.32.col", Tile{32, 128}))["swizzle"],
              "pad:4");
    EXPECT_EQ(bank_report_json(json_report("cute:3,4,3", "lds.32.col", Tile{32, 128}))["swizzle"],
              "cute:3,4,3");
}

}  // namespace
}  // namespace tclens::viz
