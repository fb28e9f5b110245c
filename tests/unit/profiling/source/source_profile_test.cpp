// The source view's model joined from hand-made collector results: instructions with their
// samples and counts, lines per file, the kernel's stall ranking, bank-lab links, and the check
// against the Range Profiler's totals (which fails when they differ by one).

#include <gtest/gtest.h>

#include <map>

#include "profiling/source/source_join.h"

namespace tclens::profiling {
namespace {

const std::string kFunction = "_Z4gemmv";
const std::string kKernelFile = "/src/k.cu";
const std::string kPtxFile = "/src/ptx.cuh";
const std::string kStall = "smsp__pcsamp_warps_issue_stalled_";
const std::string kWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared";
const std::string kConflicts = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared";

SassInstruction instruction(std::uint64_t pc, const std::string& text,
                            std::vector<SourceLocation> frames) {
    SassInstruction sass;
    sass.pc = pc;
    sass.text = text;
    sass.opcode = text.substr(0, text.find(' '));
    sass.frames = std::move(frames);
    return sass;
}

struct Fixture {
    PcSamplingResult sampling;
    SassMetricsResult counters;
    std::map<std::string, double> totals;
    SourceInputs inputs;

    Fixture() {
        SassFunction gemm;
        gemm.name = kFunction;
        gemm.instructions = {
            instruction(0x00, "LDC R1, c[0x0][0x28]", {{kKernelFile, 10}}),
            instruction(0x10, "LDSM.16.M88.4 R12, [R20]", {{kPtxFile, 39}, {kKernelFile, 20}}),
            instruction(0x20, "LDSM.16.MT88.4 R24, [R22]", {{kPtxFile, 49}, {kKernelFile, 21}}),
            instruction(0x30, "HMMA.16816.F32 R28, R12, R24, R28", {{kKernelFile, 22}}),
            instruction(0x40, "STS.128 [R3], R8", {{kKernelFile, 30}}),
            instruction(0x50, "EXIT", {{kKernelFile, 40}}),
        };
        inputs.listing = {gemm};

        sampling.reasons = {kStall + "long_scoreboard", kStall + "long_scoreboard_not_issued",
                            kStall + "math_pipe_throttle", kStall + "short_scoreboard"};
        sampling.records = {{kFunction, 0x10, {5, 3, 0, 10}},
                            {kFunction, 0x30, {0, 0, 20, 0}},
                            {kFunction, 0x70, {1, 0, 0, 0}}};  // a PC the listing lacks

        counters.metrics = {"smsp__sass_inst_executed", kWavefronts, kConflicts};
        counters.records = {{kFunction, 0x00, {100, 0, 0}},     {kFunction, 0x10, {400, 400, 0}},
                            {kFunction, 0x20, {400, 800, 400}}, {kFunction, 0x30, {1600, 0, 0}},
                            {kFunction, 0x40, {100, 200, 100}}, {kFunction, 0x50, {100, 0, 0}}};
        inputs.chosen = choose_source_counters(counters.metrics);

        totals = {{"smsp__inst_executed.sum", 2700},
                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 1400},
                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1200},
                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 200},
                  {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 500},
                  {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 400},
                  // One more than the STS's 100: the check must say so.
                  {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 101}};

        inputs.kernel_id = "mma_ldmatrix_xor.f16";
        inputs.sampling = &sampling;
        inputs.counters = &counters;
        inputs.range_totals = &totals;
        inputs.read_source = [](const std::string& path, std::string& text) {
            if (path != kKernelFile) return false;
            text.clear();
            for (int line = 1; line <= 40; ++line) {
                text += line == 20   ? "    ptx::ldmatrix_x4(f.a[j], stage + a_row);\n"
                        : line == 21 ? "    ptx::ldmatrix_x4_trans(f.b[p], stage + b_row);\n"
                                     : "    // line " + std::to_string(line) + "\n";
            }
            return true;
        };
    }

    SourceProfile join() const {
        SourceProfile profile;
        join_source_profile(inputs, profile);
        return profile;
    }
};

const TotalsCheck* check_named(const SourceProfile& profile, const std::string& range_metric) {
    for (const TotalsCheck& check : profile.checks) {
        if (check.range_metric == range_metric) return &check;
    }
    return nullptr;
}

