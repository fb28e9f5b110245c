#include "app/gui/shell/recent_hosts.h"

#include <algorithm>
#include <fstream>

#include "app/gui/shell/config_folder.h"
#include "app/worker/remote_target.h"
#include "common/atomic_file.h"

namespace tclens::gui {
namespace {

constexpr const char* kFile = "recent_gpu_servers";

}  // namespace

std::vector<std::string> read_recent_hosts() {
    std::vector<std::string> recent;
    const std::string file = config_file_path(kFile);
    if (file.empty()) return recent;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line) && recent.size() < kRecentHosts;) {
        if (worker::parse_remote_target(line)) recent.push_back(line);
    }
    return recent;
}

void remember_host(std::vector<std::string>& recent, const std::string& host) {
    recent.erase(std::remove(recent.begin(), recent.end(), host), recent.end());
    recent.insert(recent.begin(), host);
    if (recent.size() > kRecentHosts) recent.resize(kRecentHosts);
    const std::string file = config_file_path(kFile);
    if (file.empty()) return;
    std::string text;
    for (const std::string& entry : recent) text += entry + "\n";
    common::write_bytes_atomically(file, text);
}

}  // namespace tclens::gui
