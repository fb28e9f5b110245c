// On a GPU, every layout model agrees with what the hardware does, element for element: the
// same check as `tclens layout ID --verify`. One test per layout ID that has a probe. IDs this GPU
// cannot run are skipped with the probe's reason: FP8 mma.sync and mma.sp below sm_89 (Ada and
// newer), stmatrix below sm_90, and every wgmma ID anywhere but sm_90 (wgmma is the sm_90a
// feature set: Hopper only). The tcgen05 models are skipped everywhere here, with the note that
// they need sm_100. The wgmma shared-memory views are checked tile element by tile element.
#include "kernels/probes/fragment_probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/gpu/gpu_test_support.h"
#include "viz/fragment_layout.h"

namespace tclens::kernels {
namespace {

// The first few mismatch lines, enough to see the pattern without flooding the log.
std::string first_mismatches(const LayoutComparison& comparison) {
    std::string text = comparison_summary(comparison);
    const size_t shown = std::min<size_t>(comparison.mismatches.size(), 16);
    for (size_t i = 0; i < shown; ++i) {
        text += "\n  " + comparison.mismatches[i];
    }
    if (shown < comparison.mismatches.size()) {
        text += "\n  ... " + std::to_string(comparison.mismatches.size() - shown) + " more";
    }
    return text;
}

class FragmentProbe : public ::testing::TestWithParam<std::string> {};

TEST_P(FragmentProbe, HardwareMatchesTheModel) {
    TCLENS_REQUIRE_GPU();
    const std::optional<viz::FragmentLayout> model = viz::fragment_layout(GetParam());
    ASSERT_TRUE(model.has_value());
    const LayoutProbeResult result = measure_fragment_layout(*model);
    if (!result.skipped_reason.empty()) {
        GTEST_SKIP() << "skipped: " << result.skipped_reason;
    }
    ASSERT_EQ(result.error, "");
    const LayoutComparison comparison = compare_layouts(*model, result);
    EXPECT_GT(comparison.total, 0);
    EXPECT_EQ(comparison.matched, comparison.total) << first_mismatches(comparison);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '.', '_');
    return name;
}

std::vector<std::string> probed_ids() {
    std::vector<std::string> ids;
    for (const std::string& id : viz::fragment_layout_ids()) {
        const std::optional<viz::FragmentLayout> layout = viz::fragment_layout(id);
        // The models no GPU here can check (tcgen05) are ModelOnlyLayoutsAreSkippedWithTheirNote's:
        // as values here they made this entry's verdict "Skipped" after every real comparison.
        if (has_layout_probe(id) && layout && layout->verifiable) ids.push_back(id);
    }
    return ids;
}

INSTANTIATE_TEST_SUITE_P(AllLayouts, FragmentProbe, ::testing::ValuesIn(probed_ids()), test_name);

// The models are never passed off as measured: on any GPU each is skipped with its note.
TEST(FragmentProbeOnGpu, ModelOnlyLayoutsAreSkippedWithTheirNote) {
    TCLENS_REQUIRE_GPU();
    int models = 0;
    for (const std::string& id : viz::fragment_layout_ids()) {
        const viz::FragmentLayout layout = viz::fragment_layout(id).value();
        if (layout.verifiable) continue;
        ++models;
        const LayoutProbeResult result = measure_fragment_layout(layout);
        EXPECT_EQ(result.error, "") << id;
        EXPECT_NE(result.skipped_reason.find(viz::kModelOnlyNote), std::string::npos) << id;
        EXPECT_TRUE(result.operands.empty()) << id;
    }
    EXPECT_GT(models, 0);
}

// The new probes are not vacuous either: a sparse model whose metadata lanes follow another
// selector, and a stmatrix model with two address lanes swapped, are caught on real hardware.
TEST(FragmentProbeOnGpu, CatchesAMetadataModelOfAnotherSelector) {
    TCLENS_REQUIRE_GPU();
    viz::FragmentLayout model = viz::fragment_layout("mma.sp.m16n8k16.f16.sel0").value();
    const viz::FragmentLayout other = viz::fragment_layout("mma.sp.m16n8k16.f16.sel1").value();
    for (viz::OperandLayout& operand : model.operands) {
        if (operand.operand == viz::Operand::E) operand = *other.find(viz::Operand::E);
    }
    const LayoutProbeResult result = measure_fragment_layout(model);
    ASSERT_EQ(result.error, "");
    ASSERT_EQ(result.skipped_reason, "");
    const LayoutComparison comparison = compare_layouts(model, result);
    // Every metadata field (128) is measured elsewhere; A, B, C and D are not affected.
    EXPECT_EQ(comparison.matched, comparison.total - 128) << first_mismatches(comparison);
}

TEST(FragmentProbeOnGpu, CatchesAStmatrixModelWithSwappedAddressLanes) {
    TCLENS_REQUIRE_GPU();
    viz::FragmentLayout model = viz::fragment_layout("stmatrix.x2").value();
    std::swap(model.address_lanes[0], model.address_lanes[1]);
    const LayoutProbeResult result = measure_fragment_layout(model);
    if (!result.skipped_reason.empty()) GTEST_SKIP() << "skipped: " << result.skipped_reason;
    ASSERT_EQ(result.error, "");
    const LayoutComparison comparison = compare_layouts(model, result);
    EXPECT_EQ(comparison.matched, comparison.total - 16) << first_mismatches(comparison);
}

// A shared-memory view with two A elements' bytes swapped: exactly those two are caught.
TEST(FragmentProbeOnGpu, CatchesASharedMemoryViewWithTwoElementsSwapped) {
    TCLENS_REQUIRE_GPU();
    viz::FragmentLayout model = viz::fragment_layout("wgmma.smem.f16.k.sw128").value();
    std::vector<viz::SharedMemoryElement>& a = model.shared_memory.at(0).elements;
    std::swap(a.at(3).byte, a.at(100).byte);
    const LayoutProbeResult result = measure_fragment_layout(model);
    if (!result.skipped_reason.empty()) GTEST_SKIP() << "skipped: " << result.skipped_reason;
    ASSERT_EQ(result.error, "");
    const LayoutComparison comparison = compare_layouts(model, result);
    EXPECT_EQ(comparison.matched, comparison.total - 2) << first_mismatches(comparison);
}

// The probe is not vacuous: a model that is wrong in one place is caught on real hardware.
TEST(FragmentProbeOnGpu, CatchesAModelWithTwoAccumulatorsSwapped) {
    TCLENS_REQUIRE_GPU();
    viz::FragmentLayout model = viz::fragment_layout("mma.m16n8k8.f16").value();
    for (viz::OperandLayout& operand : model.operands) {
        if (operand.operand != viz::Operand::D) continue;
        // Lane 0: d1 really holds (0,1) and d2 holds (8,0); claim the opposite.
        std::swap(operand.elements[1].row, operand.elements[2].row);
        std::swap(operand.elements[1].col, operand.elements[2].col);
    }
    const LayoutProbeResult result = measure_fragment_layout(model);
    ASSERT_EQ(result.error, "");
    ASSERT_EQ(result.skipped_reason, "");
    const LayoutComparison comparison = compare_layouts(model, result);
    EXPECT_LT(comparison.matched, comparison.total);
    EXPECT_NE(std::find(comparison.mismatches.begin(), comparison.mismatches.end(),
                        "D lane 0 d1: model (8,0) measured (0,1)"),
              comparison.mismatches.end())
        << first_mismatches(comparison);
}

TEST(FragmentProbeOnGpu, CatchesAWrongAddressLane) {
    TCLENS_REQUIRE_GPU();
    viz::FragmentLayout model = viz::fragment_layout("ldmatrix.x4").value();
    std::swap(model.address_lanes[0], model.address_lanes[1]);
    const LayoutProbeResult result = measure_fragment_layout(model);
    ASSERT_EQ(result.error, "");
    const LayoutComparison comparison = compare_layouts(model, result);
    // Rows 0 and 1 of matrix 0 reach lanes 0..7 swapped: 8 lanes x 2 halves.
    EXPECT_EQ(comparison.matched, comparison.total - 16) << first_mismatches(comparison);
}

}  // namespace
}  // namespace tclens::kernels
