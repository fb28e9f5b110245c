#include "app/cli/size_arg.h"

#include "app/parse_number.h"

namespace tclens::cli {
namespace {

std::optional<int> parse_side(std::string_view text) {
    const auto value = parse_number<int>(text);
    if (!value || *value < kMinImageSide || *value > kMaxImageSide) return std::nullopt;
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
