// A wave of CTAs, counted and in words (kernels/wave_slots.h): the one count and wording of the
// rules and the sweep.
#include "kernels/wave_slots.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(WaveSlots, AWaveHoldsEverySmsCtas) {
    EXPECT_EQ(wave_slots(132, 1), 132);
    EXPECT_EQ(wave_slots(132, 2), 264);
    // No int overflow for many SMs of many CTAs.
    EXPECT_EQ(wave_slots(1 << 20, 1 << 12), std::int64_t{1} << 32);
}

TEST(WaveSlots, OneCtaAnSmCountsSms) {
    EXPECT_EQ(wave_slots_text(132, 1), "132 SMs");
    EXPECT_EQ(wave_slots_text(1, 1), "1 SM");
}

TEST(WaveSlots, MoreCtasAnSmCountTheCtasAndSayHowTheySit) {
    EXPECT_EQ(wave_slots_text(132, 2), "264 CTAs (2 per SM on 132 SMs)");
    EXPECT_EQ(wave_slots_text(108, 3), "324 CTAs (3 per SM on 108 SMs)");
}

}  // namespace
}  // namespace tclens::kernels
