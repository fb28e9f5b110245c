// Tests for profiling/recorded_mix.*: a kernel's instruction mix as a recording carries it (JSON
// both ways, a damaged entry named), and the mixes a recording takes from this build's census.

#include "profiling/recorded_mix.h"

#include <gtest/gtest.h>

#include "kernels/instruction_mix.h"
#include "profiling/built_in_mixes.h"

namespace tclens::profiling {
namespace {

RecordedInstructionMix made_up_mix() {
    RecordedInstructionMix recorded;
    recorded.kernel_id = "mma_cp_async.bf16";
    recorded.sm = 90;
    recorded.mix.arch = "sm_90a";
    recorded.mix.functions = 2;
    for (int i = 0; i < kernels::kOpClassCount; ++i) recorded.mix.counts[size_t(i)] = 10 * i + 1;
    return recorded;
}

TEST(RecordedMix, JsonNamesEveryClassByItsKeyAndReadsBack) {
    const RecordedInstructionMix original = made_up_mix();
    const nlohmann::json json = to_json(original);
    EXPECT_EQ(json["kernel_id"], "mma_cp_async.bf16");
    EXPECT_EQ(json["sm"], 90);
    EXPECT_EQ(json["arch"], "sm_90a");
    EXPECT_EQ(json["functions"], 2);
    EXPECT_EQ(json["counts"]["hmma"], 1);
    EXPECT_EQ(json["counts"]["fmul_fadd"], 41);
    EXPECT_EQ(json["counts"]["total"], 101);
    EXPECT_EQ(json["counts"].size(), size_t(kernels::kOpClassCount));
    RecordedInstructionMix back;
    std::string error;
    ASSERT_TRUE(recorded_mix_from_json(json, back, error)) << error;
    EXPECT_EQ(back.kernel_id, original.kernel_id);
    EXPECT_EQ(back.sm, original.sm);
    EXPECT_EQ(back.mix.arch, original.mix.arch);
    EXPECT_EQ(back.mix.functions, original.mix.functions);
    EXPECT_EQ(back.mix.counts, original.mix.counts);
}

TEST(RecordedMix, ADamagedEntryIsRefusedWithOneLine) {
    const nlohmann::json good = to_json(made_up_mix());
    auto refused = [&](const std::function<void(nlohmann::json&)>& change) {
        nlohmann::json json = good;
        change(json);
        RecordedInstructionMix out = made_up_mix();
        out.kernel_id = "untouched";
        std::string error;
        EXPECT_FALSE(recorded_mix_from_json(json, out, error));
        EXPECT_EQ(out.kernel_id, "untouched");
        return error;
    };
    EXPECT_EQ(refused([](nlohmann::json& j) { j["counts"].erase("utmaldg"); }),
              "counts: missing key 'utmaldg'");
    EXPECT_EQ(refused([](nlohmann::json& j) { j["counts"] = 3; }), "missing object 'counts'");
    EXPECT_EQ(refused([](nlohmann::json& j) { j.erase("arch"); }), "missing key 'arch'");
    EXPECT_NE(refused([](nlohmann::json& j) { j["counts"]["hmma"] = "many"; }).find("hmma"),
              std::string::npos);
}

TEST(RecordedMix, BuiltInMixesComeFromThisBuildsCensusOrSayWhyNot) {
    std::string missing;
    // cuBLAS is not our binary: no mix, and nothing to explain.
    EXPECT_TRUE(built_in_mixes({"cublas.f16"}, 90, missing).empty());
    EXPECT_EQ(missing, "");

    const std::vector<RecordedInstructionMix> mixes =
        built_in_mixes({"wmma.f16", "cublas.f16", "wmma.f16"}, 90, missing);
    if (const kernels::InstructionMix* census = kernels::instruction_mix("wmma.f16", 90)) {
        ASSERT_EQ(mixes.size(), 1u);  // each id once, cuBLAS left out
        EXPECT_EQ(mixes[0].kernel_id, "wmma.f16");
        EXPECT_EQ(mixes[0].sm, 90);
        EXPECT_EQ(mixes[0].mix.counts, census->counts);
        EXPECT_EQ(missing, "");
        EXPECT_EQ(find_mix(mixes, "wmma.f16"), &mixes[0]);
    } else {
        EXPECT_TRUE(mixes.empty());
        EXPECT_EQ(missing, kernels::census_missing());  // e.g. this build had no cuobjdump
        EXPECT_FALSE(missing.empty());
    }
    EXPECT_EQ(find_mix(mixes, "cublas.f16"), nullptr);
}

}  // namespace
}  // namespace tclens::profiling
