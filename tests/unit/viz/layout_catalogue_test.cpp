// Tests for viz/layout_catalogue.*: the Fragments panel's grouped, searchable instruction list.
#include "viz/layout_catalogue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {
namespace {

std::vector<std::string> titles(const std::vector<LayoutGroup>& groups) {
    std::vector<std::string> out;
    for (const LayoutGroup& group : groups) out.push_back(group.title);
    return out;
}

TEST(LayoutCatalogue, GroupsEveryIdByFamilyAndArchitecture) {
    const std::vector<LayoutGroup> groups = layout_groups(fragment_layout_ids(), "");
    EXPECT_EQ(titles(groups),
              (std::vector<std::string>{"mma.sync, sm_80", "mma.sync, sm_89", "mma.sp, sm_80",
                                        "mma.sp, sm_89", "ldmatrix, sm_80", "stmatrix, sm_90",
                                        "movmatrix, sm_80", "wgmma, sm_90a", "wgmma smem, sm_90a",
                                        "tcgen05, sm_100a (models)"}));
    size_t listed = 0;
    for (const LayoutGroup& group : groups) listed += group.ids.size();
    EXPECT_EQ(listed, fragment_layout_ids().size());
    // FP8 mma.sync sits under sm_89, the rest of mma.sync under sm_80.
    EXPECT_EQ(groups[1].ids,
              (std::vector<std::string>{"mma.m16n8k32.e4m3", "mma.m16n8k32.e5m2",
                                        "mma.m16n8k32.e4m3.f16acc", "mma.m16n8k32.e5m2.f16acc"}));
}

TEST(LayoutCatalogue, SearchKeepsIdsWithEveryWordAndDropsEmptyGroups) {
    const std::vector<LayoutGroup> fp8 = layout_groups(fragment_layout_ids(), " E4M3  sm_89 ");
    ASSERT_EQ(titles(fp8), (std::vector<std::string>{"mma.sync, sm_89", "mma.sp, sm_89"}));
    EXPECT_EQ(fp8[0].ids,
              (std::vector<std::string>{"mma.m16n8k32.e4m3", "mma.m16n8k32.e4m3.f16acc"}));
    EXPECT_EQ(fp8[1].ids, (std::vector<std::string>{"mma.sp.m16n8k64.e4m3.sel0"}));
    // A group title matches too: "models" finds every tcgen05 ID.
    const std::vector<LayoutGroup> models = layout_groups(fragment_layout_ids(), "models");
    ASSERT_EQ(models.size(), 1u);
    EXPECT_EQ(models[0].ids.size(), 17u);
    EXPECT_TRUE(layout_groups(fragment_layout_ids(), "no-such-thing").empty());
}

}  // namespace
}  // namespace tclens::viz
