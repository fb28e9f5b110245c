// A source profile written to JSON and read back is the same profile; a damaged document is one
// line naming the key.

#include "profiling/source/source_profile_json.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

SourceProfile sample_source_profile() {
    SourceProfile profile;
    profile.kernel_id = "mma_cp_async.f16";
    profile.precision = kernels::Precision::kF16;
    profile.problem = {4096, 4096, 4096};
    profile.device = "NVIDIA H100 80GB HBM3";
    profile.chip = "GH100";
    profile.check.passed = true;
    profile.check.rel_rms_error = 1e-4;
    profile.check.bound = 2e-3;
    profile.check.reference = "cublas.f16";
    profile.sass_how = "nvdisasm -c -gi tclens.8.sm_90a.cubin";
    profile.counters_missing = "Global sectors: this GPU lists no SASS metric x";
    profile.period_log2 = 12;
    profile.functions = {"_Z4gemmv"};
    InstructionProfile ldsm;
    ldsm.function = "_Z4gemmv";
    ldsm.pc = 0x10;
    ldsm.sass = "LDSM.16.M88.4 R12, [R20]";
    ldsm.opcode = "LDSM.16.M88.4";
    ldsm.frames = {{"/src/ptx.cuh", 39}, {"/src/k.cu", 20}};
    ldsm.stalls = {{"short_scoreboard", 10}, {"long_scoreboard", 5}};
    ldsm.samples = 15;
    ldsm.counted = true;
    ldsm.executed = 400;
    ldsm.shared_wavefronts = 800;
    ldsm.shared_conflicts = 400;
    ldsm.shared_access = "mma_cp_async.f16/A.ldmatrix";
    ldsm.shared_access_candidates = {"mma_cp_async.f16/A.ldmatrix"};
    InstructionProfile mma;
    mma.function = "_Z4gemmv";
    mma.pc = 0x20;
    mma.sass = "HMMA.16816.F32 R28, R12, R24, R28";
    mma.opcode = "HMMA.16816.F32";
    mma.frames = {{"/src/k.cu", 22}};
    mma.stalls = {{"math_pipe_throttle", 20}};
    mma.samples = 20;
    profile.instructions = {ldsm, mma};
    profile.files = {{"/src/k.cu", "a\nb\n", "", {}}, {"/src/ptx.cuh", "", "not readable", {}}};
    TotalsCheck check;
    check.what = "instructions executed";
    check.range_metric = "smsp__inst_executed.sum";
    check.available = true;
    check.instruction_sum = 400;
    check.range_total = 400;
    profile.checks = {check};
    profile.total_ms = 1234.5;
    aggregate_source_profile(profile);
    return profile;
}

TEST(SourceProfileJson, RoundTripsEveryField) {
    const SourceProfile profile = sample_source_profile();
    const nlohmann::json written = to_json(profile);
    SourceProfile read;
    std::string error;
    ASSERT_TRUE(source_profile_from_json(written, read, error)) << error;
    EXPECT_EQ(to_json(read), written);
    EXPECT_EQ(read.instructions[0].frames[1], (SourceLocation{"/src/k.cu", 20}));
    EXPECT_EQ(read.instructions[0].stalls[0].key, "short_scoreboard");
    ASSERT_EQ(read.stalls.size(), 3u);  // recomputed from the instructions
    EXPECT_EQ(read.stalls[0].key, "math_pipe_throttle");
    ASSERT_EQ(read.files[0].lines.size(), 2u);
    EXPECT_TRUE(read.checks[0].equal());
}

TEST(SourceProfileJson, WritesWhatScriptsReadWithoutRecomputing) {
    const nlohmann::json written = to_json(sample_source_profile());
    EXPECT_EQ(written["total_samples"], 35);
    EXPECT_EQ(written["instructions"][0]["shared_ideal"], 400);
    EXPECT_EQ(written["stalls"][0]["ncu_column"], "stall_math");
    EXPECT_EQ(written["checks"][0]["equal"], true);
    EXPECT_EQ(written["timings_ms"]["total"], 1234.5);
}

TEST(SourceProfileJson, ADamagedDocumentNamesTheKey) {
    const nlohmann::json good = to_json(sample_source_profile());
    SourceProfile read;
    std::string error;

    nlohmann::json no_pc = good;
    no_pc["instructions"][1].erase("pc");
    EXPECT_FALSE(source_profile_from_json(no_pc, read, error));
    EXPECT_EQ(error, "instructions[1]: missing key 'pc'");

    nlohmann::json bad_sum = good;
    bad_sum["instructions"][0]["samples"] = 16;
    EXPECT_FALSE(source_profile_from_json(bad_sum, read, error));
    EXPECT_EQ(error, "instructions[0]: 'samples' (16) is not the sum of 'stalls' (15)");

    nlohmann::json negative = good;
    negative["instructions"][0]["executed"] = -1;
    EXPECT_FALSE(source_profile_from_json(negative, read, error));
    EXPECT_NE(error.find("instructions[0]: key 'executed' has the wrong type"), std::string::npos);

    nlohmann::json no_timings = good;
    no_timings.erase("timings_ms");
    EXPECT_FALSE(source_profile_from_json(no_timings, read, error));
    EXPECT_EQ(error, "missing object 'timings_ms'");

    EXPECT_FALSE(source_profile_from_json(nlohmann::json::array(), read, error));
    EXPECT_EQ(error, "missing key 'kernel'");
}

}  // namespace
}  // namespace tclens::profiling
