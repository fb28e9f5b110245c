// Tests for profiling/metric_catalogue.*: the catalogue holds the default set with a label, unit
// and meaning for each metric; sets; suggestions for unknown names; value formatting.

#include "profiling/metric_catalogue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace tclens::profiling {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(MetricCatalogue, EveryEntryIsComplete) {
    std::set<std::string> names;
    for (const MetricInfo& info : metric_catalogue()) {
        SCOPED_TRACE(info.name);
        EXPECT_TRUE(names.insert(info.name).second) << "listed twice";
        EXPECT_TRUE(looks_like_metric_name(info.name));
        EXPECT_FALSE(info.label.empty());
        EXPECT_LE(info.label.size(), 28u) << "labels fit a table column";
        EXPECT_FALSE(info.unit.empty());
        ASSERT_FALSE(info.meaning.empty());
        EXPECT_EQ(info.meaning.back(), '.') << "one sentence";
        EXPECT_EQ(info.meaning.find('\n'), std::string::npos);
        EXPECT_EQ(find_metric(info.name), &info);
        EXPECT_EQ(info.is_percent(), info.unit == "%");
        if (info.source == MetricSource::kLaunch) {
            EXPECT_EQ(info.name.rfind("launch__", 0), 0u);
        }
        EXPECT_FALSE(info.in_default_set && info.in_timeline_set);
    }
    EXPECT_EQ(find_metric("dram__bytes_read"), nullptr);
}

TEST(MetricCatalogue, DefaultSetHasWhatTheIssueAsksFor) {
    const std::vector<std::string> set = metric_set("default");
    for (const char* name : {
             "gpu__time_duration.sum",
             "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
             "sm__inst_executed_pipe_tensor_op_gmma.sum",
             "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
             "dram__throughput.avg.pct_of_peak_sustained_elapsed",
             "dram__bytes_read.sum",
             "dram__bytes_write.sum",
             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
             "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
             "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
             "lts__t_sector_hit_rate.pct",
             "sm__warps_active.avg.pct_of_peak_sustained_active",
             "launch__registers_per_thread",
             "launch__shared_mem_per_block_static",
             "launch__shared_mem_per_block_dynamic",
         }) {
        EXPECT_TRUE(contains(set, name)) << name;
    }
    // Duration first: the one number everybody reads.
    ASSERT_FALSE(set.empty());
    EXPECT_EQ(set.front(), "gpu__time_duration.sum");
    // GH100 has no gmma cycle counter (CUPTI.md); the catalogue must not promise one.
    EXPECT_EQ(find_metric("sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"),
              nullptr);
}

