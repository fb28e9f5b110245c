// End-to-end checks of `tclens kernels`: every registry id in the table and the JSON, the
// descriptor keys and instruction mix, --mnk answers, and one-line usage errors.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kernels/instruction_mix.h"
#include "kernels/registry.h"
#include "profiling/device_json.h"
#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

TEST(KernelsCommand, TableListsEveryKernelWithWhatItAdds) {
    const auto result = run_command(kTclens + " kernels");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
        EXPECT_NE(result.out.find(k.id), std::string::npos) << k.id;
        EXPECT_NE(result.out.find(k.adds), std::string::npos) << k.id;
    }
}

TEST(KernelsCommand, JsonHasEveryDescriptorField) {
    const auto result = run_command(kTclens + " kernels --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    ASSERT_EQ(j["kernels"].size(), kernels::all_kernels().size());
    const nlohmann::json& first = j["kernels"][0];
    for (const char* key : {"id", "rung", "title", "adds", "precision", "accumulate", "block_tile",
                            "warp_tile", "thread_tile", "mma_tile", "stages", "swizzle",
                            "layout_ids", "threads", "min_sm", "reference_id"}) {
        EXPECT_TRUE(first.contains(key)) << key;
    }
    EXPECT_EQ(first["id"], kernels::all_kernels()[0].id);
    EXPECT_FALSE(first.contains("can_run"));
}

TEST(KernelsCommand, MnkSaysWhichKernelsCanRun) {
    const auto result = run_command(kTclens + " kernels --json --mnk 4097x129x77");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    for (const nlohmann::json& k : j["kernels"]) {
        const std::string why = kernels::find_kernel(k["id"])->can_run({4097, 129, 77});
        EXPECT_EQ(k["can_run"], why.empty()) << k["id"];
        EXPECT_EQ(k["reason"], why);
    }
    const auto table = run_command(kTclens + " kernels --mnk 4097x129x77");
    EXPECT_NE(table.out.find("4097x129x77 can run"), std::string::npos) << table.out;
}

// Rung 11 says which tile a size gets (kernels/wave_choice.h), in the table and the JSON.
TEST(KernelsCommand, MnkNamesTheTileRungElevenPicks) {
    const auto table = run_command(kTclens + " kernels --mnk 3072x3072x3072");
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("3072x3072x3072 can run: 128 x 192 tiles on 132 SMs"),
              std::string::npos)
        << table.out;
    const auto result = run_command(kTclens + " kernels --json --mnk 4096x4096x4096");
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    int plans = 0;
    for (const nlohmann::json& k : j["kernels"]) {
        if (k["id"] != "wgmma_persistent.f16" && k["id"] != "wgmma_persistent.bf16") continue;
        ++plans;
        EXPECT_EQ(k["plan"].get<std::string>().rfind("128 x 256 tiles on 132 SMs", 0), 0u)
            << k["plan"];
    }
    EXPECT_EQ(plans, 2);
}

// Rung 14's FP8 dispatch says which configuration a size gets and why (kernels/
// fp8_dispatch_rules.h), in the table and the JSON.
TEST(KernelsCommand, MnkNamesTheFp8DispatchChoice) {
    const auto table = run_command(kTclens + " kernels --mnk 64x3072x3072");
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("64x3072x3072 can run: e4m3 as 16-bit 64x3072x1536: split-K 2, 64 x "
                             "64 tiles"),
              std::string::npos)
        << table.out;
    const auto result = run_command(kTclens + " kernels --json --mnk 3072x3072x3072");
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    int plans = 0;
    for (const nlohmann::json& k : j["kernels"]) {
        if (k["id"] != "dispatch.e4m3") continue;
        ++plans;
        EXPECT_EQ(k["plan"].get<std::string>().rfind("FP8 128 x 192: 384 tiles, 3 rounds 97 %", 0),
                  0u)
            << k["plan"];
    }
    EXPECT_EQ(plans, 1);
}