TEST(SourceProfile, JoinsSamplesAndCountsOntoTheListingsInstructions) {
    const SourceProfile profile = Fixture().join();
    EXPECT_EQ(profile.functions, std::vector<std::string>{kFunction});
    ASSERT_EQ(profile.instructions.size(), 7u);  // 6 listed + the unlisted PC 0x70
    const InstructionProfile& ldsm = profile.instructions[1];
    EXPECT_EQ(ldsm.sass, "LDSM.16.M88.4 R12, [R20]");
    EXPECT_EQ(ldsm.samples, 15u);  // the not-issued variant counts nothing more
    ASSERT_EQ(ldsm.stalls.size(), 2u);
    EXPECT_EQ(ldsm.stalls[0].key, "short_scoreboard");
    EXPECT_EQ(ldsm.stalls[0].samples, 10u);
    EXPECT_EQ(ldsm.executed, 400u);
    const InstructionProfile& trans = profile.instructions[2];
    EXPECT_EQ(trans.shared_wavefronts, 800u);
    EXPECT_EQ(trans.shared_conflicts, 400u);
    EXPECT_EQ(trans.shared_ideal(), 400u);
    const InstructionProfile& unlisted = profile.instructions[6];
    EXPECT_EQ(unlisted.pc, 0x70u);
    EXPECT_EQ(unlisted.sass, "");
    EXPECT_FALSE(unlisted.counted);
    EXPECT_EQ(unlisted.samples, 1u);
    EXPECT_EQ(profile.total_samples(), 36u);
}

