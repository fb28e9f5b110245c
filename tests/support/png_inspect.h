#pragma once
// Reads a PNG back and measures what a person would see in it.

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "viz/draw_list.h"

namespace tclens::test {

struct PngFacts {
    bool loaded = false;
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;  // width * height * 4
    int distinct_colours = 0;
    // Pixels bright enough to be the cores of ImGui's default (white) glyphs.
    int text_pixels = 0;
    // Image rows that hold at least one such pixel: several lines of text span many rows.
    int text_rows = 0;
};

PngFacts inspect_png(const std::string& path);

// Pixels of exactly `colour` (alpha ignored) with x in [x_begin, x_end).
int count_pixels(const PngFacts& png, viz::Rgba colour, int x_begin = 0, int x_end = INT_MAX);

// Pixels whose colour differs between two images of one size; -1 when the sizes differ.
int differing_pixels(const PngFacts& a, const PngFacts& b);

}  // namespace tclens::test
