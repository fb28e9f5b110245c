// `tclens profile` on a GPU, end to end: the JSON of a profile and of a timeline, the table, and
// an unknown metric on the chip (exit 2 with suggestions).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

// The GUI's Live through the worker: real profiles stream until N, then their rate.
TEST(ProfileCommandOnGpu, LiveUpdatesStreamThroughTheWorker) {
    TCLENS_REQUIRE_GPU();
    for (const std::string mode : {"", " --timeline"}) {
        const auto result =
            test::run_command(kTclens + " profile --kernel mma_cp_async.bf16 --mnk 1024x1024x1024" +
                              mode + " --live-updates 20");
        ASSERT_EQ(result.exit_code, 0) << mode << "\n" << result.err;
        EXPECT_EQ(result.out.rfind("20 updates in ", 0), 0u) << result.out;
        const std::size_t colon = result.out.find(": ");
        ASSERT_NE(colon, std::string::npos) << result.out;
        EXPECT_GT(std::stod(result.out.substr(colon + 2)), 0.0) << result.out;
    }
}

TEST(ProfileCommandOnGpu, JsonProfileOfTheDefaultSet) {
    TCLENS_REQUIRE_GPU();
    const auto result = test::run_command(
        kTclens + " profile --kernel mma_cp_async.bf16 --mnk 2048x2048x2048 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    EXPECT_EQ(j["kernel"], "mma_cp_async.bf16");
    EXPECT_TRUE(j["verified"]);
    EXPECT_GE(j["passes"].get<int>(), 1);
    EXPECT_EQ(j["error"], "");
    bool duration = false;
    for (const nlohmann::json& metric : j["metrics"]) {
        if (metric["name"] == "gpu__time_duration.sum")
            duration = metric["value"].get<double>() > 0;
    }
    EXPECT_TRUE(duration) << j["metrics"].dump();
    EXPECT_FALSE(j["launches"].empty()) << j["launch_error"];
    EXPECT_GE(j["occupancy"]["blocks_per_sm"].get<int>(), 1);
}

TEST(ProfileCommandOnGpu, TableNamesLabelsUnitsAndPasses) {
    TCLENS_REQUIRE_GPU();
    const auto result =
        test::run_command(kTclens +
                          " profile --kernel register_tiled.f32 --mnk 1024x1024x1024 "
                          "--metrics gpu__time_duration.sum,launch__registers_per_thread");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("duration"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("registers/thread"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("1 pass"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("blocks/SM"), std::string::npos) << result.out;
}

TEST(ProfileCommandOnGpu, JsonTimeline) {
    TCLENS_REQUIRE_GPU();
    const auto result =
        test::run_command(kTclens +
                          " profile --kernel mma_cp_async.bf16 --mnk 2048x2048x2048 "
                          "--timeline --interval-us 500 --duration-ms 200 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    EXPECT_EQ(j["interval_ns"], 500000);
    EXPECT_EQ(j["metrics"].size(), 3u);
    EXPECT_GT(j["samples"].size(), 100u);
    EXPECT_EQ(j["samples"][0]["t_ns"], 0);
    EXPECT_EQ(j["samples"][0]["values"].size(), 3u);
}

TEST(ProfileCommandOnGpu, MetricTheChipDoesNotKnowExits2WithSuggestions) {
    TCLENS_REQUIRE_GPU();
    const auto result = test::run_command(
        kTclens +
        " profile --kernel naive_fma.f32 --mnk 256x256x256 --metrics dram__bytes_red.sum");
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("unknown metric 'dram__bytes_red.sum'"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("dram__bytes_read.sum"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tclens
