#pragma once
// Files that appear complete or not at all: every file tclens writes (SVG and PNG exports,
// recordings, the recent-files list, the SASS census) goes to a temporary file beside the target,
// renamed over the target only once it is whole.

#include <functional>
#include <string>
#include <string_view>

namespace tclens::common {

// `write` fills the temporary file whose path it is given and returns "" or why it failed.
// Returns "" on success, else "cannot write PATH: REASON" (one line). On failure the temporary
// is removed and an existing `path` is left as it was.
std::string write_file_atomically(
    const std::string& path, const std::function<std::string(const std::string& temporary)>& write);

// write_file_atomically for bytes already in memory.
std::string write_bytes_atomically(const std::string& path, std::string_view bytes);

}  // namespace tclens::common
