#pragma once
// Strict number parsing for command-line values and panel settings: the whole text must be the
// number (no blanks, signs only where the type has them, no trailing characters).

#include <charconv>
#include <optional>
#include <string_view>

namespace tclens {

// "42" -> 42; "", "4x", " 4", "99999999999" -> nullopt.
template <typename Number>
std::optional<Number> parse_number(std::string_view text) {
    Number value{};
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(text.data(), last, value);
    if (text.empty() || error != std::errc() || end != last) return std::nullopt;
    return value;
}

}  // namespace tclens
