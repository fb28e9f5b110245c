#pragma once
// Small text helpers C++17's std::string lacks: prefix and suffix tests, printf into a string,
// a count with its noun, joining and splitting a list.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::common {

// printf into a std::string, for table cells and one-line reasons: format_text("%.2fx", 1.5)
// == "1.50x". At most 255 characters; a longer text is cut.
template <typename... Values>
std::string format_text(const char* pattern, Values... values) {
    char text[256];
    std::snprintf(text, sizeof text, pattern, values...);
    return text;
}

// A count and its noun, plural but for one: count_text(1, "tile") == "1 tile",
// count_text(4, "tile") == "4 tiles".
inline std::string count_text(long long count, std::string_view noun) {
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

inline bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

inline bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The text of each item, `separator` between them: join(names, ", ") == "a, b, c".
// `to_text` turns an item into something std::string can append (the item itself by default).
template <typename Range, typename ToText>
std::string join(const Range& items, std::string_view separator, ToText to_text) {
    std::string text;
    bool first = true;
    for (const auto& item : items) {
        if (!first) text += separator;
        text += to_text(item);
        first = false;
    }
    return text;
}

template <typename Range>
std::string join(const Range& items, std::string_view separator) {
    return join(items, separator, [](const auto& item) -> decltype(auto) { return item; });
}

// A comma-separated list, each item without surrounding blanks (spaces, tabs):
// "a, b,c" -> {"a", "b", "c"}; "" -> {""}; "a,,b" -> {"a", "", "b"} (the caller refuses empties).
inline std::vector<std::string> split_list(std::string_view text) {
    const auto trimmed = [](std::string_view item) {
        const auto first = item.find_first_not_of(" \t");
        if (first == std::string_view::npos) return std::string();
        const auto last = item.find_last_not_of(" \t");
        return std::string(item.substr(first, last - first + 1));
    };
    std::vector<std::string> items;
    for (;;) {
        const auto comma = text.find(',');
        items.push_back(trimmed(text.substr(0, comma)));
        if (comma == std::string_view::npos) return items;
        text.remove_prefix(comma + 1);
    }
}

}  // namespace tclens::common
