// Tests for app/gui/profile_view.*: metric cards from a profile, when the tensor cores count as
// idle, and the "Why are the tensor cores idle?" checklist line by line.
#include "app/gui/views/profile_view.h"

#include <gtest/gtest.h>

#include "kernels/registry.h"

namespace tclens::gui {
namespace {

const kernels::KernelDescriptor& kernel(const std::string& id) {
    const kernels::KernelDescriptor* found = kernels::find_kernel(id);
    EXPECT_NE(found, nullptr) << id;
    return *found;
}

const ChecklistLine& line_of(const std::vector<ChecklistLine>& lines, const std::string& check) {
    for (const ChecklistLine& line : lines) {
        if (line.check == check) return line;
    }
    ADD_FAILURE() << "no line '" << check << "'";
    return lines.front();
}

TEST(TensorIdle, OnlyForNonF32KernelsBelowOnePercent) {
    EXPECT_TRUE(tensor_cores_idle(kernel("wmma.f16"), 0.0));
    EXPECT_TRUE(tensor_cores_idle(kernel("mma_tf32_tuned"), 0.99));
    EXPECT_FALSE(tensor_cores_idle(kernel("wmma.f16"), 1.0));
    EXPECT_FALSE(tensor_cores_idle(kernel("wmma.f16"), 45.0));
    EXPECT_FALSE(tensor_cores_idle(kernel("naive_fma.f32"), 0.0));  // not meant to use them
    EXPECT_FALSE(tensor_cores_idle(kernel("cublas.sgemm"), 0.0));
}

TEST(TensorIdleChecklist, AllPassForAGoodTensorKernelAndSize) {
    const auto lines = tensor_idle_checklist(kernel("wmma.f16"), {4096, 4096, 4096});
    ASSERT_EQ(lines.size(), 7u);
    for (const ChecklistLine& line : lines) {
        EXPECT_TRUE(line.passed) << line.check << ": " << line.detail;
        EXPECT_FALSE(line.detail.empty());
        EXPECT_EQ(line.detail.find('\n'), std::string::npos);
    }
    EXPECT_EQ(lines[0].check, "inputs are TF32, FP16 or BF16");
    EXPECT_EQ(lines[0].detail, "A and B are f16");
    EXPECT_EQ(lines[1].detail, "its MMA tile is 16x16x16");
    EXPECT_EQ(line_of(lines, "K is a multiple of 16").detail, "K = 4096");
}

TEST(TensorIdleChecklist, FailsF32InputsAndFmaOnlyKernels) {
    const auto lines = tensor_idle_checklist(kernel("naive_fma.f32"), {256, 256, 256});
    EXPECT_FALSE(line_of(lines, "inputs are TF32, FP16 or BF16").passed);
    EXPECT_FALSE(line_of(lines, "kernel issues tensor-core instructions").passed);
    // cuBLAS picks its own kernel: the instruction line passes, the input type still fails.
    const auto sgemm = tensor_idle_checklist(kernel("cublas.sgemm"), {256, 256, 256});
    EXPECT_FALSE(line_of(sgemm, "inputs are TF32, FP16 or BF16").passed);
    EXPECT_TRUE(line_of(sgemm, "kernel issues tensor-core instructions").passed);
}

TEST(TensorIdleChecklist, NamesTheSideThatIsNotAMultipleOf16AndThePaddedValue) {
    const auto lines = tensor_idle_checklist(kernel("mma_tf32_tuned"), {4096, 4096, 100});
    EXPECT_TRUE(line_of(lines, "M is a multiple of 16").passed);
    EXPECT_TRUE(line_of(lines, "N is a multiple of 16").passed);
    const ChecklistLine& k = line_of(lines, "K is a multiple of 16");
    EXPECT_FALSE(k.passed);
    EXPECT_NE(k.detail.find("K = 100 is not"), std::string::npos) << k.detail;
    EXPECT_NE(k.detail.find("112"), std::string::npos) << k.detail;
    // TF32 stores 4 bytes: 100 x 4 = 400 bytes per row of A, a multiple of 16.
    const ChecklistLine& align = line_of(lines, "rows start 16-byte aligned");
    EXPECT_TRUE(align.passed) << align.detail;
    EXPECT_NE(align.detail.find("400 bytes"), std::string::npos) << align.detail;
}

TEST(TensorIdleChecklist, OddRowsAreUnalignedForTwoByteTypes) {
    // f16: N = 4100 -> 8200-byte rows of B (not a multiple of 16); K = 4096 -> aligned A rows.
    const auto lines = tensor_idle_checklist(kernel("wmma.f16"), {4096, 4100, 4096});
    const ChecklistLine& align = line_of(lines, "rows start 16-byte aligned");
    EXPECT_FALSE(align.passed);
    EXPECT_NE(align.detail.find("8200 bytes"), std::string::npos) << align.detail;
    EXPECT_NE(align.detail.find("pad N to a multiple of 8"), std::string::npos) << align.detail;
    EXPECT_FALSE(line_of(lines, "N is a multiple of 16").passed);
}

TEST(TensorIdleChecklist, ReportsTheKernelsOwnReasonForASizeItRejects) {
    const kernels::KernelDescriptor& wmma = kernel("wmma.f16");
    const kernels::GemmProblem odd{100, 100, 100};
    const std::string reason = wmma.can_run ? wmma.can_run(odd) : "";
    const auto lines = tensor_idle_checklist(wmma, odd);
    const ChecklistLine& line = line_of(lines, "kernel accepts this size");
    EXPECT_EQ(line.passed, reason.empty());
    if (!reason.empty()) {
        EXPECT_EQ(line.detail, reason);
    }
}

// A chart of a recording's PM samples is not live: its title says when it was recorded.
TEST(TimelineChartTitle, RecordedChartsSayWhenNotLive) {
    EXPECT_EQ(timeline_chart_title("tensor pipe (live)", ""), "tensor pipe (live)");
    EXPECT_EQ(timeline_chart_title("tensor pipe (live)", "2026-11-25 23:33 UTC"),
              "tensor pipe (recorded 2026-11-25 23:33 UTC)");
    EXPECT_EQ(timeline_chart_title("sm__x.avg", "2026-11-25 23:33 UTC"),
              "sm__x.avg (recorded 2026-11-25 23:33 UTC)");
}

TEST(MetricCards, OnePerMetricWithCatalogueMeaningAndFormattedValue) {
    profiling::KernelProfile profile;
    profile.metrics.push_back({kTensorPipeMetric, "tensor pipe", "%", 45.64});
    profile.metrics.push_back({"made__up.sum", "", "", 1234567});
    const auto cards = metric_cards(profile);
    ASSERT_EQ(cards.size(), 2u);
    EXPECT_EQ(cards[0].label, "tensor pipe");
    EXPECT_EQ(cards[0].value_text, "45.6 %");
    EXPECT_EQ(cards[0].unit, "%");
    EXPECT_NE(cards[0].meaning.find("Tensor pipe busy"), std::string::npos);
    EXPECT_EQ(cards[1].label, "made__up.sum");  // no label: the name
    EXPECT_EQ(cards[1].meaning, "");
    EXPECT_EQ(cards[1].value_text, "1,234,567");
}

}  // namespace
}  // namespace tclens::gui