// The JSON's instruction mix is the built-in census's (kernels/instruction_mix.h) for the
// GPU's sm, sm_90a without one; where there is none it says why.
TEST(KernelsCommand, JsonHasEachKernelsInstructionMix) {
    const auto result = run_command("TCLENS_INJECT_FAULT=no-gpu " + kTclens + " kernels --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    for (const nlohmann::json& k : j["kernels"]) {
        const std::string id = k["id"];
        SCOPED_TRACE(id);
        const nlohmann::json& mix = k["instruction_mix"];
        const int sm = kernels::kDefaultMixSm;
        const kernels::InstructionMix* expected = kernels::instruction_mix(id, sm);
        if (expected == nullptr) {
            EXPECT_EQ(mix["missing"], kernels::instruction_mix_missing(id, sm));
            EXPECT_FALSE(mix.contains("counts"));
            if (id.rfind("cublas.", 0) == 0) {
                EXPECT_EQ(mix["missing"], "cuBLAS: not our binary");
            }
            continue;
        }
        EXPECT_EQ(mix["arch"], "sm_90a");
        EXPECT_EQ(mix["functions"], expected->functions);
        ASSERT_EQ(mix["counts"].size(), size_t(kernels::kOpClassCount));
        for (int i = 0; i < kernels::kOpClassCount; ++i) {
            const auto op = static_cast<kernels::OpClass>(i);
            EXPECT_EQ(mix["counts"][kernels::op_class_key(op)], (*expected)[op]);
        }
    }
}

// The sm of the mix is the worker's GPU's (its hello; --worker/--remote say where it runs), not
// this machine's: a scripted worker names an sm_86 GPU, whose mix is the sm_80 cubin's.
TEST(KernelsCommand, TheInstructionMixIsForTheWorkersGpu) {
    profiling::SystemReport system = test::scripted_gpu_system();
    system.devices.front().cc_major = 8;
    system.devices.front().cc_minor = 6;
    const std::string hello =
        test::write_canned("kernels_sm86_system.json", profiling::to_json(system).dump());
    const auto result = run_command(kTclens + " kernels --json " +
                                    test::scripted_worker("none SCRIPTED_SYSTEM=" + hello));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    for (const nlohmann::json& k : j["kernels"]) {
        const nlohmann::json& mix = k["instruction_mix"];
        EXPECT_EQ(mix["sm"], 86) << k;
        if (kernels::instruction_mix(k["id"], 86) != nullptr) {
            EXPECT_EQ(mix["arch"], "sm_80") << k;
        } else {
            EXPECT_EQ(mix["missing"], kernels::instruction_mix_missing(k["id"], 86)) << k;
        }
    }
}

// The mix is the one the worker's build read, as its hello carries it (worker/worker_mix.h), not
// this build's: a scripted worker plants a wmma.f16 mix no census has (HMMA 4242); the kernels it
// has no mix of say why.
TEST(KernelsCommand, TheInstructionMixIsTheWorkersBuildsWhereItsHelloCarriesOne) {
    const std::string mixes = test::planted_worker_mixes("wmma.f16");
    const auto result = run_command(kTclens + " kernels --json " +
                                    test::scripted_worker("none SCRIPTED_MIXES=" + mixes));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    int seen = 0;
    for (const nlohmann::json& k : j["kernels"]) {
        const nlohmann::json& mix = k["instruction_mix"];
        if (k["id"] == "wmma.f16") {
            ++seen;
            EXPECT_EQ(mix["sm"], 90) << mix;
            EXPECT_EQ(mix["counts"]["hmma"], test::kPlantedHmma) << mix;
        } else if (k["id"] == "wgmma_tma.f16") {
            ++seen;
            EXPECT_EQ(mix["missing"], "the worker's build has no SASS of it for sm_90") << mix;
        }
    }
    EXPECT_EQ(seen, 2);
}

