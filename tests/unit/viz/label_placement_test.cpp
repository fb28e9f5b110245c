// Tests for viz/label_placement.*: labels beside markers that never cover each other or a marker.
#include "viz/label_placement.h"

#include <gtest/gtest.h>

#include <vector>

namespace tclens::viz {
namespace {

const Box kBounds{0, 0, 400, 300};
const Box kDigit{0, 0, 9, 13};  // one digit at 13 px

void expect_apart(const std::vector<Box>& labels, const std::vector<Box>& markers) {
    for (size_t i = 0; i < labels.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            EXPECT_FALSE(boxes_overlap(labels[i], labels[j])) << i << " covers " << j;
        }
        for (size_t m = 0; m < markers.size(); ++m) {
            EXPECT_FALSE(boxes_overlap(labels[i], markers[m])) << i << " covers marker " << m;
        }
        EXPECT_GE(labels[i].x, kBounds.x);
        EXPECT_LE(labels[i].right(), kBounds.right());
    }
}

TEST(LabelPlacement, ALoneMarkerGetsItsLabelAboveRight) {
    const std::vector<Box> labels = place_labels({{100, 100, 9, 9}}, {kDigit}, kBounds);
    ASSERT_EQ(labels.size(), 1u);
    EXPECT_FLOAT_EQ(labels[0].x, 110);  // right of the marker, 1 px gap
    EXPECT_FLOAT_EQ(labels[0].y, 87);   // its bottom on the marker's top
}

// The roofline's pile-up: four runs within a few pixels (wgmma_persistent and cuBLAS, f16 and
// bf16, at ~670 FLOP/B and ~750 TFLOP/s). Drawn above-right each, their numbers covered each
// other; placed, none covers another or a marker.
TEST(LabelPlacement, MarkersAtOnePlaceGetLabelsThatDoNotPileUp) {
    const std::vector<Box> markers = {
        {200, 100, 9, 9}, {199, 99, 9, 9}, {201, 97, 9, 9}, {200, 96, 9, 9}, {230, 100, 9, 9}};
    const std::vector<Box> labels = place_labels(markers, std::vector<Box>(5, kDigit), kBounds);
    ASSERT_EQ(labels.size(), 5u);
    expect_apart(labels, markers);
}

TEST(LabelPlacement, AtTheEdgeALabelStaysInside) {
    const std::vector<Box> markers = {{392, 0, 8, 8}};
    const std::vector<Box> labels = place_labels(markers, {kDigit}, kBounds);
    expect_apart(labels, markers);
    EXPECT_GE(labels[0].y, 0);
}

TEST(LabelPlacement, ManyMarkersInOneSpotStillPlaceEveryLabel) {
    const std::vector<Box> markers(12, Box{200, 150, 9, 9});
    const std::vector<Box> labels = place_labels(markers, std::vector<Box>(12, kDigit), kBounds);
    ASSERT_EQ(labels.size(), 12u);
    for (size_t i = 0; i < labels.size(); ++i) {
        for (size_t j = 0; j < i; ++j) EXPECT_FALSE(boxes_overlap(labels[i], labels[j]));
    }
}

}  // namespace
}  // namespace tclens::viz
