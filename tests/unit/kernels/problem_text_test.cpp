#include "kernels/problem_text.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(ParseProblem, ReadsMxNxK) {
    const auto p = parse_problem("4097x129x77");
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->m, 4097);
    EXPECT_EQ(p->n, 129);
    EXPECT_EQ(p->k, 77);
    EXPECT_EQ(problem_text(*p), "4097x129x77");
    EXPECT_TRUE(parse_problem("1x1x1").has_value());
    EXPECT_TRUE(parse_problem("65536x1x1").has_value());
}

TEST(ParseProblem, RejectsZeroNegativeJunkAndOverflow) {
    for (const char* bad :
         {"", "0x4x4", "4x0x4", "4x4x0", "-1x4x4", "4x4", "4x4x4x4", "ax4x4", "4x4x4 ", " 4x4x4",
          "4X4X4", "65537x1x1", "99999999999999999999x1x1", "1e3x1x1", "+4x4x4"}) {
        EXPECT_FALSE(parse_problem(bad).has_value()) << bad;
    }
}

TEST(ProblemError, NamesTheValueAndTheAllowedRange) {
    const std::string error = problem_error("0x4x4");
    EXPECT_NE(error.find("'0x4x4'"), std::string::npos);
    EXPECT_NE(error.find("65536"), std::string::npos);
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tclens::kernels
