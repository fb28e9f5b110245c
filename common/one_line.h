#pragma once
// Outside text (a file's key, a request's field, a worker's message) made fit for a one-line
// error or a one-line protocol field.
#include <cstddef>
#include <string>
#include <string_view>

namespace tclens::common {

// `text` with every control character (newlines included) replaced by a space.
std::string one_line(std::string_view text);

// one_line of at most the first `max_bytes` bytes of `text`, then "..." if that cut any:
// ("a\nbcdef", 3) -> "a b...".
std::string one_line_excerpt(std::string_view text, std::size_t max_bytes);

}  // namespace tclens::common
