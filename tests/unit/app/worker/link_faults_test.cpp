// Tests for app/worker/link_faults.*: ssh's end and a worker of another protocol version, each
// told in one line that names the host and what to do.

#include "app/worker/link_faults.h"

#include <gtest/gtest.h>

namespace tclens::worker {
namespace {

int exited(int code) { return code << 8; }  // a wait status as waitpid gives it
int killed(int signal) { return signal; }

RemoteTarget target(const std::string& text) { return *parse_remote_target(text); }

TEST(LinkFaults, SshThatCannotConnectNamesTheHostAndSshsLine) {
    EXPECT_EQ(ssh_link_fault(target("gpu1"), exited(255),
                             "ssh: Could not resolve hostname gpu1: Name or service not known", ""),
              "cannot reach gpu1: ssh: Could not resolve hostname gpu1: Name or service not known");
    EXPECT_EQ(ssh_link_fault(target("gpu1"), exited(255), "", ""),
              "cannot reach gpu1: ssh exited with code 255");
}

TEST(LinkFaults, ALinkLostDuringARequestSaysWhere) {
    EXPECT_EQ(ssh_link_fault(target("me@gpu1"), exited(255), "client_loop: send disconnect",
                             "the bench request"),
              "lost the link to gpu1 during the bench request: client_loop: send disconnect");
}

TEST(LinkFaults, NoTclensAtThePathSaysHowToGiveOne) {
    EXPECT_EQ(
        ssh_link_fault(target("gpu1"), exited(127), "bash: line 1: tclens: command not found", ""),
        "no tclens on gpu1 (looked for 'tclens'; give --remote gpu1:/path/to/tclens)");
    EXPECT_EQ(ssh_link_fault(target("me@gpu1:/opt/t"), exited(126),
                             "bash: /opt/t: Permission denied", ""),
              "'/opt/t' on gpu1 cannot be run (bash: /opt/t: Permission denied); give --remote "
              "me@gpu1:/path/to/tclens");
}

TEST(LinkFaults, TheWorkersOwnEndIsNotALinkFault) {
    EXPECT_EQ(ssh_link_fault(target("gpu1"), exited(1), "x", ""), "");
    EXPECT_EQ(ssh_link_fault(target("gpu1"), killed(9), "x", ""), "");
    EXPECT_EQ(ssh_link_fault(target("gpu1"), exited(127), "x", "the bench request"), "");
}

TEST(LinkFaults, AProtocolRefusalNamesTheSideToUpdate) {
    EXPECT_EQ(protocol_in_refusal("this worker (tclens 0.1.0) speaks protocol 1, the client 2: run "
                                  "the same tclens version on both sides"),
              1);
    EXPECT_EQ(protocol_in_refusal("speaks protocol 17"), 17);
    EXPECT_EQ(protocol_in_refusal("speaks protocol x"), std::nullopt);
    EXPECT_EQ(protocol_in_refusal("speaks protocol -2"), std::nullopt);
    EXPECT_EQ(protocol_in_refusal("request: not JSON"), std::nullopt);
    EXPECT_EQ(protocol_mismatch("on gpu1", 2, 1),
              "the worker on gpu1 speaks protocol 2, this tclens 1: update tclens here");
    EXPECT_EQ(protocol_mismatch("on gpu1", 1, 2),
              "the worker on gpu1 speaks protocol 1, this tclens 2: update tclens on gpu1");
    EXPECT_EQ(protocol_mismatch("", 1, 2),
              "the worker speaks protocol 1, this tclens 2: update tclens where the worker runs");
}

}  // namespace
}  // namespace tclens::worker
