#include "tests/support/png_inspect.h"

#include <algorithm>
#include <set>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>

namespace tclens::test {

PngFacts inspect_png(const std::string& path) {
    PngFacts facts;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &facts.width, &facts.height, &channels, 4);
    if (!data) return facts;
    facts.loaded = true;
    facts.rgba.assign(data, data + size_t(facts.width) * facts.height * 4);
    stbi_image_free(data);

    std::set<std::uint32_t> colours;
    for (int y = 0; y < facts.height; ++y) {
        bool row_has_text = false;
        for (int x = 0; x < facts.width; ++x) {
            const std::uint8_t* p = &facts.rgba[(size_t(y) * facts.width + x) * 4];
            colours.insert(std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2]);
            if (p[0] > 200 && p[1] > 200 && p[2] > 200) {
                ++facts.text_pixels;
                row_has_text = true;
            }
        }
        facts.text_rows += row_has_text;
    }
    facts.distinct_colours = static_cast<int>(colours.size());
    return facts;
}

int count_pixels(const PngFacts& png, viz::Rgba colour, int x_begin, int x_end) {
    int count = 0;
    for (int y = 0; y < png.height; ++y) {
        for (int x = std::max(0, x_begin); x < std::min(png.width, x_end); ++x) {
            const std::uint8_t* p = &png.rgba[(std::size_t(y) * png.width + x) * 4];
            count += p[0] == colour.r && p[1] == colour.g && p[2] == colour.b;
        }
    }
    return count;
}

int differing_pixels(const PngFacts& a, const PngFacts& b) {
    if (a.width != b.width || a.height != b.height) return -1;
    int count = 0;
    for (std::size_t i = 0; i + 3 < a.rgba.size(); i += 4) {
        count += a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] ||
                 a.rgba[i + 2] != b.rgba[i + 2];
    }
    return count;
}

namespace {

bool is(const std::uint8_t* p, viz::Rgba colour) {
    return p[0] == colour.r && p[1] == colour.g && p[2] == colour.b;
}

const std::uint8_t* pixel(const PngFacts& png, int x, int y) {
    return &png.rgba[(std::size_t(y) * png.width + x) * 4];
}

}  // namespace

int count_pixels_in_row(const PngFacts& png, viz::Rgba colour, int y, int x_begin, int x_end) {
    if (y < 0 || y >= png.height) return 0;
    int count = 0;
    for (int x = std::max(0, x_begin); x < std::min(png.width, x_end); ++x) {
        count += is(pixel(png, x, y), colour);
    }
    return count;
}

std::vector<std::pair<int, int>> horizontal_lines(const PngFacts& png, viz::Rgba colour,
                                                  int min_length) {
    std::vector<std::pair<int, int>> lines;
    for (int y = 0; y < png.height; ++y) {
        int run = 0;
        int longest = 0;
        for (int x = 0; x < png.width; ++x) {
            run = is(pixel(png, x, y), colour) ? run + 1 : 0;
            longest = std::max(longest, run);
        }
        if (longest < min_length) continue;
        if (!lines.empty() && lines.back().second == y - 1) {
            lines.back().second = y;
        } else {
            lines.emplace_back(y, y);
        }
    }
    return lines;
}

std::vector<viz::Rgba> colour_runs(const PngFacts& png, int y, int x_begin, int x_end,
                                   int min_length) {
    std::vector<viz::Rgba> colours;
    if (y < 0 || y >= png.height) return colours;
    const int end = std::min(png.width, x_end);
    for (int x = std::max(0, x_begin); x < end;) {
        const std::uint8_t* first = pixel(png, x, y);
        int length = 1;
        while (x + length < end && std::equal(first, first + 3, pixel(png, x + length, y))) {
            ++length;
        }
        if (length >= min_length) colours.push_back({first[0], first[1], first[2], 255});
        x += length;
    }
    return colours;
}

}  // namespace tclens::test
