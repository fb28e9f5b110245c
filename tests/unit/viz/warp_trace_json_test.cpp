// viz/warp_trace_json.h: the round trip, and one-line errors naming the bad key or phase.
#include "viz/warp_trace_json.h"

#include <gtest/gtest.h>

namespace tclens::viz {
namespace {

WarpTrace sample() {
    WarpTrace t;
    t.kernel = "wgmma_ws.bf16";
    t.m = 512;
    t.n = 512;
    t.k = 256;
    t.blocks_launched = 8;
    t.blocks_traced = 2;
    t.warps_per_block = 12;
    t.wgmma_per_phase = 4;
    t.kernel_ms = 0.25;
    t.untraced_ms = 0.24;
    t.phases = {{0, 4, 3, TracePhase::kFullWait, 0, 0, 100, 180},
                {0, 4, 3, TracePhase::kWgmma, 0, 100, 400, 560},
                {1, 0, 9, TracePhase::kLoadIssue, 2, 50, 80, 60}};
    return t;
}

std::string error_of(nlohmann::json j) {
    WarpTrace t;
    std::string error;
    EXPECT_FALSE(warp_trace_from_json(j, t, error)) << j.dump();
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    return error;
}

TEST(WarpTraceJson, RoundTrip) {
    const nlohmann::json j = warp_trace_json(sample());
    WarpTrace back;
    std::string error;
    ASSERT_TRUE(warp_trace_from_json(j, back, error)) << error;
    EXPECT_EQ(warp_trace_json(back), j);
    EXPECT_EQ(j["phases"][1], nlohmann::json::parse(R"([0, 4, 3, "wgmma", 0, 100, 400, 560])"));
}

TEST(WarpTraceJson, MissingUnknownAndOutOfRangeKeys) {
    nlohmann::json j = warp_trace_json(sample());
    j.erase("dropped");
    EXPECT_EQ(error_of(j), "missing key 'dropped' in a warp trace");
    j = warp_trace_json(sample());
    j["colour"] = 1;
    EXPECT_EQ(error_of(j), "unknown key 'colour' in a warp trace");
    j = warp_trace_json(sample());
    j["blocks_traced"] = 9;
    EXPECT_NE(error_of(j).find("'blocks_traced'"), std::string::npos);
    j = warp_trace_json(sample());
    j["kernel_ms"] = -1;
    EXPECT_NE(error_of(j).find("'kernel_ms'"), std::string::npos);
}

// Found by fuzz_warp_trace: an unknown key with a newline in it made a two-line error.
TEST(WarpTraceJson, AnUnknownKeyIsShownOnOneLineAndCut) {
    nlohmann::json j = warp_trace_json(sample());
    j["blocks_\ntraced"] = 1;
    EXPECT_EQ(error_of(j), "unknown key 'blocks_ traced' in a warp trace");
    j = warp_trace_json(sample());
    j[std::string(100, 'x')] = 1;
    EXPECT_EQ(error_of(j), "unknown key '" + std::string(60, 'x') + "...' in a warp trace");
}

TEST(WarpTraceJson, BadPhasesNameTheirIndex) {
    nlohmann::json j = warp_trace_json(sample());
    j["phases"][1][3] = "mma";
    EXPECT_NE(error_of(j).find("phase 1: phase must be one of"), std::string::npos);
    j = warp_trace_json(sample());
    j["phases"][2][0] = 2;  // block 2 of 2 traced
    EXPECT_NE(error_of(j).find("phase 2: block"), std::string::npos);
    j = warp_trace_json(sample());
    j["phases"][0][6] = 0;  // ends before it starts? start 0, end 0 is allowed
    WarpTrace t;
    std::string error;
    EXPECT_TRUE(warp_trace_from_json(j, t, error)) << error;
    j["phases"][1][6] = 99;  // ends at 99, starts at 100
    EXPECT_NE(error_of(j).find("phase 1: end_ns"), std::string::npos);
    j = warp_trace_json(sample());
    j["phases"][0] = {0, 4, 3};
    EXPECT_NE(error_of(j).find("phase 0 must be"), std::string::npos);
}

TEST(WarpTraceJson, TextThatIsNotJson) {
    WarpTrace t;
    std::string error;
    EXPECT_FALSE(parse_warp_trace("{\"kernel\":", t, error));
    EXPECT_EQ(error, "a warp trace is not valid JSON");
}

}  // namespace
}  // namespace tclens::viz
