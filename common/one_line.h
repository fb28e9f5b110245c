#pragma once
// Outside text (a file's key, a request's field, a worker's message) made fit for a one-line
// error or a one-line protocol field.
#include <string>
#include <string_view>

namespace tclens::common {

// `text` with every control character (newlines included) replaced by a space.
std::string one_line(std::string_view text);

}  // namespace tclens::common
