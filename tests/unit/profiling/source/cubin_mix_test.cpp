// The instruction mix of a user's cubin (profiling/source/cubin_mix.*): counted from SassFunctions,
// and through a stand-in nvdisasm (a shell script printing a real listing, tests/data/nvdisasm/)
// the whole path the worker takes; without tools or a cubin, one line says why.

#include "profiling/source/cubin_mix.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace tclens::profiling {
namespace {

namespace fs = std::filesystem;
using kernels::OpClass;

SassInstruction instruction(const std::string& opcode) {
    SassInstruction i;
    i.opcode = opcode;
    i.text = opcode + " R0 ;";
    return i;
}

TEST(CubinMix, CountsEveryInstructionOfEveryFunction) {
    SassFunction mma{"_Z3mmav",
                     {instruction("HMMA.16816.F32.BF16"), instruction("HMMA.16816.F32.BF16"),
                      instruction("LDSM.16.M88.4"), instruction("EXIT")}};
    SassFunction copy{"_Z4copyv", {instruction("LDG.E.128"), instruction("STS.128")}};
    const auto mix = instruction_mix_of({mma, copy, SassFunction{"_Z5emptyv", {}}}, "sm_90a");
    ASSERT_TRUE(mix);
    EXPECT_EQ(mix->arch, "sm_90a");
    EXPECT_EQ(mix->functions, 2);  // the empty one is not counted
    EXPECT_EQ((*mix)[OpClass::kHmma], 2);
    EXPECT_EQ((*mix)[OpClass::kLdsLdsm], 1);
    EXPECT_EQ((*mix)[OpClass::kLdgLdgsts], 1);
    EXPECT_EQ((*mix)[OpClass::kSts], 1);
    EXPECT_EQ((*mix)[OpClass::kTotal], 6);
    EXPECT_FALSE(instruction_mix_of({}, "sm_90a"));
}

// A stand-in nvdisasm printing the file `listing`.
std::string stand_in_printing(const std::string& listing) {
    const fs::path path = fs::temp_directory_path() / "tclens_test_cubin_mix_nvdisasm";
    std::ofstream script(path);
    script << "#!/bin/sh\ncat '" << listing << "'\n";
    script.close();
    ::chmod(path.c_str(), 0755);
    return path.string();
}

// Lines of `text` that are instructions whose opcode starts with `opcode.`: counted here by a
// regular expression, independently of the SASS reader.
int instruction_lines(const std::string& text, const std::string& opcode) {
    const std::regex line(R"(/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?)" + opcode + R"(\.)");
    int count = 0;
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) count += std::regex_search(l, line) ? 1 : 0;
    return count;
}

TEST(CubinMix, ReadsTheCubinThroughTheDisassembler) {
    const std::string listing =
        std::string(TCLENS_TEST_DATA_DIR) + "/nvdisasm/wgmma_persistent.f16.nvdisasm.txt";
    std::stringstream text;
    text << std::ifstream(listing).rdbuf();
    const fs::path cubin = fs::temp_directory_path() / "tclens_test_cubin_mix.cubin";
    std::ofstream(cubin) << "cubin";
    DisassemblyTools tools;
    tools.nvdisasm = stand_in_printing(listing);
    const CubinMix read = cubin_instruction_mix(cubin.string(), "sm_90a", tools);
    ASSERT_EQ(read.missing, "");
    ASSERT_TRUE(read.mix);
    EXPECT_EQ(read.mix->functions, 2);  // the listing's bf16 and f16 instantiations
    EXPECT_EQ((*read.mix)[OpClass::kHgmma], instruction_lines(text.str(), "HGMMA"));
    EXPECT_GT((*read.mix)[OpClass::kHgmma], 0);
    EXPECT_EQ((*read.mix)[OpClass::kHmma], 0);
    fs::remove(cubin);
}

TEST(CubinMix, WithoutToolsOrCubinTheLineSaysWhy) {
    DisassemblyTools none;
    none.searched = "nowhere";
    const fs::path cubin = fs::temp_directory_path() / "tclens_test_cubin_mix_none.cubin";
    std::ofstream(cubin) << "cubin";
    const CubinMix no_tools = cubin_instruction_mix(cubin.string(), "sm_90a", none);
    EXPECT_FALSE(no_tools.mix);
    EXPECT_EQ(no_tools.missing.rfind("no cuobjdump or nvdisasm", 0), 0u) << no_tools.missing;
    EXPECT_EQ(cubin_instruction_mix("", "sm_90a", none).missing, "the compiler kept no cubin");
    EXPECT_EQ(cubin_instruction_mix("/no/such.cubin", "sm_90a", none).missing,
              "cubin /no/such.cubin not found");
    fs::remove(cubin);
}

}  // namespace
}  // namespace tclens::profiling
