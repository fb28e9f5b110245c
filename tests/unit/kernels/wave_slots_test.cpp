// A wave of CTAs in words (kernels/wave_slots.h): the one wording of the rules and the sweep.
#include "kernels/wave_slots.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

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