// A worker that does not start is one line and exit 3, as in every command that asks one.
TEST(KernelsCommand, JsonWithAWorkerThatCannotStartIsOneLineExit3) {
    const auto result = run_command(kTclens + " kernels --json --worker 'exit 7'");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(KernelsCommand, BadSizeIsOneLineExit2) {
    const auto result = run_command(kTclens + " kernels --mnk 12x0x3");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("12x0x3"), std::string::npos);
}

TEST(BadInput, KernelsSizesZeroNegativeNonNumericOverflowing) {
    test::expect_usage_errors(kTclens, {
                                           {"kernels --mnk 0x0x0", {"'0x0x0'"}},
                                           {"kernels --mnk -4x4x4", {"'-4x4x4'"}},
                                           {"kernels --mnk abc", {"'abc'", "1 to 65536"}},
                                           {"kernels --mnk 99999999999x1x1", {"'99999999999x1x1'"}},
                                           {"kernels --mnk", {"--mnk"}},
                                       });
}

TEST(KernelsCommand, AUsersKernelIsCompiledAndSaysWhichSizesItsDirectiveLaunches) {
    const std::string path =
        test::write_kernel_file("rowwise.cu",
                                "// tclens: grid=(1, M) block=(N, 1) type=f32\n"
                                "__global__ void rows(int M, int N, int K, "
                                "const float* A, const float* B, float* C) "
                                "{}\n");
    auto result = run_command(kTclens + " kernels --kernel " + path + " --mnk 64x64x64");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("yours.rowwise"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("rows, directive kernel, compiled in "), std::string::npos)
        << result.out;
    const std::size_t row = result.out.find("yours.rowwise");
    EXPECT_NE(result.out.find("64x64x64 can run: grid (1,64,1) x block (64,1,1)", row),
              std::string::npos)
        << result.out;

    result = run_command(kTclens + " kernels --json --kernel " + path + " --mnk 64x2048x64");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    const nlohmann::json& yours = j["kernels"].back();
    EXPECT_EQ(yours["id"], "yours.rowwise");
    EXPECT_EQ(yours["form"], "directive kernel");
    EXPECT_EQ(yours["precision"], "f32");
    EXPECT_EQ(yours["reference_id"], "cublas.sgemm");
    EXPECT_EQ(yours["can_run"], false);
    EXPECT_NE(yours["reason"].get<std::string>().find("2048"), std::string::npos) << yours;
}

// A directive whose block does not depend on the size gives its threads; --mnk its grid.
TEST(KernelsCommand, AUsersDirectiveKernelShowsItsThreadsAndItsLaunchAtMnk) {
    const std::string path =
        test::write_kernel_file("tiles.cu",
                                "// tclens: grid=(cdiv(N,64), cdiv(M,32)) block=(32,8) smem=4096\n"
                                "__global__ void tiles(int M, int N, int K, "
                                "const float* A, const float* B, float* C) "
                                "{}\n");
    const auto result =
        run_command(kTclens + " kernels --json --kernel " + path + " --mnk 96x640x64");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << result.out;
    const nlohmann::json& yours = j["kernels"].back();
    EXPECT_EQ(yours["threads"], 256) << yours;
    EXPECT_EQ(yours["compiled"], true);
    EXPECT_GT(yours["compile_ms"].get<double>(), 0.0);
    EXPECT_EQ(yours["can_run"], true);
    EXPECT_EQ(yours["plan"], "grid (10,3,1) x block (32,8,1), 4096 B dynamic shared memory")
        << yours;
}

TEST(KernelsCommand, AUsersKernelThatDoesNotCompileIsOneLineAndExit2) {
    const std::string broken = test::write_kernel_file("broken.cu", test::kCompileErrorKernel);
    const auto result = run_command(kTclens + " kernels --kernel " + broken);
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("broken.cu:3: error:"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tclens
