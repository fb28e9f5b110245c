// The runner's pure parts: guard-zone sizes and texts, and how a result reads.
#include "kernels/runner.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(Runner, GuardZoneSizes) {
    EXPECT_EQ(guard_zone_bytes(16384), 4 << 20);     // a 4096-column f32 C: 256 rows
    EXPECT_EQ(guard_zone_bytes(4), 64 << 10);        // at least 64 KiB
    EXPECT_EQ(guard_zone_bytes(1 << 20), 16 << 20);  // at most 16 MiB
    EXPECT_EQ(guard_zone_bytes(258) % 256, 0);       // whole 256-byte pieces keep alignment
    EXPECT_GE(guard_zone_bytes(258), 256 * 258);
}

TEST(Runner, GuardViolationsAreOneLine) {
    EXPECT_EQ(guard_violation_text("C", true, 3072, 0, 65536),
              "wrote outside C: 3072 bytes in the 65536-byte guard zone after its end (nearest: "
              "0 bytes past the end)");
    EXPECT_EQ(guard_violation_text("A", false, 4, 12, 65536),
              "wrote outside A: 4 bytes in the 65536-byte guard zone before its start (nearest: "
              "12 bytes before the start)");
}

TEST(Runner, OutOfBoundsComesBeforeTheComparison) {
    RunResult r;
    r.check.passed = false;
    r.check.nan_count = 3;
    r.check.out_of_bounds = "wrote outside C: 1 bytes";
    EXPECT_EQ(run_status(r), "NOT VERIFIED: wrote outside C: 1 bytes");
    r.check.out_of_bounds.clear();
    EXPECT_EQ(run_status(r), "NOT VERIFIED: 3 elements not written (NaN)");
}

}  // namespace
}  // namespace tclens::kernels
