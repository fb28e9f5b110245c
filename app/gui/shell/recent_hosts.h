#pragma once
// The GPU servers File > Connect to GPU server... connected to last (connect_dialog.h), most
// recent first, at most kRecentHosts, in the config folder's recent_gpu_servers, one
// [user@]host[:path] a line as the user typed it (checked again when read: a line that is no
// remote target is dropped). Written whole or not at all (common/atomic_file.h).

#include <cstddef>
#include <string>
#include <vector>

namespace tclens::gui {

inline constexpr std::size_t kRecentHosts = 8;

// The list as last written; empty without a config folder or a file.
std::vector<std::string> read_recent_hosts();

// Puts `host` first in `recent` (once: an earlier entry moves up), keeps kRecentHosts at most and
// writes the list. Best effort: a home that cannot be written keeps the list in memory only.
void remember_host(std::vector<std::string>& recent, const std::string& host);

}  // namespace tclens::gui
