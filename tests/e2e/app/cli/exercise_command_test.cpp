// `tclens exercise` without a GPU: bad input is one line and exit 2, also a file that is a GEMM
// rather than a one-warp exercise. Exercises that run are GPU tests
// (tests/gpu/app/worker_test.cpp).

#include <gtest/gtest.h>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

TEST(ExerciseCommand, BadInputIsOneLineAndExit2) {
    const std::string gemm = test::write_kernel_file("not_an_exercise.cu", test::kDirectiveKernel);
    for (const auto& [args, named] : std::vector<std::pair<std::string, std::string>>{
             {"", "FILE"},
             {"exercise.py", "not a CUDA file"},
             {"/nonexistent/exercise.cu", "/nonexistent/exercise.cu"},
             {gemm, "is a directive kernel, not a fragment exercise"}}) {
        const auto result = run_command(kTclens + " exercise " + args);
        EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
        EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
        EXPECT_EQ(result.out, "") << args;
    }
}

}  // namespace
}  // namespace tclens
