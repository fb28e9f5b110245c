// The main() of every tclens test binary (cmake/GoogleTests.cmake). ctest runs one GoogleTest test
// per process (a value-parameterized test with all its values) and reads the verdict from the
// exit code alone:
//   GoogleTest's own failure code   some test failed (a failure after GTEST_SKIP included);
//   TCLENS_SKIPPED_EXIT_CODE        none failed and at least one was skipped: an entry is
//                                   "Passed" only when everything it names was checked;
//   0                               otherwise (a listing of the tests runs none and exits 0).
// No text a test prints is looked at: "skipped: ..." in a failure message stays a failure.

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    if (status != 0) return status;
    const testing::UnitTest& run = *testing::UnitTest::GetInstance();
    return run.skipped_test_count() > 0 ? TCLENS_SKIPPED_EXIT_CODE : 0;
}
