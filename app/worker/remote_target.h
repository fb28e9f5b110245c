#pragma once
// A GPU host reached through the system's ssh (`--remote [user@]host[:path-to-tclens]`,
// docs/remote.md). What the user typed is checked before anything runs, so that no part of it can
// reach ssh as an option or a shell as code:
//   user  letters, digits, '.', '-', '_'; not starting with '-'
//   host  the same (a name, an address, an ssh config alias), or an IPv6 address in brackets
//         ("[::1]": hex digits, ':', '.'); not starting with '-'
//   path  tclens on that host: a bare name found on its PATH (default "tclens"), an absolute path
//         or one under "~/", of letters, digits and "/._+-" only; not starting with '-'
// ssh is then started from an argv (no local shell), with "--" before the host, and the remote
// command names the path in single quotes (a "~/" left outside them so the remote shell expands
// it): `'/opt/tclens/bin/tclens' worker`, `~/'bin/tclens' worker`.
// Pure C++: no CUDA, no processes.

#include <string>
#include <vector>

#include "common/expected.h"

namespace tclens::worker {

// ssh's configuration file instead of ~/.ssh/config when set and not empty (ssh -F FILE).
inline constexpr const char* kSshConfigVariable = "TCLENS_SSH_CONFIG";
// The path used when --remote names none: tclens on the remote PATH.
inline constexpr const char* kDefaultRemotePath = "tclens";

struct RemoteTarget {
    std::string user;  // "" = ssh's choice (its config, else the local user's name)
    std::string host;  // as ssh takes it: brackets of an IPv6 address removed
    std::string path = kDefaultRemotePath;
    bool path_given = false;  // the user named the path (host:PATH)
    int gpu = -1;  // the remote worker's --gpu N (one worker per GPU of that host); -1: none

    // ssh's destination: "user@host" or "host".
    std::string destination() const { return user.empty() ? host : user + "@" + host; }
};

// Parses `text` as `[user@]host[:path]`; the error is one line naming the value (control
// characters shown as spaces) and what is allowed, for the caller to put after the option's name:
// "'host;rm -rf ~': the host may hold only letters, digits and '.', '-', '_'; give
// [user@]host[:/path/to/tclens]".
common::Expected<RemoteTarget> parse_remote_target(const std::string& text);

// The command ssh asks the remote shell to run: `'<path>' worker` (`~/'<rest>' worker`), with
// ` --gpu N` when target.gpu >= 0.
std::string remote_worker_command(const RemoteTarget& target);

// The argv that starts the worker through the system's ssh:
//   ssh -T -o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=20 -o ServerAliveInterval=15
//       [-F <config>] -- <destination> <remote_worker_command>
// BatchMode: ssh never asks for a password or a passphrase (keys, an agent, a config do);
// LogLevel=ERROR: ssh's notes ("Permanently added ...") stay off the protocol's stderr.
// `ssh_config` is $TCLENS_SSH_CONFIG's value ("" = ssh's own choice).
std::vector<std::string> ssh_worker_argv(const RemoteTarget& target, const std::string& ssh_config);

}  // namespace tclens::worker
