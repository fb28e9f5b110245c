#pragma once
// Reads a PNG back and measures what a person would see in it.

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace tclens::test
