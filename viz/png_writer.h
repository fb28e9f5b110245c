#pragma once
// PNG export of an RGBA8 image. Writing is atomic: the file appears complete or not at all.

#include <cstdint>
#include <string>
#include <vector>

namespace tclens::viz {

// Row-major RGBA8 pixels, top row first; pixels.size() == width * height * 4.
struct RgbaImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;
};

// Writes `image` to `path` through a temporary file in the same folder and a rename.
// Returns "" on success, else one line naming the path and the reason; on failure no file
// (neither `path` nor the temporary) is left behind.
std::string write_png(const RgbaImage& image, const std::string& path);

}  // namespace tclens::viz
