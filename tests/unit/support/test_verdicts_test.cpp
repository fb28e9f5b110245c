// How ctest reads a test's verdict (cmake/GoogleTests.cmake, tests/support/gtest_main.cpp): by
// the exit code, never by text. The planted project tests/data/planted_verdicts/ registers its
// cases exactly as tclens's own are; this builds it, runs ctest and checks what ctest says of
// each: a failure with "skipped:" in its message or output is Failed, a failure followed by
// GTEST_SKIP is Failed, a GTEST_SKIP is Skipped with or without the word, a pass stays Passed
// whatever it prints, and a value-parameterized test (one entry over all its values) is Failed
// when a value fails, Skipped when one is skipped and Passed only when all pass.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

// ctest's verdict of each test, read from its progress lines
// ("  1/10 Test  #1: planted.Planted.X ...***Failed    0.01 sec").
std::map<std::string, std::string> ctest_verdicts(const std::string& output) {
    std::map<std::string, std::string> verdicts;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t name_at = line.find("planted.");
        if (line.find(" Test ") == std::string::npos || name_at == std::string::npos) continue;
        const std::string name = line.substr(name_at, line.find(' ', name_at) - name_at);
        for (const char* verdict : {"Passed", "***Failed", "***Skipped", "***Not Run"}) {
            if (line.find(verdict) != std::string::npos) verdicts[name] = verdict;
        }
    }
    return verdicts;
}

TEST(TestVerdicts, CtestReadsEachVerdictFromTheExitCodeNotTheText) {
    const std::string build = test::temp_path("planted_verdicts");
    std::filesystem::remove_all(build);
    const std::string configure = std::string("'") + TCLENS_CMAKE_COMMAND + "' -S '" +
                                  TCLENS_SOURCE_DIR + "/tests/data/planted_verdicts' -B '" + build +
                                  "' -G '" + TCLENS_CMAKE_GENERATOR + "' -DCMAKE_MAKE_PROGRAM='" +
                                  TCLENS_MAKE_PROGRAM + "' -DCMAKE_CXX_COMPILER='" +
                                  TCLENS_CXX_COMPILER + "' -DTCLENS_ROOT='" + TCLENS_SOURCE_DIR +
                                  "' -DTCLENS_GTEST_SOURCE='" + TCLENS_GTEST_SOURCE + "'";
    const auto built =
        test::run_command(configure + " && '" + TCLENS_CMAKE_COMMAND + "' --build '" + build + "'");
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    const auto ran =
        test::run_command("'" + std::string(TCLENS_CTEST_COMMAND) + "' --test-dir '" + build + "'");
    std::filesystem::remove_all(build);
    EXPECT_NE(ran.exit_code, 0) << "the failures must fail the run:\n" << ran.out;
    const std::map<std::string, std::string> expected = {
        {"planted.Planted.FailsWithSkippedInItsMessage", "***Failed"},
        {"planted.Planted.FailsAfterPrintingSkipped", "***Failed"},
        {"planted.Planted.FailsThenSkips", "***Failed"},
        {"planted.Planted.SkipsWithoutTheWord", "***Skipped"},
        {"planted.Planted.SkipsWithTheWord", "***Skipped"},
        {"planted.Planted.PassesPrintingSkipped", "Passed"},
        {"planted.Three/PlantedValues.OneSkipsTheOthersPass", "***Skipped"},
        {"planted.Three/PlantedValues.OneFailsTheOthersPass", "***Failed"},
        {"planted.Three/PlantedValues.AllPass", "Passed"},
        {"planted.ExitsWithTheSkipCode", "***Skipped"},
        {"planted.SaysSkippedAndFails", "***Failed"},
        {"planted.SaysSkippedAndExits3", "***Failed"},
        {"planted.Passes", "Passed"},
    };
    EXPECT_EQ(ctest_verdicts(ran.out), expected) << ran.out;
}

}  // namespace
}  // namespace tclens
