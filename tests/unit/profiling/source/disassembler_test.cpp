// The disassembler's parts that need no toolkit: where the tools are looked for, what a machine
// without them is told, cubin names and contents; and, with stand-in tools (shell scripts that
// print a listing), that a missing or failing tool is one line, not a crash.

#include "profiling/source/disassembler.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace tclens::profiling {
namespace {

namespace fs = std::filesystem;

TEST(Disassembler, FindsTheFirstDirectoryHoldingTheProgram) {
    const std::set<std::string> present = {"/opt/cuda/bin/nvdisasm", "/usr/bin/nvdisasm"};
    const auto exists = [&present](const std::string& path) { return present.count(path) > 0; };
    EXPECT_EQ(find_program("nvdisasm", {"/home/x/bin", "", "/opt/cuda/bin", "/usr/bin"}, exists),
              "/opt/cuda/bin/nvdisasm");
    EXPECT_EQ(find_program("cuobjdump", {"/opt/cuda/bin", "/usr/bin"}, exists), "");
    const std::vector<std::string> dirs = {"/a", "/b c", "/d"};
    EXPECT_EQ(split_search_path("/a::/b c:/d:"), dirs);
    EXPECT_TRUE(split_search_path("").empty());
}

TEST(Disassembler, SaysWhichToolIsMissingAndWhatStillWorks) {
    DisassemblyTools tools;
    tools.searched = "PATH, /usr/local/cuda/bin";
    const std::string none = missing_tools_message(tools);
    EXPECT_NE(none.find("no cuobjdump or nvdisasm (looked in PATH, /usr/local/cuda/bin)"),
              std::string::npos);
    EXPECT_NE(none.find("PC offset"), std::string::npos);
    tools.nvdisasm = "/x/nvdisasm";
    const std::string no_cuobjdump = missing_tools_message(tools);
    EXPECT_EQ(no_cuobjdump.rfind("no cuobjdump", 0), 0u);
    EXPECT_NE(no_cuobjdump.find("cubin"), std::string::npos);
    tools.nvdisasm.clear();
    tools.cuobjdump = "/x/cuobjdump";
    const std::string no_nvdisasm = missing_tools_message(tools);
    EXPECT_EQ(no_nvdisasm.rfind("no nvdisasm", 0), 0u);
    EXPECT_NE(no_nvdisasm.find("without source lines"), std::string::npos);
    tools.nvdisasm = "/x/nvdisasm";
    EXPECT_EQ(missing_tools_message(tools), "");
}

TEST(Disassembler, ReadsTheArchitectureOffACubinName) {
    EXPECT_EQ(cubin_arch("tclens.3.sm_90a.cubin"), "sm_90a");
    EXPECT_EQ(cubin_arch("gpu_tests.12.sm_80.cubin"), "sm_80");
    EXPECT_EQ(cubin_arch("sm_89.cubin"), "sm_89");
    EXPECT_EQ(cubin_arch("tclens.3.sm_90a.ptx"), "");
    EXPECT_EQ(cubin_arch("tclens.3.compute_90.cubin"), "");
    EXPECT_EQ(cubin_arch("tclens.3.sm_.cubin"), "");
    EXPECT_EQ(cubin_arch(".cubin"), "");
}

TEST(Disassembler, FindsAFunctionNameInACubinsStringTable) {
    using namespace std::string_literals;
    const std::string cubin =
        "\x7f"
        "ELF\0.text._Z3fooPf\0_Z3fooPf\0_Z3barv\0"s;
    EXPECT_TRUE(cubin_names_function(cubin, "_Z3fooPf"));
    EXPECT_TRUE(cubin_names_function(cubin, "_Z3barv"));
    EXPECT_FALSE(cubin_names_function(cubin, "_Z3foo"));  // a prefix of a name is no name
    EXPECT_FALSE(cubin_names_function(cubin, "3fooPf"));  // nor a suffix
    EXPECT_FALSE(cubin_names_function(cubin, ""));
    EXPECT_FALSE(cubin_names_function("_Z3bazv", "_Z3bazv"));  // no NUL after it
}

TEST(Disassembler, WithoutToolsACubinGetsTheMissingToolLine) {
    DisassemblyTools none;
    none.searched = "nowhere";
    const fs::path cubin = fs::temp_directory_path() / "tclens_test_empty.cubin";
    std::ofstream(cubin) << "not a cubin";
    const Disassembly result = disassemble_cubin(cubin.string(), none);
    EXPECT_TRUE(result.functions.empty());
    EXPECT_EQ(result.error.rfind("no cuobjdump or nvdisasm", 0), 0u);
    EXPECT_EQ(disassemble_cubin("/no/such.cubin", none).error, "cubin /no/such.cubin not found");
    EXPECT_EQ(disassemble_function("/proc/self/exe", 90, "_Z1fv", none).error.rfind("no ", 0), 0u);
    fs::remove(cubin);
}

// A stand-in nvdisasm: a shell script that prints `listing` (or fails with `status`).
std::string stand_in(const std::string& name, const std::string& listing, int status) {
    const fs::path path = fs::temp_directory_path() / name;
    std::ofstream script(path);
    script << "#!/bin/sh\ncat <<'END'\n" << listing << "\nEND\nexit " << status << "\n";
    script.close();
    ::chmod(path.c_str(), 0755);
    return path.string();
}

TEST(Disassembler, ReadsWhatNvdisasmPrintsAndReportsItsFailure) {
    const fs::path cubin = fs::temp_directory_path() / "tclens_test_stand_in.cubin";
    std::ofstream(cubin) << "cubin";
    DisassemblyTools tools;
    tools.nvdisasm = stand_in("tclens_test_nvdisasm_ok",
                              ".text._Z1fv:\n\t//## File \"/k.cu\", line 4\n"
                              "        /*0000*/                   EXIT ;",
                              0);
    Disassembly listed = disassemble_cubin(cubin.string(), tools);
    ASSERT_EQ(listed.error, "");
    ASSERT_EQ(listed.functions.size(), 1u);
    EXPECT_TRUE(listed.line_info);
    EXPECT_EQ(listed.how, "nvdisasm -c -gi tclens_test_stand_in.cubin");

    tools.nvdisasm = stand_in("tclens_test_nvdisasm_fails", "nvdisasm fatal : bad cubin", 1);
    listed = disassemble_cubin(cubin.string(), tools);
    EXPECT_TRUE(listed.functions.empty());
    EXPECT_NE(listed.error.find("failed: exit status 1"), std::string::npos);

    tools.nvdisasm = stand_in("tclens_test_nvdisasm_empty", "nothing", 0);
    EXPECT_NE(disassemble_cubin(cubin.string(), tools).error.find("printed no function"),
              std::string::npos);
    fs::remove(cubin);
}

}  // namespace
}  // namespace tclens::profiling
