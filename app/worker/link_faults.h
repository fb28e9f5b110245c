#pragma once
// One line for each fault of the link to a worker that is not the worker's own answer: ssh that
// cannot reach the host or loses it, no tclens at the remote path, a worker of another protocol
// version (docs/remote.md lists them). Pure functions of what the client saw.

#include <optional>
#include <string>

#include "app/worker/remote_target.h"

namespace tclens::worker {

// What ssh's end says about the link to `target`, from its wait status and the last line it or
// the remote shell wrote on stderr; "" when it says nothing (the worker's own exit: the caller's
// line stands). `during` is "" while the worker starts, else where the link was lost ("the bench
// request, at run 'x 64x64x64'").
//   exit 255 at start:    "cannot reach gpu1: ssh: Could not resolve hostname gpu1: ..."
//   exit 255 later:       "lost the link to gpu1 during the bench request: <line>"
//   exit 127 at start:    "no tclens on gpu1 (looked for '<path>'; give --remote
//                          gpu1:/path/to/tclens)"
//   exit 126 at start:    "'<path>' on gpu1 cannot be run (<line>); give --remote ..."
std::string ssh_link_fault(const RemoteTarget& target, int wait_status,
                           const std::string& last_stderr_line, const std::string& during);

// The protocol version a worker named in its answer to a hello of another version: every
// worker's message then holds "speaks protocol N" (docs/worker-protocol.md). nullopt if none.
std::optional<int> protocol_in_refusal(const std::string& message);

// "the worker on gpu1 speaks protocol 2, this tclens 1: update tclens here" (or "... update
// tclens on gpu1"); `where` is "on gpu1", or "" for a worker started by a command.
std::string protocol_mismatch(const std::string& where, int worker_protocol, int client_protocol);

}  // namespace tclens::worker