// GH100 names its counters otherwise: pipe wavefronts and their ideal; a conflict is a
// wavefront beyond the ideal. Its Range Profiler counts every wavefront beyond the ideal as a
// conflict, so the instructions' ideal loads and stores add up to the Range wavefronts less the
// conflicts.
TEST(SourceProfile, OnGh100IdealWavefrontsAddUpToTheRangeWavefrontsLessItsConflicts) {
    Fixture f;
    const std::string pipe = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
    f.counters.metrics = {"smsp__sass_inst_executed", pipe, pipe + "_ideal"};
    f.counters.records = {{kFunction, 0x00, {100, 0, 0}},     {kFunction, 0x10, {400, 400, 400}},
                          {kFunction, 0x20, {400, 800, 400}}, {kFunction, 0x30, {1600, 0, 0}},
                          {kFunction, 0x40, {100, 200, 100}}, {kFunction, 0x50, {100, 0, 0}}};
    f.inputs.chosen = choose_source_counters(f.counters.metrics);
    // Loads: ideal 400 + 400 = 830 - 30 (the LDSM.MT's 400 beyond its ideal are in the Range
    // conflicts, with 30 more); stores: ideal 100, and 105 - 6 is one short.
    f.totals["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 830;
    f.totals["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 30;
    f.totals["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 105;
    f.totals["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = 6;
    const SourceProfile profile = f.join();
    ASSERT_EQ(profile.instructions.size(), 7u);
    EXPECT_EQ(profile.instructions[1].shared_conflicts, 0u);  // as many as the ideal
    EXPECT_EQ(profile.instructions[2].shared_wavefronts, 800u);
    EXPECT_EQ(profile.instructions[2].shared_conflicts, 400u);
    EXPECT_EQ(profile.instructions[4].shared_conflicts, 100u);

    const TotalsCheck* loads =
        check_named(profile,
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum - "
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    ASSERT_NE(loads, nullptr);
    EXPECT_TRUE(loads->equal()) << loads->instruction_sum << " vs " << loads->range_total;
    EXPECT_EQ(loads->range_total, 800);
    EXPECT_EQ(loads->what, "shared load wavefronts (LDS, LDSM), ideal per instruction");
    const TotalsCheck* stores =
        check_named(profile,
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum - "
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    ASSERT_NE(stores, nullptr);
    EXPECT_TRUE(stores->available);
    EXPECT_FALSE(stores->equal());
    EXPECT_EQ(stores->range_total, 99);
    EXPECT_EQ(stores->instruction_sum, 100);

    // No per-instruction sum matches the Range Profiler's conflicts, nor its all-shared total.
    for (const char* refused : {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum - "
                                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"}) {
        const TotalsCheck* check = check_named(profile, refused);
        ASSERT_NE(check, nullptr) << refused;
        EXPECT_FALSE(check->available) << refused;
        EXPECT_NE(check->why_not.find("this GPU"), std::string::npos) << check->why_not;
    }
    EXPECT_TRUE(check_named(profile, "smsp__inst_executed.sum")->available);
}

TEST(SourceProfile, RanksTheKernelsStallReasons) {
    const SourceProfile profile = Fixture().join();
    ASSERT_EQ(profile.stalls.size(), 3u);
    EXPECT_EQ(profile.stalls[0].key, "math_pipe_throttle");
    EXPECT_NEAR(profile.stalls[0].share_pct, 100.0 * 20 / 36, 1e-9);
    EXPECT_EQ(profile.stalls[1].key, "short_scoreboard");
    EXPECT_EQ(profile.stalls[2].key, "long_scoreboard");
    EXPECT_EQ(profile.stalls[2].samples, 6u);
}

TEST(SourceProfile, EachFileGetsItsLinesKernelFileFirst) {
    const SourceProfile profile = Fixture().join();
    ASSERT_EQ(profile.files.size(), 2u);
    EXPECT_EQ(profile.files[0].path, kKernelFile);
    EXPECT_EQ(profile.files[0].absent, "");
    EXPECT_EQ(profile.files[1].path, kPtxFile);
    EXPECT_EQ(profile.files[1].absent, "not readable on this machine");
    const std::vector<LineProfile>& kernel_lines = profile.files[0].lines;
    ASSERT_EQ(kernel_lines.size(), 6u);
    EXPECT_EQ(kernel_lines[1].line, 20);
    EXPECT_EQ(kernel_lines[1].samples, 15u);
    EXPECT_EQ(kernel_lines[1].instructions, std::vector<std::size_t>{1});
    EXPECT_EQ(kernel_lines[2].shared_conflicts, 400u);
    // The helper file's lines hold the same instructions, at their own lines.
    ASSERT_EQ(profile.files[1].lines.size(), 2u);
    EXPECT_EQ(profile.files[1].lines[0].line, 39);
    EXPECT_EQ(profile.files[1].lines[0].samples, 15u);
}

TEST(SourceProfile, LinksSharedInstructionsToTheBankLab) {
    const SourceProfile profile = Fixture().join();
    EXPECT_EQ(profile.instructions[1].shared_access, "mma_ldmatrix_xor.f16/A.ldmatrix");
    EXPECT_EQ(profile.instructions[2].shared_access, "mma_ldmatrix_xor.f16/B.ldmatrix");
    EXPECT_EQ(profile.instructions[4].shared_access, "");  // the rung declares no STS
    EXPECT_EQ(profile.instructions[3].shared_access, "");
}

TEST(SourceProfile, ChecksTheCountsAgainstTheRangeProfilersTotals) {
    const SourceProfile profile = Fixture().join();
    ASSERT_EQ(profile.checks.size(), 7u);
    for (const TotalsCheck& check : profile.checks) EXPECT_TRUE(check.available) << check.what;
    EXPECT_TRUE(check_named(profile, "smsp__inst_executed.sum")->equal());
    EXPECT_EQ(check_named(profile, "smsp__inst_executed.sum")->instruction_sum, 2700);
    EXPECT_TRUE(
        check_named(profile, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")->equal());
    EXPECT_TRUE(
        check_named(profile, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")->equal());
    const TotalsCheck* stores =
        check_named(profile, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    EXPECT_FALSE(stores->equal());
    EXPECT_EQ(stores->instruction_sum, 100);
    EXPECT_EQ(stores->range_total, 101);
}

TEST(SourceProfile, SaysWhyACheckCannotBeMade) {
    Fixture without_listing;
    without_listing.inputs.listing.clear();
    const SourceProfile no_sass = without_listing.join();
    EXPECT_EQ(no_sass.instructions.size(), 7u);  // every sampled or counted PC, by offset
    EXPECT_TRUE(check_named(no_sass, "smsp__inst_executed.sum")->equal());
    const TotalsCheck* loads =
        check_named(no_sass, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    EXPECT_FALSE(loads->available);
    EXPECT_EQ(loads->why_not, "needs the SASS text to tell loads from stores");

    Fixture without_counts;
    SassMetricsResult failed;
    failed.error = profiler_error(ProfilerProblem::kUnsupported, "no");
    without_counts.inputs.counters = &failed;
    const SourceProfile no_counts = without_counts.join();
    EXPECT_EQ(no_counts.checks[0].why_not, "no per-instruction counts");
    EXPECT_FALSE(no_counts.instructions[1].counted);
    EXPECT_EQ(no_counts.instructions[1].samples, 15u);

    Fixture without_totals;
    without_totals.totals.erase("smsp__inst_executed.sum");
    EXPECT_EQ(check_named(without_totals.join(), "smsp__inst_executed.sum")->why_not,
              "the Range Profiler gave no smsp__inst_executed.sum");
}

TEST(SourceProfile, HottestInstructionsComeFirst) {
    const SourceProfile profile = Fixture().join();
    const std::vector<std::size_t> hottest = hottest_instructions(profile, 3);
    const std::vector<std::size_t> expected = {3, 1, 6};
    EXPECT_EQ(hottest, expected);
    EXPECT_EQ(hottest_instructions(profile, 100).size(), 7u);
}

TEST(SourceProfile, LineOfTextIsOneBased) {
    EXPECT_EQ(line_of("a\nbb\r\nccc", 2), "bb");
    EXPECT_EQ(line_of("a\nbb\nccc", 3), "ccc");
    EXPECT_EQ(line_of("a\nbb\nccc", 4), "");
    EXPECT_EQ(line_of("a", 0), "");
}

}  // namespace
}  // namespace tclens::profiling
