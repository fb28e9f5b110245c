// Running a program and reading its output: exit status, stdout, stderr, the working folder, a
// program that is missing or prints too much.

#include "profiling/source/child_process.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace tclens::profiling {
namespace {

TEST(ChildProcess, ReadsStdoutStderrAndTheExitStatus) {
    const ProgramOutput out = run_program({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(out.exit_status, 3);
    EXPECT_EQ(out.out, "out\n");
    EXPECT_EQ(out.err, "err\n");
    EXPECT_EQ(out.error, "");
    EXPECT_FALSE(out.ok());
    EXPECT_TRUE(run_program({"/bin/sh", "-c", "true"}).ok());
}

TEST(ChildProcess, PassesArgumentsAsTheyAreAndRunsInTheFolderGiven) {
    const ProgramOutput out =
        run_program({"/bin/sh", "-c", "printf '%s|' \"$0\"; pwd", "a b;$c"}, "/");
    ASSERT_TRUE(out.ok()) << out.error;
    EXPECT_EQ(out.out, "a b;$c|/\n");
}

TEST(ChildProcess, AMissingProgramOrTooMuchOutputIsOneLine) {
    const ProgramOutput missing = run_program({"/no/such/program"});
    EXPECT_FALSE(missing.ok());
    EXPECT_EQ(missing.error, "cannot run /no/such/program");
    EXPECT_EQ(run_program({}).error, "no program to run");
    const ProgramOutput flood = run_program({"/bin/sh", "-c", "yes"}, "", 1 << 20);
    EXPECT_FALSE(flood.ok());
    EXPECT_NE(flood.error.find("more than 1 MiB"), std::string::npos);
    EXPECT_EQ(flood.out.size(), 1u << 20);
}

}  // namespace
}  // namespace tclens::profiling
