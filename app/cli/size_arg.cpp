#include "app/cli/size_arg.h"

#include <charconv>

namespace tclens::cli {
namespace {

std::optional<int> parse_side(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    if (value < kMinImageSide || value > kMaxImageSide) return std::nullopt;
    return value;
}

}  // namespace

std::optional<ImageSize> parse_image_size(std::string_view text) {
    const auto x = text.find('x');
    if (x == std::string_view::npos) return std::nullopt;
    const auto width = parse_side(text.substr(0, x));
    const auto height = parse_side(text.substr(x + 1));
    if (!width || !height) return std::nullopt;
    return ImageSize{*width, *height};
}

}  // namespace tclens::cli
