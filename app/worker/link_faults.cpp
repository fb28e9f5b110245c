#include "app/worker/link_faults.h"

#include <sys/wait.h>

#include <cstdlib>

#include "common/one_line.h"

namespace tclens::worker {
namespace {

constexpr int kSshFailed = 255;        // ssh's own error: no connection, or it was lost
constexpr int kCommandNotFound = 127;  // the remote shell found no such program
constexpr int kCommandNotRunnable = 126;

std::string said(const std::string& line, const std::string& otherwise) {
    return line.empty() ? otherwise : common::one_line_excerpt(line, 300);
}

}  // namespace

std::string ssh_link_fault(const RemoteTarget& target, int wait_status,
                           const std::string& last_stderr_line, const std::string& during) {
    if (!WIFEXITED(wait_status)) return "";
    const int code = WEXITSTATUS(wait_status);
    const std::string fix = "give --remote " + target.destination() + ":/path/to/tclens";
    if (code == kSshFailed) {
        const std::string line = said(last_stderr_line, "ssh exited with code 255");
        if (during.empty()) return "cannot reach " + target.host + ": " + line;
        return "lost the link to " + target.host + " during " + during + ": " + line;
    }
    if (!during.empty()) return "";
    if (code == kCommandNotFound) {
        return "no tclens on " + target.host + " (looked for '" + target.path + "'; " + fix + ")";
    }
    if (code == kCommandNotRunnable) {
        return "'" + target.path + "' on " + target.host + " cannot be run (" +
               said(last_stderr_line, "permission denied") + "); " + fix;
    }
    return "";
}

std::optional<int> protocol_in_refusal(const std::string& message) {
    const std::string mark = "speaks protocol ";
    const std::size_t at = message.find(mark);
    if (at == std::string::npos) return std::nullopt;
    const char* digits = message.c_str() + at + mark.size();
    char* end = nullptr;
    const long value = std::strtol(digits, &end, 10);
    if (end == digits || *digits < '0' || *digits > '9' || value < 1 || value > 1000000)
        return std::nullopt;
    return static_cast<int>(value);
}

std::string protocol_mismatch(const std::string& where, int worker_protocol, int client_protocol) {
    const std::string worker = where.empty() ? "the worker" : "the worker " + where;
    const std::string there = where.empty() ? "where the worker runs" : where;
    return worker + " speaks protocol " + std::to_string(worker_protocol) + ", this tclens " +
           std::to_string(client_protocol) + ": update tclens " +
           (worker_protocol > client_protocol ? std::string("here") : there);
}

}  // namespace tclens::worker
