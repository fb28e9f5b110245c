#include "viz/label_placement.h"

namespace tclens::viz {
namespace {

constexpr float kGap = 1.0f;  // between a marker and its label

bool inside(const Box& box, const Box& bounds) {
    return box.x >= bounds.x && box.y >= bounds.y && box.right() <= bounds.right() &&
           box.bottom() <= bounds.bottom();
}

// The candidate spots for a w x h label around `m`, `out` pixels further than touching.
std::vector<Box> candidates(const Box& m, float w, float h, float out) {
    const float right = m.right() + kGap + out, left = m.x - kGap - out - w;
    const float above = m.y - h - out, below = m.bottom() + out;
    const float middle = m.y + m.h / 2 - h / 2, centre = m.x + m.w / 2 - w / 2;
    return {{right, above, w, h},         {right, middle, w, h},       {right, below, w, h},
            {left, above, w, h},          {left, middle, w, h},        {left, below, w, h},
            {centre, above - kGap, w, h}, {centre, below + kGap, w, h}};
}

bool free_spot(const Box& spot, const std::vector<Box>& markers, const std::vector<Box>& placed,
               const Box& bounds) {
    if (!inside(spot, bounds)) return false;
    for (const Box& m : markers) {
        if (boxes_overlap(spot, m)) return false;
    }
    for (const Box& p : placed) {
        if (boxes_overlap(spot, p)) return false;
    }
    return true;
}

}  // namespace

bool boxes_overlap(const Box& a, const Box& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

std::vector<Box> place_labels(const std::vector<Box>& markers, const std::vector<Box>& sizes,
                              const Box& bounds) {
    std::vector<Box> placed;
    for (size_t i = 0; i < markers.size() && i < sizes.size(); ++i) {
        const float w = sizes[i].w, h = sizes[i].h;
        const std::vector<Box> first = candidates(markers[i], w, h, 0.0f);
        Box chosen = first.front();
        for (const Box& spot : first) {
            if (inside(spot, bounds)) {
                chosen = spot;
                break;
            }
        }
        bool found = false;
        for (int ring = 0; ring <= kMaxRings && !found; ++ring) {
            for (const Box& spot : candidates(markers[i], w, h, float(ring) * h)) {
                if (free_spot(spot, markers, placed, bounds)) {
                    chosen = spot;
                    found = true;
                    break;
                }
            }
        }
        placed.push_back(chosen);
    }
    return placed;
}

}  // namespace tclens::viz
