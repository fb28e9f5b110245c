#pragma once
// Parsing of "WxH" image sizes given on the command line.

#include <optional>
#include <string_view>

namespace tclens::cli {

struct ImageSize {
    int width = 0;
    int height = 0;
};

inline constexpr int kMinImageSide = 64;
inline constexpr int kMaxImageSide = 8192;

// "1280x800" -> {1280, 800}; nullopt unless both sides are plain decimal integers in
// [kMinImageSide, kMaxImageSide].
std::optional<ImageSize> parse_image_size(std::string_view text);

}  // namespace tclens::cli
