// GPU tests of the source view (profiling/source/): on an FMA rung, rung 8 and rung 11, a source
// profile has stall samples and per-instruction counts, and those counts add up to the Range
// Profiler's kernel totals of the same kernel on the same inputs (instructions executed exactly
// where the kernel has no spin-wait loop; shared wavefronts and conflicts exactly everywhere);
// each rung's SASS carries the CUDA lines of its file and rung 8's conflicting ldmatrix links to
// its bank-lab access (where the toolkit's disassembler is missing, those two skip and say so);
// a 4096^3 rung answers within 2 s.
//
// With TCLENS_RESULTS_DIR set, each profile's JSON is written there (source_<kernel>.json), to be
// committed with the other GPU results.

#include "profiling/source/source_collector.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "profiling/source/disassembler.h"
#include "profiling/source/source_profile_json.h"
#include "tests/gpu/gpu_test_support.h"

namespace tclens::profiling {
namespace {

const kernels::GemmProblem k4096{4096, 4096, 4096};

SourceProfile collect(const std::string& kernel, const kernels::GemmProblem& problem) {
    SourceRequest request;
    request.kernel_id = kernel;
    request.problem = problem;
    SourceProfile profile = collect_source_profile(request);
    if (const char* dir = std::getenv("TCLENS_RESULTS_DIR")) {
        std::ofstream(std::string(dir) + "/source_" + kernel + ".json")
            << to_json(profile).dump(1) << "\n";
    }
    return profile;
}

// The check whose target starts with `range_metric` (on GH100 it reads "metric - conflicts").
const TotalsCheck& check_of(const SourceProfile& profile, const std::string& range_metric) {
    for (const TotalsCheck& check : profile.checks) {
        if (check.range_metric.rfind(range_metric, 0) == 0) return check;
    }
    static const TotalsCheck none;
    ADD_FAILURE() << "no check of " << range_metric;
    return none;
}

// Every shared-memory check this GPU's counters allow is available and equal (the others say
// why this GPU cannot make them); so is the instruction count when asked.
void expect_totals_add_up(const SourceProfile& profile, bool instructions_exact) {
    int compared = 0;
    for (const TotalsCheck& check : profile.checks) {
        const bool instructions = check.range_metric == "smsp__inst_executed.sum";
        if (!check.available && check.why_not.find("this GPU's Range Profiler") == 0) continue;
        if (!check.available && check.why_not.find("on this GPU the Range") == 0) continue;
        EXPECT_TRUE(check.available)
            << profile.kernel_id << " " << check.what << ": " << check.why_not;
        ++compared;
        if (instructions && !instructions_exact) {
            // A wait loop on an mbarrier runs a varying number of times per launch.
            ::testing::Test::RecordProperty(
                profile.kernel_id + " instructions, sum - total",
                std::to_string(check.instruction_sum - check.range_total));
            EXPECT_NEAR(check.instruction_sum, check.range_total, 0.01 * check.range_total)
                << profile.kernel_id;
            continue;
        }
        EXPECT_TRUE(check.equal()) << profile.kernel_id << " " << check.what << ": "
                                   << check.instruction_sum << " vs " << check.range_total;
    }
    EXPECT_GE(compared, 3) << "instructions, shared loads and shared stores at least";
}

void expect_sampled_and_counted(const SourceProfile& profile) {
    ASSERT_TRUE(profile.ok()) << profile.error.message;
    EXPECT_EQ(profile.sampling_missing, "");
    EXPECT_EQ(profile.counters_missing, "");
    EXPECT_EQ(profile.totals_missing, "");
    EXPECT_GT(profile.total_samples(), 1000u) << profile.kernel_id;
    EXPECT_FALSE(profile.stalls.empty());
    double shares = 0;
    for (const StallShare& share : profile.stalls) shares += share.share_pct;
    EXPECT_NEAR(shares, 100.0, 1e-6);
}

// The checks that read the kernel's SASS need the toolkit's disassembler (nvdisasm or cuobjdump):
// where it is missing they are skipped, with its name, never passed.
#define TCLENS_REQUIRE_DISASSEMBLER()                                                \
    do {                                                                             \
        const std::string missing = missing_tools_message(find_disassembly_tools()); \
        if (!missing.empty()) GTEST_SKIP() << "skipped: " << missing;                \
    } while (0)

TEST(SourceProfile, FmaRungAddsUp) {
    TCLENS_REQUIRE_GPU();
    const SourceProfile profile = collect("register_tiled.f32", k4096);
    expect_sampled_and_counted(profile);
    expect_totals_add_up(profile, true);
    EXPECT_GT(check_of(profile, "smsp__inst_executed.sum").range_total, 0);
}

TEST(SourceProfile, Rung8AddsUp) {
    TCLENS_REQUIRE_GPU();
    const SourceProfile profile = collect("mma_cp_async.f16", k4096);
    expect_sampled_and_counted(profile);
    expect_totals_add_up(profile, true);
    EXPECT_GT(check_of(profile, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum").range_total,
              0);
}

// The rungs are built with -lineinfo: their SASS comes with the CUDA lines of their own file.
TEST(SourceProfile, EachRungsSassCarriesTheLinesOfItsFile) {
    TCLENS_REQUIRE_GPU();
    TCLENS_REQUIRE_DISASSEMBLER();
    for (const char* kernel : {"register_tiled.f32", "mma_cp_async.f16", "wgmma_persistent.f16"}) {
        const SourceProfile profile = collect(kernel, {1024, 1024, 1024});
        ASSERT_TRUE(profile.ok()) << kernel << ": " << profile.error.message;
        EXPECT_TRUE(profile.has_sass()) << kernel << ": " << profile.sass_missing;
        EXPECT_TRUE(profile.has_line_info()) << kernel << ": " << profile.line_info_missing;
        ASSERT_FALSE(profile.files.empty()) << kernel;
        EXPECT_EQ(profile.files.front().absent, "") << kernel << ": " << profile.files.front().path;
    }
}

TEST(SourceProfile, Rung8LinksItsLdmatrixToTheBankLab) {
    TCLENS_REQUIRE_GPU();
    TCLENS_REQUIRE_DISASSEMBLER();
    const SourceProfile profile = collect("mma_cp_async.f16", k4096);
    ASSERT_TRUE(profile.has_sass()) << profile.sass_missing;
    int ldmatrix = 0;
    for (const InstructionProfile& instruction : profile.instructions) {
        if (instruction.opcode.rfind("LDSM", 0) != 0 || !instruction.counted) continue;
        ++ldmatrix;
        EXPECT_EQ(instruction.shared_access.rfind("mma_cp_async.f16/", 0), 0u)
            << instruction.sass << ": " << instruction.shared_access_candidates.size();
    }
    EXPECT_GT(ldmatrix, 0);
}

// Rung 11's STS write C into shared memory while TMA reads it out and the cluster's multicast
// writes the next stages: on the H100 the Range Profiler's store wavefronts less its conflicts
// come out 13-14 % above the instructions' ideal, by an amount that differs launch to launch
// (70,112 .. 72,046 in tests/gpu/results/2026-11-25_h100_session8/), while the STS executed
// equal smsp__inst_executed_op_shared_st exactly (262,144). So here the ideal is a lower bound,
// and the gap is recorded.
TEST(SourceProfile, Rung11AddsUpItsSharedLoadsAndBoundsItsStores) {
    TCLENS_REQUIRE_GPU();
    const SourceProfile profile = collect("wgmma_persistent.f16", k4096);
    expect_sampled_and_counted(profile);
    const TotalsCheck& loads =
        check_of(profile, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld");
    EXPECT_TRUE(loads.equal()) << loads.instruction_sum << " vs " << loads.range_total;
    const TotalsCheck& stores =
        check_of(profile, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st");
    ASSERT_TRUE(stores.available) << stores.why_not;
    EXPECT_GT(stores.instruction_sum, 0);
    EXPECT_LE(stores.instruction_sum, stores.range_total);
    RecordProperty("stores, range - instructions",
                   std::to_string(stores.range_total - stores.instruction_sum));
    const TotalsCheck& executed = check_of(profile, "smsp__inst_executed.sum");
    EXPECT_NEAR(executed.instruction_sum, executed.range_total, 0.01 * executed.range_total);
}

TEST(SourceProfile, A4096RungAnswersWithinTwoSeconds) {
    TCLENS_REQUIRE_GPU();
    collect("mma_cp_async.bf16", {256, 256, 256});  // a first profile: CUDA and tools warmed up
    const SourceProfile profile = collect("mma_cp_async.bf16", k4096);
    ASSERT_TRUE(profile.ok()) << profile.error.message;
    RecordProperty("total_ms", std::to_string(profile.total_ms));
    EXPECT_LE(profile.total_ms, 2000.0)
        << "prepare " << profile.prepare_ms << ", sampling " << profile.sampling_ms << ", counts "
        << profile.counters_ms << ", totals " << profile.totals_ms << ", SASS "
        << profile.disassembly_ms;
}

}  // namespace
}  // namespace tclens::profiling
