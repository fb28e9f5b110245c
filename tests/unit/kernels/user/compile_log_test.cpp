#include "kernels/user/compile_log.h"

#include <gtest/gtest.h>

namespace tclens::kernels::user {
namespace {

// As nvcc 13 prints it for a shim that includes /home/u/lab/matmul.cu.
const char* const kNvccLog =
    R"(/home/u/lab/matmul.cu(12): error: identifier "undefined_thing" is undefined
      if (i < M * N) C[i] = A[0] + undefined_thing;
                                   ^

/home/u/lab/matmul.cu(20): warning #177-D: variable "unused" was declared but never referenced
      int unused;
          ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

/tmp/tclens-user-abc/tclens_shim.cu(14): error: no instance of function template "tclens_shim::call" matches the argument list
/home/u/lab/matmul.cu(31): error: expected a ";"
2 errors detected in the compilation of "/tmp/tclens-user-abc/tclens_shim.cu".
)";

TEST(CompileLog, UserLinesOnlyRewrittenAsFileLine) {
    const std::vector<Diagnostic> d =
        user_diagnostics(kNvccLog, "/home/u/lab/matmul.cu", "lab/matmul.cu");
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0].text, "lab/matmul.cu:12: error: identifier \"undefined_thing\" is undefined");
    EXPECT_EQ(d[0].line, 12);
    EXPECT_EQ(d[1].severity, "warning");
    EXPECT_EQ(d[1].text,
              "lab/matmul.cu:20: warning: variable \"unused\" was declared but never referenced");
    EXPECT_EQ(d[2].text, "lab/matmul.cu:31: error: expected a \";\"");
    EXPECT_EQ(first_error_line(d),
              "lab/matmul.cu:12: error: identifier \"undefined_thing\" is undefined (and 1 more "
              "error)");
    for (const Diagnostic& x : d) EXPECT_EQ(x.text.find("tclens_shim"), std::string::npos);
}

TEST(CompileLog, NvrtcAndHostCompilerFormats) {
    const std::string nvrtc =
        "/abs/k.cu(3): catastrophic error: cannot open source file \"vector\"\n"
        "  #include <vector>\n                   ^\n\n"
        "1 catastrophic error detected in the compilation of \"/abs/k.cu\".\n"
        "Compilation terminated.\n";
    const std::vector<Diagnostic> d = user_diagnostics(nvrtc, "/abs/k.cu", "k.cu");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(first_error_line(d),
              "k.cu:3: catastrophic error: cannot open source file \"vector\"");
    const std::string gcc =
        "k.cu:7:12: error: 'foo' was not declared in this scope\n"
        "/x/other.h:3:1: error: not ours\n";
    const std::vector<Diagnostic> host = user_diagnostics(gcc, "/somewhere/k.cu", "k.cu");
    ASSERT_EQ(host.size(), 1u);
    EXPECT_EQ(host[0].text, "k.cu:7: error: 'foo' was not declared in this scope");
    EXPECT_EQ(first_error_line({}), "");
}

TEST(CompileLog, ToolErrorsWithoutAUserLine) {
    const std::string ptxas =
        "ptxas /tmp/tclens-user-x/keep/tclens_shim.ptx, line 41; error   : Arguments mismatch "
        "for instruction 'mma'\nptxas fatal   : Ptx assembly aborted due to errors\n";
    // ptxas reads the PTX of the whole translation unit: its errors are the user's inline asm.
    EXPECT_EQ(tool_error_line(ptxas, "/tmp/tclens-user-x/tclens_shim.cu"),
              "ptxas tclens_shim.ptx, line 41; error : Arguments mismatch for instruction 'mma'");
    // The shim's own diagnostics never show.
    EXPECT_EQ(
        tool_error_line("/tmp/x/tclens_shim.cu(14): error: no instance\n", "/tmp/x/tclens_shim.cu"),
        "");
    EXPECT_EQ(tool_error_line("/usr/bin/ld: /tmp/x/tclens_shim.o: in function `f()':\n"
                              "tclens_shim.cu:(.text+0x5): undefined reference to `helper()'\n"
                              "collect2: error: ld returned 1 exit status\n",
                              "/tmp/x/tclens_shim.cu"),
              "link error: undefined reference to `helper()'");
    EXPECT_EQ(tool_error_line("/usr/bin/ld: cannot find -lfoo: No such file or directory\n"
                              "collect2: error: ld returned 1 exit status\n",
                              ""),
              "collect2: error: ld returned 1 exit status");
    EXPECT_EQ(tool_error_line("all fine\n", ""), "");
}

}  // namespace
}  // namespace tclens::kernels::user
