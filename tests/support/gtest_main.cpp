// The main() of every tclens test binary (cmake/GoogleTests.cmake). ctest runs one GoogleTest case
// per process and reads the verdict from the exit code alone:
//   GoogleTest's own failure code   some test failed (a failure after GTEST_SKIP included);
//   TCLENS_SKIPPED_EXIT_CODE        tests ran, every one of them was skipped and none failed;
//   0                               otherwise (a listing of the tests runs none and exits 0).
// No text a test prints is looked at: "skipped: ..." in a failure message stays a failure.

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    if (status != 0) return status;
    const testing::UnitTest& run = *testing::UnitTest::GetInstance();
    const bool all_skipped = run.skipped_test_count() > 0 && run.successful_test_count() == 0;
    return all_skipped ? TCLENS_SKIPPED_EXIT_CODE : 0;
}
