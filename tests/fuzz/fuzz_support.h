#pragma once
// Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp).
//
// Harness inputs are text: fields separated by '\n', so that the seed corpus reads like what a
// user types (`ldmatrix.x4\nxor\n16 128`). A broken invariant prints what it saw and aborts,
// which libFuzzer reports as a crash and saves as a reproducer.

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tclens::fuzz {

// Aborts with `what` (and the file and line) unless `condition` holds.
#define TCLENS_FUZZ_CHECK(condition, what)                                              \
    do {                                                                                \
        if (!(condition)) ::tclens::fuzz::fail(__FILE__, __LINE__, #condition, (what)); \
    } while (0)

[[noreturn]] inline void fail(const char* file, int line, const char* condition,
                              const std::string& what) {
    std::fprintf(stderr, "%s:%d: invariant broken: %s\n  %s\n", file, line, condition,
                 what.c_str());
    std::abort();
}

// Whether `error` shows `input` between two `quote`s, as the parsers' messages do ("unknown
// swizzle \"zigzag\"", "size '4096x1'"). A plain substring test would pass for any empty input
// and for most one-character ones; the quoted form must be there for those too (`""`, `''`).
inline bool names_quoted(const std::string& error, std::string_view input, char quote) {
    std::string quoted(1, quote);
    quoted.append(input);
    quoted.push_back(quote);
    return error.find(quoted) != std::string::npos;
}

// The input split at '\n' into at most `count` fields; the last field keeps the rest
// (newlines included). Missing fields are "".
inline std::vector<std::string> split_fields(const std::uint8_t* data, std::size_t size,
                                             std::size_t count) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> fields;
    while (fields.size() + 1 < count) {
        const std::size_t end = text.find('\n');
        if (end == std::string_view::npos) break;
        fields.emplace_back(text.substr(0, end));
        text.remove_prefix(end + 1);
    }
    fields.emplace_back(text);
    fields.resize(count);
    return fields;
}

// The whole of `text` as a decimal int, or nullopt (also when out of int's range).
inline std::optional<int> whole_int(std::string_view text) {
    int value = 0;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(text.data(), last, value);
    if (text.empty() || error != std::errc() || end != last) return std::nullopt;
    return value;
}

// "R W" -> two ints, or nullopt.
inline std::optional<std::pair<int, int>> int_pair(std::string_view text) {
    const std::size_t space = text.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    const std::optional<int> first = whole_int(text.substr(0, space));
    const std::optional<int> second = whole_int(text.substr(space + 1));
    if (!first || !second) return std::nullopt;
    return std::make_pair(*first, *second);
}

}  // namespace tclens::fuzz
