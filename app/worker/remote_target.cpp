#include "app/worker/remote_target.h"

#include "common/one_line.h"
#include "common/text.h"

namespace tclens::worker {
namespace {

constexpr std::size_t kMaxNameBytes = 255;
constexpr std::size_t kMaxPathBytes = 4096;
constexpr const char* kForm = "give [user@]host[:/path/to/tclens]";

bool is_alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_name_char(char c) { return is_alnum(c) || c == '.' || c == '-' || c == '_'; }

bool is_path_char(char c) { return is_name_char(c) || c == '/' || c == '+'; }

bool is_ipv6_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
           c == '.';
}

template <typename Allowed>
bool all_of(const std::string& text, Allowed allowed) {
    for (char c : text) {
        if (!allowed(c)) return false;
    }
    return true;
}

// "" when `name` (a user or a host) is allowed, else why not.
std::string name_problem(const std::string& what, const std::string& name) {
    if (name.empty()) return what + " is empty";
    if (name.size() > kMaxNameBytes)
        return what + " is longer than " + std::to_string(kMaxNameBytes) + " characters";
    if (name.front() == '-') return what + " starts with '-' (ssh would read it as an option)";
    if (!all_of(name, is_name_char))
        return what + " may hold only letters, digits and '.', '-', '_'";
    return "";
}

std::string path_problem(const std::string& path) {
    if (path.empty()) return "the path after ':' is empty";
    if (path.size() > kMaxPathBytes)
        return "the path is longer than " + std::to_string(kMaxPathBytes) + " characters";
    if (path.front() == '-') return "the path starts with '-'";
    const bool home = common::starts_with(path, "~/");
    if (!all_of(home ? path.substr(2) : path, is_path_char))
        return "the path may hold only letters, digits and '/', '.', '_', '+', '-'";
    const bool bare = path.find('/') == std::string::npos;
    if (!bare && path.front() != '/' && !home)
        return "the path must be absolute, start with ~/, or be a name found on the remote PATH";
    if (home && path.size() == 2) return "the path '~/' names no program";
    return "";
}

}  // namespace

common::Expected<RemoteTarget> parse_remote_target(const std::string& text) {
    using Result = common::Expected<RemoteTarget>;
    const auto refuse = [&text](const std::string& why) {
        return Result::failure("'" + common::one_line_excerpt(text, 120) + "': " + why + "; " +
                               kForm);
    };
    RemoteTarget target;
    std::string rest = text;
    if (const std::size_t at = rest.find('@'); at != std::string::npos) {
        target.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
        if (const std::string bad = name_problem("the user", target.user); !bad.empty())
            return refuse(bad);
    }
    std::string path;
    bool has_path = false;
    if (!rest.empty() && rest.front() == '[') {
        const std::size_t close = rest.find(']');
        if (close == std::string::npos) return refuse("'[' opens an IPv6 address that ']' ends");
        target.host = rest.substr(1, close - 1);
        const std::string after = rest.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            return refuse("only ':' and a path may follow ']'");
        has_path = !after.empty();
        if (has_path) path = after.substr(1);
        if (target.host.empty() || target.host.size() > kMaxNameBytes ||
            !all_of(target.host, is_ipv6_char) || target.host.find(':') == std::string::npos) {
            return refuse("brackets hold an IPv6 address: hex digits, ':' and '.'");
        }
    } else {
        const std::size_t colon = rest.find(':');
        target.host = rest.substr(0, colon);
        has_path = colon != std::string::npos;
        if (has_path) path = rest.substr(colon + 1);
        if (const std::string bad = name_problem("the host", target.host); !bad.empty())
            return refuse(bad +
                          (has_path && target.host.empty() ? " (an IPv6 address: [::1])" : ""));
    }
    if (has_path) {
        if (const std::string bad = path_problem(path); !bad.empty()) return refuse(bad);
        target.path = path;
        target.path_given = true;
    }
    return Result::success(target);
}

std::string remote_worker_command(const RemoteTarget& target) {
    // Every character of the path (after a "~/") is one of is_path_char's, so no quote needs
    // escaping; the quotes still keep the remote shell from reading anything in it.
    const std::string gpu = target.gpu >= 0 ? " --gpu " + std::to_string(target.gpu) : "";
    if (common::starts_with(target.path, "~/"))
        return "~/'" + target.path.substr(2) + "' worker" + gpu;
    return "'" + target.path + "' worker" + gpu;
}

std::vector<std::string> ssh_worker_argv(const RemoteTarget& target,
                                         const std::string& ssh_config) {
    std::vector<std::string> argv = {"ssh", "-T",
                                     "-o",  "BatchMode=yes",
                                     "-o",  "LogLevel=ERROR",
                                     "-o",  "ConnectTimeout=20",
                                     "-o",  "ServerAliveInterval=15"};
    if (!ssh_config.empty()) {
        argv.push_back("-F");
        argv.push_back(ssh_config);
    }
    argv.push_back("--");
    argv.push_back(target.destination());
    argv.push_back(remote_worker_command(target));
    return argv;
}

}  // namespace tclens::worker