TEST(MetricCatalogue, TimelineSetIsThePmSamplingSetSeenOnTheH100) {
    const std::vector<std::string> set = metric_set("timeline");
    ASSERT_EQ(set.size(), 3u);
    EXPECT_TRUE(
        contains(set, "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_TRUE(
        contains(set, "FBSP.TriageCompute.dramc__throughput.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_TRUE(contains(
        set,
        "TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime.avg.pct_of_peak_sustained_elapsed"));
    for (const std::string& name : set) {
        EXPECT_EQ(find_metric(name)->source, MetricSource::kPmSampling) << name;
        EXPECT_TRUE(find_metric(name)->is_percent()) << name;
    }
}

TEST(MetricCatalogue, AllSetHoldsEveryNonPmMetricAndUnknownSetsAreEmpty) {
    const std::vector<std::string> all = metric_set("all");
    for (const MetricInfo& info : metric_catalogue()) {
        EXPECT_EQ(contains(all, info.name), info.source != MetricSource::kPmSampling) << info.name;
    }
    for (const std::string& name : metric_set("default")) EXPECT_TRUE(contains(all, name)) << name;
    EXPECT_TRUE(metric_set("everything").empty());
    EXPECT_TRUE(metric_set("").empty());
    EXPECT_EQ(metric_set_names(), "default, all, timeline");
}

TEST(MetricCatalogue, MetricNameShape) {
    EXPECT_TRUE(looks_like_metric_name("dram__bytes_read.sum"));
    EXPECT_TRUE(looks_like_metric_name(
        "FBSP.TriageCompute.dramc__throughput.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_TRUE(looks_like_metric_name("sm__cycles_elapsed"));
    EXPECT_FALSE(looks_like_metric_name(""));
    EXPECT_FALSE(looks_like_metric_name("tensor"));
    EXPECT_FALSE(looks_like_metric_name("dram_bytes.sum"));
    EXPECT_FALSE(looks_like_metric_name("dram__bytes read.sum"));
    EXPECT_FALSE(looks_like_metric_name("dram__bytes;rm.sum"));
    EXPECT_FALSE(looks_like_metric_name(".dram__bytes"));
    EXPECT_FALSE(looks_like_metric_name("dram__bytes."));
}

TEST(MetricCatalogue, EditDistance) {
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("dram__bytes_red.sum", "dram__bytes_read.sum"), 1u);
    EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
}

TEST(MetricCatalogue, SuggestionsForTyposWordsAndLabels) {
    auto first = [](const std::string& unknown, const std::vector<std::string>& chip = {}) {
        const std::vector<std::string> s = suggest_metrics(unknown, chip);
        return s.empty() ? std::string() : s.front();
    };
    EXPECT_EQ(first("dram__bytes_red.sum"), "dram__bytes_read.sum");
    EXPECT_EQ(first("gpu__time_duration"), "gpu__time_duration.sum");
    EXPECT_EQ(first("duration"), "gpu__time_duration.sum");
    EXPECT_EQ(first("l2"), "lts__t_sector_hit_rate.pct");
    EXPECT_EQ(first("occupancy"), "sm__warps_active.avg.pct_of_peak_sustained_active");
    EXPECT_EQ(first("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"),
              "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
    const std::vector<std::string> tensor = suggest_metrics("tensr");
    ASSERT_FALSE(tensor.empty());
    for (const std::string& name : tensor)
        EXPECT_NE(name.find("tensor"), std::string::npos) << name;
    EXPECT_TRUE(suggest_metrics("xyz").empty());
    EXPECT_LE(suggest_metrics("dram", {}, 2).size(), 2u);
    // An exact catalogue name is not suggested for itself.
    for (const std::string& name : suggest_metrics("dram__bytes_read.sum")) {
        EXPECT_NE(name, "dram__bytes_read.sum");
    }
}

TEST(MetricCatalogue, ChipBaseMetricsAreSuggestedWithTheUnknownsSuffix) {
    const std::vector<std::string> chip = {"smsp__inst_executed_op_ldsm",
                                           "smsp__inst_executed_op_shared_st", "lts__t_sectors"};
    const std::vector<std::string> s =
        suggest_metrics("smsp__inst_executed_op_shared_sts.sum", chip);
    ASSERT_FALSE(s.empty());
    EXPECT_EQ(s.front(), "smsp__inst_executed_op_shared_st.sum");
    EXPECT_TRUE(contains(suggest_metrics("lts__t_sector", chip), "lts__t_sectors"));
}

TEST(MetricCatalogue, UnknownMetricMessageIsOneLineWithTheSuggestions) {
    const std::string none = unknown_metric_message("xyz", {});
    EXPECT_EQ(none, "unknown metric 'xyz' (tclens profile --list-metrics shows the catalogue)");
    const std::string two = unknown_metric_message("a__b", {"a__c", "a__d"}, " on GH100");
    EXPECT_EQ(two,
              "unknown metric 'a__b' on GH100; did you mean a__c or a__d? (tclens profile "
              "--list-metrics shows the catalogue)");
    const std::string three = unknown_metric_message("q", {"x", "y", "z"});
    EXPECT_NE(three.find("did you mean x, y or z?"), std::string::npos) << three;
}

TEST(MetricCatalogue, FormatsValuesInTheirUnits) {
    EXPECT_EQ(format_metric_value(45.63, "%"), "45.6 %");
    EXPECT_EQ(format_metric_value(812, "ns"), "812 ns");
    EXPECT_EQ(format_metric_value(12345, "ns"), "12.3 us");
    EXPECT_EQ(format_metric_value(1234567, "ns"), "1.23 ms");
    EXPECT_EQ(format_metric_value(512, "bytes"), "512 B");
    EXPECT_EQ(format_metric_value(4.56e6, "bytes"), "4.56 MB");
    EXPECT_EQ(format_metric_value(1.234e9, "bytes"), "1.23 GB");
    EXPECT_EQ(format_metric_value(1.755e9, "Hz"), "1.75 GHz");
    EXPECT_EQ(format_metric_value(1234567, "instructions"), "1,234,567 instructions");
    EXPECT_EQ(format_metric_value(0, "wavefronts"), "0 wavefronts");
    EXPECT_EQ(format_metric_value(-1000, "blocks"), "-1,000 blocks");
    EXPECT_EQ(format_metric_value(2.5, "blocks"), "2.500 blocks");
    EXPECT_EQ(format_metric_value(168, ""), "168");
}

}  // namespace
}  // namespace tclens::profiling
