#pragma once
// Small text helpers C++17's std::string lacks: prefix and suffix tests, and joining a list.
#include <string>
#include <string_view>

namespace tclens::common {

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

}  // namespace tclens::common
