// Tests for the parts of app/gui/panels/kernels_panel.* that need no window: the links from a
// kernel to the Fragments, Tile map and Banks panels (every registry kernel's must apply, as
// `--set` would), the size list, and the panel's settings.
#include "app/gui/panels/kernels_panel.h"

#include <gtest/gtest.h>

#include "app/gui/panels/panel_registry.h"
#include "kernels/registry.h"

namespace tclens::gui {
namespace {

Panel* find_panel(const std::vector<std::unique_ptr<Panel>>& panels, std::string_view id) {
    for (const auto& panel : panels) {
        if (panel->id() == id) return panel.get();
    }
    return nullptr;
}

TEST(KernelLinks, EveryKernelsLinksApply) {
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) {
        SCOPED_TRACE(kernel.id);
        const std::vector<PanelLink> links = kernel_links(kernel);
        const size_t tile_maps = kernel.rung > 0 ? 1 : 0;
        EXPECT_EQ(links.size(),
                  kernel.layout_ids.size() + tile_maps + (kernel.swizzle.empty() ? 0 : 1));
        for (const PanelLink& link : links) {
            auto panels = make_all_panels();
            ASSERT_TRUE(find_panel(panels, link.panel)) << link.panel;
            EXPECT_EQ(follow_panel_link(panels, link), "");
        }
    }
}

// The descriptor view's plan line: rung 14's choice for the first size, nothing for a kernel
// without a plan or a size it refuses.
TEST(KernelsPanelPlan, ShowsHowTheFirstSizeRuns) {
    const kernels::KernelDescriptor* dispatch = kernels::find_kernel("dispatch.bf16");
    ASSERT_TRUE(dispatch);
    EXPECT_EQ(first_size_plan(*dispatch, {{17, 33, 129}, {4096, 4096, 4096}}),
              "17x33x129: " + dispatch->launch_plan({17, 33, 129}));
    EXPECT_NE(first_size_plan(*dispatch, {{17, 33, 129}}).find("zero-padded copies"),
              std::string::npos);
    EXPECT_EQ(first_size_plan(*dispatch, {}), "");
    const kernels::KernelDescriptor* fp8 = kernels::find_kernel("dispatch.e4m3");
    ASSERT_TRUE(fp8);
    EXPECT_EQ(first_size_plan(*fp8, {{64, 3072, 3072}}),
              "64x3072x3072: " + fp8->launch_plan({64, 3072, 3072}));
    EXPECT_NE(
        first_size_plan(*fp8, {{64, 3072, 3072}}).find("e4m3 as 16-bit 64x3072x1536: split-K 2"),
        std::string::npos);
    const kernels::KernelDescriptor* rung8 = kernels::find_kernel("mma_cp_async.bf16");
    ASSERT_TRUE(rung8);
    EXPECT_EQ(first_size_plan(*rung8, {{4096, 4096, 4096}}), "");  // no plan of its own
    const kernels::KernelDescriptor* rung12 = kernels::find_kernel("wgmma_streamk.bf16");
    ASSERT_TRUE(rung12);
    EXPECT_EQ(first_size_plan(*rung12, {{17, 33, 129}}), "");  // it cannot run N = 33
}

TEST(KernelLinks, Rung8OpensItsInstructionsAndComparesXorWithNone) {
    const kernels::KernelDescriptor* kernel = kernels::find_kernel("mma_cp_async.f16");
    ASSERT_TRUE(kernel);
    const std::vector<PanelLink> links = kernel_links(*kernel);
    ASSERT_EQ(links.size(), 5u);
    EXPECT_EQ(links[0].panel, "fragments");
    EXPECT_EQ(links[0].settings, std::vector<std::string>{"layout=mma.m16n8k16.f16"});
    EXPECT_EQ(links[2].settings, std::vector<std::string>{"layout=ldmatrix.x4.trans"});
    EXPECT_EQ(links[3].panel, "tilemap");
    EXPECT_EQ(links[3].settings, std::vector<std::string>{"kernel=mma_cp_async.f16"});
    EXPECT_EQ(links[4].panel, "banks");
    ASSERT_EQ(links[4].settings.size(), 3u);
    EXPECT_EQ(links[4].settings[0].rfind("pattern=", 0), 0u);
    EXPECT_EQ(links[4].settings[1], "left=none");
    EXPECT_EQ(links[4].settings[2], "right=xor");
}

TEST(KernelLinks, Rung7OpensBanksOnItsFirstSharedAccess) {
    const kernels::KernelDescriptor* kernel = kernels::find_kernel("mma_ldmatrix_xor.bf16");
    ASSERT_TRUE(kernel);
    const std::vector<PanelLink> links = kernel_links(*kernel);
    ASSERT_FALSE(links.empty());
    EXPECT_EQ(links.back().panel, "banks");
    EXPECT_EQ(links.back().settings,
              (std::vector<std::string>{"pattern=mma_ldmatrix_xor.bf16/A.ldmatrix", "left=none",
                                        "right=xor"}));
}

TEST(KernelLinks, CublasHasNoBanksLinkAndTheNaiveRungNoPattern) {
    const kernels::KernelDescriptor* cublas = kernels::find_kernel("cublas.f16");
    ASSERT_TRUE(cublas);
    for (const PanelLink& link : kernel_links(*cublas)) {
        EXPECT_NE(link.panel, "banks");
        EXPECT_NE(link.panel, "tilemap");
    }
    const kernels::KernelDescriptor* naive = kernels::find_kernel("naive_fma.f32");
    ASSERT_TRUE(naive);
    const std::vector<PanelLink> links = kernel_links(*naive);
    ASSERT_EQ(links.size(), 2u);
    EXPECT_EQ(links[0].panel, "tilemap");
    EXPECT_EQ(links[1].settings, (std::vector<std::string>{"left=none", "right=none"}));
}

TEST(KernelLinks, ABrokenLinkIsOneLine) {
    auto panels = make_all_panels();
    const std::string error = follow_panel_link(panels, {"fragments", {"layout=mma.bogus"}});
    EXPECT_NE(error.find("mma.bogus"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    EXPECT_NE(follow_panel_link(panels, {"nowhere", {}}).find("nowhere"), std::string::npos);
}

TEST(KernelsPanelSizes, CommaSeparatedSizesEachParsedStrictly) {
    std::string error;
    const auto problems = parse_problem_list("4096x4096x4096, 1024x512x256 ,16x3072x3072", error);
    EXPECT_EQ(error, "");
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems[1].m, 1024);
    EXPECT_EQ(problems[1].n, 512);
    EXPECT_EQ(problems[1].k, 256);
    EXPECT_EQ(problems[2].m, 16);
    for (const char* bad : {"", "4096x4096", "4096x4096x4096,", "4096x4096x4096, 0x1x1",
                            "4096 x 4096 x 4096", "8x8x99999999"}) {
        SCOPED_TRACE(bad);
        EXPECT_TRUE(parse_problem_list(bad, error).empty());
        EXPECT_NE(error, "");
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }
}

TEST(KernelsPanelSettings, GoodValuesApplyAndBadOnesSayWhatIsAllowed) {
    KernelsPanel panel;
    EXPECT_EQ(panel.apply_setting("selected", "mma_cp_async.f16"), "");
    EXPECT_EQ(panel.apply_setting("selected", "cublas.bf16"), "");
    EXPECT_EQ(panel.apply_setting("mnk", "4096x4096x4096,512x512x512"), "");
    EXPECT_EQ(panel.apply_setting("preset", "lab6"), "");
    EXPECT_EQ(panel.apply_setting("run", "none"), "");
    EXPECT_EQ(panel.apply_setting("run", "naive_fma.f32, wmma.bf16"), "");
    EXPECT_EQ(panel.apply_setting("run", "all"), "");
    EXPECT_EQ(panel.apply_setting("chart", "4096x4096x4096"), "");
    EXPECT_EQ(panel.apply_setting("precision", "f32,tf32,bf16,e4m3"), "");
    EXPECT_EQ(panel.apply_setting("precision", "all"), "");
    struct Bad {
        const char* key;
        const char* value;
        const char* named;  // what the message must mention
    };
    for (const Bad& bad :
         {Bad{"selected", "fastest", "mma_cp_async.bf16"}, Bad{"mnk", "4096x4096", "4096x4096"},
          Bad{"preset", "huge", "lab6"}, Bad{"run", "cublas.f16", "'cublas.f16' is not a rung"},
          Bad{"precision", "f8", "allowed: all or a comma-separated list of f32, tf32"},
          Bad{"precision", "f16,,bf16", "precision='f16,,bf16'"}, Bad{"colour", "red", "colour"}}) {
        SCOPED_TRACE(bad.key);
        const std::string error = panel.apply_setting(bad.key, bad.value);
        EXPECT_NE(error.find(bad.named), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }
}

}  // namespace
}  // namespace tclens::gui
