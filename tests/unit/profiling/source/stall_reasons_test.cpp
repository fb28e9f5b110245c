// Stall reasons: CUPTI's names taken apart, and a sentence and an Nsight Compute column for each.

#include "profiling/source/stall_reasons.h"

#include <gtest/gtest.h>

#include <set>

namespace tclens::profiling {
namespace {

TEST(StallReasons, TakesCuptiNamesApart) {
    const StallName plain = parse_stall_name("smsp__pcsamp_warps_issue_stalled_long_scoreboard");
    EXPECT_EQ(plain.key, "long_scoreboard");
    EXPECT_FALSE(plain.not_issued);
    const StallName not_issued =
        parse_stall_name("smsp__pcsamp_warps_issue_stalled_math_pipe_throttle_not_issued");
    EXPECT_EQ(not_issued.key, "math_pipe_throttle");
    EXPECT_TRUE(not_issued.not_issued);
    EXPECT_EQ(parse_stall_name("something_else").key, "something_else");
}

TEST(StallReasons, EveryReasonHasAUniqueKeyColumnAndASentence) {
    std::set<std::string> keys;
    std::set<std::string> columns;
    for (const StallReasonInfo& reason : stall_reasons()) {
        EXPECT_TRUE(keys.insert(reason.key).second) << reason.key;
        EXPECT_TRUE(columns.insert(reason.ncu_column).second) << reason.ncu_column;
        EXPECT_EQ(reason.ncu_column.rfind("stall_", 0), 0u) << reason.key;
        EXPECT_FALSE(reason.label.empty());
        ASSERT_FALSE(reason.meaning.empty()) << reason.key;
        EXPECT_EQ(reason.meaning.back(), '.') << reason.key;
    }
    // The four the issue names, and what they mean for a GEMM.
    EXPECT_NE(find_stall_reason("long_scoreboard")->meaning.find("global"), std::string::npos);
    EXPECT_NE(find_stall_reason("barrier")->meaning.find("__syncthreads"), std::string::npos);
    EXPECT_NE(find_stall_reason("math_pipe_throttle")->meaning.find("busy"), std::string::npos);
    EXPECT_NE(find_stall_reason("wait")->meaning.find("fixed-latency"), std::string::npos);
}

TEST(StallReasons, AnUnknownReasonIsStillShown) {
    EXPECT_EQ(find_stall_reason("quantum_entanglement"), nullptr);
    const StallReasonInfo unknown = stall_reason_or_unknown("quantum_entanglement");
    EXPECT_EQ(unknown.label, "quantum_entanglement");
    EXPECT_NE(unknown.meaning.find("smsp__pcsamp_warps_issue_stalled_quantum_entanglement"),
              std::string::npos);
    EXPECT_EQ(stall_reason_or_unknown("barrier").label, "Barrier");
}

}  // namespace
}  // namespace tclens::profiling
