// `tclens source` on a GPU, end to end through the worker: a kernel of yours
// (examples/matmul_tensor.cu, a host launcher built by nvcc with line info) gets PC samples, and
// its HMMA instructions map to the lines of the user's file that hold its mma.sync (the asm
// statement), with the file's text; a registry rung's source profile comes back through the worker
// with the lines of its own file too. Without the toolkit's nvdisasm the SASS checks are skipped
// (with its name), after the samples were checked.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "profiling/source/disassembler.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kSource;
using test::kTclens;

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The 1-based number of the first line of `text` that contains `part` at or after line `from`;
// 0 when none does.
int line_holding(const std::string& text, const std::string& part, int from = 1) {
    std::istringstream lines(text);
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        if (++number >= from && line.find(part) != std::string::npos) return number;
    }
    return 0;
}

bool ends_with(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

nlohmann::json source_json(const std::string& args) {
    const auto result = test::run_command(kTclens + " source " + args + " --json");
    EXPECT_EQ(result.exit_code, 0) << args << "\n" << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << args << "\n" << result.out << result.err;
    return j.is_discarded() ? nlohmann::json::object() : j;
}

#define TCLENS_REQUIRE_NVDISASM()                                                      \
    do {                                                                               \
        const profiling::DisassemblyTools tools = profiling::find_disassembly_tools(); \
        if (tools.nvdisasm.empty())                                                    \
            GTEST_SKIP() << "skipped: no nvdisasm (looked in " << tools.searched       \
                         << "): no source lines to check";                             \
    } while (0)

TEST(SourceCommandOnGpu, AKernelOfYoursMapsItsHmmaToTheLinesOfItsFile) {
    TCLENS_REQUIRE_GPU();
    const std::string path = kSource + "/examples/matmul_tensor.cu";
    const nlohmann::json j =
        source_json("--kernel " + path + " --mnk 2048x2048x2048 --time-limit 120");
    ASSERT_TRUE(j.contains("instructions")) << j.dump().substr(0, 2000);
    EXPECT_EQ(j["kernel"], "yours.matmul_tensor");
    EXPECT_TRUE(j["verified"].get<bool>());
    EXPECT_EQ(j["error"], "");
    EXPECT_GT(j["total_samples"].get<long long>(), 0) << j["sampling_missing"];
    TCLENS_REQUIRE_NVDISASM();
    EXPECT_EQ(j["sass_missing"], "");
    EXPECT_EQ(j["line_info_missing"], "");

    // The asm statement of the mma.sync: from "asm volatile(" to its last operand line.
    const std::string text = file_text(path);
    const int mma = line_holding(text, "mma.sync.aligned.m16n8k8", 60);
    const int first = line_holding(text, "asm volatile(", mma - 2);
    const int last = line_holding(text, "\"r\"(b1));", mma);
    ASSERT_GT(mma, 0);
    ASSERT_TRUE(first > 0 && first <= mma) << first << " " << mma;
    ASSERT_GT(last, mma);

    int hmma = 0;
    for (const nlohmann::json& instruction : j["instructions"]) {
        if (instruction["opcode"].get<std::string>().rfind("HMMA", 0) != 0) continue;
        ++hmma;
        ASSERT_FALSE(instruction["frames"].empty()) << instruction;
        const nlohmann::json& frame = instruction["frames"].back();  // the kernel's own line
        EXPECT_TRUE(ends_with(frame["file"].get<std::string>(), "examples/matmul_tensor.cu"))
            << instruction;
        const int line = frame["line"].get<int>();
        EXPECT_GE(line, first) << instruction;
        EXPECT_LE(line, last) << instruction;
    }
    EXPECT_GE(hmma, 8) << "8 mma.sync per K step, unrolled";

    // The user's file is the first file, with its text as compiled.
    ASSERT_FALSE(j["files"].empty());
    const nlohmann::json& file = j["files"][0];
    EXPECT_TRUE(ends_with(file["path"].get<std::string>(), "examples/matmul_tensor.cu")) << file;
    EXPECT_EQ(file["absent"], "");
    EXPECT_EQ(file["text"], text);
}

// A registry id goes through the worker as well, and still maps to its own file's lines.
TEST(SourceCommandOnGpu, ARungThroughTheWorkerKeepsTheLinesOfItsFile) {
    TCLENS_REQUIRE_GPU();
    const nlohmann::json j = source_json("--kernel mma_cp_async.f16 --mnk 1024x1024x1024");
    ASSERT_TRUE(j.contains("instructions")) << j.dump().substr(0, 2000);
    EXPECT_EQ(j["kernel"], "mma_cp_async.f16");
    EXPECT_GT(j["total_samples"].get<long long>(), 0) << j["sampling_missing"];
    TCLENS_REQUIRE_NVDISASM();
    ASSERT_FALSE(j["files"].empty());
    EXPECT_TRUE(ends_with(j["files"][0]["path"].get<std::string>(), "08_mma_cp_async.cu"))
        << j["files"][0]["path"];
    EXPECT_EQ(j["files"][0]["absent"], "");
}

}  // namespace
}  // namespace tclens
