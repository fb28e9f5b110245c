#pragma once
// Reads a PNG back and measures what a person would see in it.

#include <climits>
#include <cstdint>
#include <string>
#include <utility>
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

// Pixels of exactly `colour` (alpha ignored) in image row y, x in [x_begin, x_end).
int count_pixels_in_row(const PngFacts& png, viz::Rgba colour, int y, int x_begin = 0,
                        int x_end = INT_MAX);

// Horizontal lines of `colour`: each run of consecutive image rows that hold at least
// `min_length` pixels of exactly `colour` side by side, as (first row, last row), top down.
// A 2-pixel-thick outline across a view gives one entry.
std::vector<std::pair<int, int>> horizontal_lines(const PngFacts& png, viz::Rgba colour,
                                                  int min_length);

// The colours of image row y, x in [x_begin, x_end), one per run of at least `min_length`
// identical pixels, left to right: the cells of a row of filled cells, without the thin grid
// lines and anti-aliased edges between them.
std::vector<viz::Rgba> colour_runs(const PngFacts& png, int y, int x_begin, int x_end,
                                   int min_length);

}  // namespace tclens::test
