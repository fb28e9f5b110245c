// libFuzzer harness for app/worker/remote_target.h: parse_remote_target, remote_worker_command,
// ssh_worker_argv.
//
// Input: what a user gives to --remote, e.g. "ana@gpu1:/opt/tclens/bin/tclens".
// Invariants:
//   - a refused text gets one line that starts by showing it in single quotes;
//   - an accepted text's user, host and path hold only their allowed characters and none of them
//     starts with '-', so ssh can never read one as an option;
//   - the argv ends in "--", the destination (user@host or host) and the remote command, which is
//     the path in single quotes (a "~/" left before them) then " worker": no quote, space or other
//     shell character of the user's reaches the remote shell unquoted;
//   - parsing is exact: user@host:path put back together is the input (brackets of an IPv6 host
//     aside).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "app/worker/remote_target.h"
#include "tests/fuzz/fuzz_support.h"

namespace tclens::fuzz {
namespace {

bool plain(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

bool only(const std::string& text, bool (*allowed)(char)) {
    for (char c : text) {
        if (!allowed(c)) return false;
    }
    return true;
}

bool ipv6(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
           c == '.';
}

bool path_char(char c) { return plain(c) || c == '/' || c == '+'; }

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    using namespace tclens::fuzz;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto target = worker::parse_remote_target(text);
    if (!target) {
        const std::string& error = target.error();
        TCLENS_FUZZ_CHECK(error.find('\n') == std::string::npos && error.rfind("'", 0) == 0, error);
        return 0;
    }
    const worker::RemoteTarget& t = *target;
    TCLENS_FUZZ_CHECK(t.user.empty() || (t.user.front() != '-' && only(t.user, plain)), text);
    const bool bracketed = t.host.find(':') != std::string::npos;
    TCLENS_FUZZ_CHECK(!t.host.empty() && t.host.front() != '-' &&
                          (bracketed ? only(t.host, ipv6) : only(t.host, plain)),
                      text);
    const bool home = t.path.rfind("~/", 0) == 0;
    const std::string rest = home ? t.path.substr(2) : t.path;
    TCLENS_FUZZ_CHECK(!rest.empty() && t.path.front() != '-' && only(rest, path_char), text);

    std::string rebuilt = t.user.empty() ? "" : t.user + "@";
    rebuilt += bracketed ? "[" + t.host + "]" : t.host;
    if (t.path_given) rebuilt += ":" + t.path;
    TCLENS_FUZZ_CHECK(rebuilt == text, text + " -> " + rebuilt);

    const std::vector<std::string> argv = worker::ssh_worker_argv(t, "");
    TCLENS_FUZZ_CHECK(argv.size() >= 3 && argv[argv.size() - 3] == "--", text);
    TCLENS_FUZZ_CHECK(argv[argv.size() - 2] == t.destination() && argv[argv.size() - 2][0] != '-',
                      text);
    const std::string command = argv.back();
    const std::string expected = (home ? "~/'" : "'") + rest + "' worker";
    TCLENS_FUZZ_CHECK(command == expected, text + " -> " + command);
    return 0;
}
