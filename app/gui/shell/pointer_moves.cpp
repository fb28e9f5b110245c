#include "app/gui/shell/pointer_moves.h"

#include "app/parse_number.h"
#include "common/text.h"

namespace tclens::gui {
namespace {

constexpr int kMostPixels = 100000;

}  // namespace

std::string parse_pointer_positions(std::string_view text,
                                    std::vector<PointerPosition>& positions) {
    std::vector<PointerPosition> parsed;
    for (const std::string& item : common::split_list(text)) {
        const std::size_t colon = item.find(':');
        const auto x =
            colon == std::string::npos ? std::nullopt : parse_number<int>(item.substr(0, colon));
        const auto y =
            colon == std::string::npos ? std::nullopt : parse_number<int>(item.substr(colon + 1));
        if (!x || !y || *x < 0 || *y < 0 || *x > kMostPixels || *y > kMostPixels) {
            return "'" + item + "': allowed: X:Y, window pixels 0.." + std::to_string(kMostPixels) +
                   ", e.g. 640:2";
        }
        parsed.push_back({*x, *y});
    }
    positions = std::move(parsed);
    return "";
}

}  // namespace tclens::gui
