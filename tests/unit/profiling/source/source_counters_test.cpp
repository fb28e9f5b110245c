// Which SASS metrics make which per-instruction counter, and which totals they must add up to.

#include "profiling/source/source_counters.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

const std::string kW = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared";
const std::string kC = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared";

TEST(SourceCounters, TakesTheFirstGroupTheChipListsWhole) {
    const ChosenCounters chosen = choose_source_counters(
        {"smsp__sass_inst_executed", kW, kW + "_op_ld", kW + "_op_st", kC + "_op_ld",
         kC + "_op_ldsm", kC + "_op_st", "smsp__sass_sectors_mem_global"});
    EXPECT_TRUE(chosen.missing.empty());
    EXPECT_EQ(chosen.metrics.at(SourceCounter::kSharedWavefronts), std::vector<std::string>{kW});
    const std::vector<std::string> split = {kC + "_op_ld", kC + "_op_ldsm", kC + "_op_st"};
    EXPECT_EQ(chosen.metrics.at(SourceCounter::kSharedConflicts), split);
    // Each name once, in counter order.
    const std::vector<std::string> all = {
        "smsp__sass_inst_executed",     kW, kC + "_op_ld", kC + "_op_ldsm", kC + "_op_st",
        "smsp__sass_sectors_mem_global"};
    EXPECT_EQ(chosen.all_metrics(), all);
}
TEST(SourceCounters, ACounterNoGroupFitsIsMissingAndSaysWhich) {
    const ChosenCounters chosen =
        choose_source_counters({"smsp__sass_inst_executed", kW + "_op_ld"});
    EXPECT_TRUE(chosen.has(SourceCounter::kExecuted));
    EXPECT_FALSE(chosen.has(SourceCounter::kSharedWavefronts));  // _op_st is not listed
    ASSERT_EQ(chosen.missing.size(), 3u);
    EXPECT_NE(chosen.missing[0].find("Shared wavefronts"), std::string::npos);
    EXPECT_NE(chosen.missing[0].find(kW), std::string::npos);
    EXPECT_TRUE(choose_source_counters({}).all_metrics().empty());
}

TEST(SourceCounters, AMissingCounterNamesWhatTheChipListsInstead) {
    const ChosenCounters chosen = choose_source_counters(
        {"smsp__sass_inst_executed", "smsp__sass_l1tex_wavefronts_shared_ld",
         "smsp__sass_l1tex_bank_conflicts_shared_ld", "smsp__sass_sectors_mem_global"});
    ASSERT_EQ(chosen.missing.size(), 2u);
    EXPECT_NE(chosen.missing[0].find("(it lists: smsp__sass_l1tex_wavefronts_shared_ld)"),
              std::string::npos)
        << chosen.missing[0];
    EXPECT_NE(chosen.missing[1].find("(it lists: smsp__sass_l1tex_bank_conflicts_shared_ld)"),
              std::string::npos)
        << chosen.missing[1];
    // Nothing related listed: no parenthesis.
    const ChosenCounters none = choose_source_counters({"smsp__sass_inst_executed"});
    EXPECT_EQ(none.missing[0].find("(it lists"), std::string::npos) << none.missing[0];
}

TEST(SourceCounters, FiltersSharedLoadsAndStoresByOpcode) {
    EXPECT_TRUE(opcode_passes("LDS.U.128", OpcodeFilter::kSharedLoads));
    EXPECT_TRUE(opcode_passes("LDSM.16.MT88.4", OpcodeFilter::kSharedLoads));
    EXPECT_FALSE(opcode_passes("LDGSTS.E.BYPASS.128", OpcodeFilter::kSharedLoads));
    EXPECT_FALSE(opcode_passes("LDG.E.128", OpcodeFilter::kSharedLoads));
    EXPECT_TRUE(opcode_passes("STS.128", OpcodeFilter::kSharedStores));
    EXPECT_FALSE(opcode_passes("STG.E", OpcodeFilter::kSharedStores));
    EXPECT_FALSE(opcode_passes("LDS", OpcodeFilter::kSharedStores));
    EXPECT_TRUE(opcode_passes("HMMA.16816.F32", OpcodeFilter::kAll));
}

TEST(SourceCounters, ChecksCoverInstructionsAndSharedMemoryInAllAndSplit) {
    ASSERT_EQ(totals_checks().size(), 7u);
    EXPECT_EQ(totals_checks()[0].range_metric, "smsp__inst_executed.sum");
    int split = 0;
    for (const TotalsCheckSpec& check : totals_checks()) {
        EXPECT_NE(check.range_metric.find(".sum"), std::string::npos) << check.what;
        if (check.filter != OpcodeFilter::kAll) ++split;
    }
    EXPECT_EQ(split, 4);
    EXPECT_EQ(totals_check_metrics(ChosenCounters{}).size(), 7u);
    // GH100: no all-shared wavefronts nor conflicts of their own; the split conflicts are kept
    // as what comes off the split wavefronts.
    const std::string pipe = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
    const std::vector<std::string> gh100 = {
        "smsp__inst_executed.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"};
    EXPECT_EQ(totals_check_metrics(choose_source_counters({"smsp__sass_inst_executed", pipe})),
              gh100);
}

TEST(SourceCounters, OnGh100ConflictsAreThePipeWavefrontsBeyondTheirIdeal) {
    // The names the H100 lists (tests/gpu/results/2026-11-25_h100_session7/).
    const std::string pipe = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
    const ChosenCounters chosen = choose_source_counters(
        {"smsp__sass_inst_executed", pipe, pipe + "_ideal", "smsp__sass_sectors_mem_global"});
    EXPECT_TRUE(chosen.missing.empty());
    EXPECT_EQ(chosen.metrics.at(SourceCounter::kSharedWavefronts), std::vector<std::string>{pipe});
    const std::vector<std::string> difference = {pipe, "-" + pipe + "_ideal"};
    EXPECT_EQ(chosen.metrics.at(SourceCounter::kSharedConflicts), difference);
    // CUPTI is asked for each metric once, without the sign.
    const std::vector<std::string> all = {"smsp__sass_inst_executed", pipe, pipe + "_ideal",
                                          "smsp__sass_sectors_mem_global"};
    EXPECT_EQ(chosen.all_metrics(), all);
    EXPECT_TRUE(chosen.conflicts_apart);
}

TEST(SourceCounters, OnlyGh100sPipeWavefrontsAreComparedLessTheRangeConflicts) {
    const TotalsCheckSpec& loads = totals_checks()[2];
    ASSERT_EQ(loads.filter, OpcodeFilter::kSharedLoads);
    const std::string pipe = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
    const ChosenCounters gh100 = choose_source_counters({"smsp__sass_inst_executed", pipe});
    EXPECT_EQ(totals_check_target(loads, gh100),
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum - "
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    const std::string data = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared";
    const ChosenCounters other = choose_source_counters({"smsp__sass_inst_executed", data});
    EXPECT_FALSE(other.conflicts_apart);
    EXPECT_EQ(totals_check_target(loads, other),
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    EXPECT_EQ(totals_check_refusal(loads, other), "");
    EXPECT_EQ(totals_check_refusal(totals_checks()[4], other), "");
    EXPECT_NE(totals_check_refusal(totals_checks()[4], gh100), "");
}

}  // namespace
}  // namespace tclens::profiling
