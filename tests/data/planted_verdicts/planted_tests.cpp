// Planted cases for tests/unit/support/test_verdicts_test.cpp; the name says the verdict ctest
// must give each.
#include <gtest/gtest.h>

#include <cstdio>

TEST(Planted, FailsWithSkippedInItsMessage) { FAIL() << "skipped: no GPU"; }

TEST(Planted, FailsAfterPrintingSkipped) {
    std::printf("skipped: no GPU\n[  SKIPPED ] Planted.FailsAfterPrintingSkipped\n");
    EXPECT_EQ(1 + 1, 3);
}

TEST(Planted, FailsThenSkips) {
    ADD_FAILURE() << "a check failed";
    GTEST_SKIP() << "skipped: no GPU";
}

TEST(Planted, SkipsWithoutTheWord) { GTEST_SKIP() << "this machine lacks it"; }

TEST(Planted, SkipsWithTheWord) { GTEST_SKIP() << "skipped: no GPU"; }

TEST(Planted, PassesPrintingSkipped) { std::printf("skipped: nothing\n[  SKIPPED ] 1 test\n"); }

// A value-parameterized test is one ctest entry over all its values: "Passed" only when every
// value passed.
class PlantedValues : public testing::TestWithParam<int> {};

TEST_P(PlantedValues, OneSkipsTheOthersPass) {
    if (GetParam() == 1) GTEST_SKIP() << "this value cannot run here";
}

TEST_P(PlantedValues, OneFailsTheOthersPass) { EXPECT_NE(GetParam(), 1); }

TEST_P(PlantedValues, AllPass) { EXPECT_GE(GetParam(), 0); }

INSTANTIATE_TEST_SUITE_P(Three, PlantedValues, testing::Values(0, 1, 2));
