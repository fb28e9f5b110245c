// The Banks panel's settings without a window: pattern=KERNEL/ACCESS (kernels/shared_access.h)
// applies for every registry access and brings that access's phases, and bad names are one
// line that says what is allowed. (What the panel draws is tested under Xvfb in
// tests/ui/banks_panel_test.cpp.)
#include "app/gui/panels/banks_panel.h"

#include <gtest/gtest.h>

#include "kernels/shared_access.h"

namespace tclens::gui {
namespace {

TEST(BanksPanelSettings, EveryKernelAccessApplies) {
    for (const kernels::KernelAccess& access : kernels::kernel_accesses()) {
        SCOPED_TRACE(access.name);
        BanksPanel panel;
        EXPECT_EQ(panel.apply_setting("pattern", access.name), "");
        // The kernel's tile and swizzle give a model: phase 0 exists.
        EXPECT_EQ(panel.apply_setting("phase", "0"), "");
    }
}

TEST(BanksPanelSettings, KernelAccessBringsItsPatternsPhases) {
    BanksPanel panel;
    // ldmatrix.x4: 4 phases.
    ASSERT_EQ(panel.apply_setting("pattern", "mma_ldmatrix_xor.f16/A.ldmatrix"), "");
    EXPECT_EQ(panel.apply_setting("phase", "3"), "");
    const std::string four = panel.apply_setting("phase", "4");
    EXPECT_NE(four.find("0..3 for mma_ldmatrix_xor.f16/A.ldmatrix"), std::string::npos) << four;
    // lds.32.row: 1 phase. A built-in pattern afterwards is shown under its own name again.
    ASSERT_EQ(panel.apply_setting("pattern", "smem_tiled.f32/B.lds"), "");
    EXPECT_NE(panel.apply_setting("phase", "1").find("0..0 for smem_tiled.f32/B.lds"),
              std::string::npos);
    ASSERT_EQ(panel.apply_setting("pattern", "ldmatrix.x2"), "");
    EXPECT_NE(panel.apply_setting("phase", "2").find("0..1 for ldmatrix.x2"), std::string::npos);
    // Tile and swizzles stay settable after a kernel access, as on the command line.
    ASSERT_EQ(panel.apply_setting("pattern", "mma_ldmatrix_xor.f16/B.ldmatrix"), "");
    EXPECT_EQ(panel.apply_setting("row_bytes", "512"), "");
    EXPECT_EQ(panel.apply_setting("right", "tma128"), "");
}

TEST(BanksPanelSettings, BadKernelAccessIsOneLineNamingTheAllowedOnes) {
    BanksPanel panel;
    struct Bad {
        const char* value;
        const char* named;
    };
    for (const Bad& bad :
         {Bad{"mma_ldmatrix_xor.f16/C.ldmatrix", "mma_ldmatrix_xor.f16/A.ldmatrix"},
          Bad{"bogus/A.ldmatrix", "bogus"}, Bad{"naive_fma.f32/A.lds", "smem_tiled.f32/A.lds"}}) {
        SCOPED_TRACE(bad.value);
        const std::string error = panel.apply_setting("pattern", bad.value);
        EXPECT_NE(error.find(bad.value), std::string::npos) << error;
        EXPECT_NE(error.find(bad.named), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }
}

TEST(BanksPanelSettings, SideNamesTheSidesDrawn) {
    BanksPanel panel;
    for (const char* side : {"left", "right", "both"}) {
        EXPECT_EQ(panel.apply_setting("side", side), "") << side;
    }
    const std::string error = panel.apply_setting("side", "top");
    EXPECT_EQ(error, "side='top': allowed: both, left, right");
}

}  // namespace
}  // namespace tclens::gui
