#pragma once
// Labels next to markers that do not pile up: a greedy placement, in order, of one label per
// marker into the first free spot around it. Used by the roofline (viz/roofline.h) for the run
// numbers beside its markers; pure, tested on the CPU.
#include <vector>

namespace tclens::viz {

struct Box {
    float x = 0, y = 0, w = 0, h = 0;
    float right() const { return x + w; }
    float bottom() const { return y + h; }
};

// True when a and b share more than a line (touching edges do not count).
bool boxes_overlap(const Box& a, const Box& b);

// (markers[i], sizes[i]) -> the box of label i, sizes[i] its width and height (x, y ignored).
// Label i goes to the first candidate spot around markers[i] that overlaps no marker, no label
// placed before it and lies inside `bounds`: right-above, right, right-below, left-above, left,
// left-below, above, below, touching the marker; then the same ring 1, 2, ... label heights
// further out. Where no spot up to kMaxRings rings out is free, the first candidate that stays
// inside `bounds` (else right-above). Example: two markers at one place -> the first label
// right-above, the second right of the marker, under the first.
std::vector<Box> place_labels(const std::vector<Box>& markers, const std::vector<Box>& sizes,
                              const Box& bounds);

inline constexpr int kMaxRings = 6;

}  // namespace tclens::viz
