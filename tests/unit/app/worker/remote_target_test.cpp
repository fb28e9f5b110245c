// Tests for app/worker/remote_target.*: what --remote accepts, what it refuses before anything
// runs (a value ssh could read as an option, shell metacharacters), and the exact argv of ssh.

#include "app/worker/remote_target.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tclens::worker {
namespace {

TEST(RemoteTarget, AcceptsAHostAUserAndAPath) {
    const auto plain = parse_remote_target("gpu1");
    ASSERT_TRUE(plain) << plain.error();
    EXPECT_EQ(plain->user, "");
    EXPECT_EQ(plain->host, "gpu1");
    EXPECT_EQ(plain->path, "tclens");
    EXPECT_FALSE(plain->path_given);

    const auto full = parse_remote_target("ana_b@gpu-1.lab.example.org:/opt/tclens-0.1/bin/tclens");
    ASSERT_TRUE(full) << full.error();
    EXPECT_EQ(full->user, "ana_b");
    EXPECT_EQ(full->host, "gpu-1.lab.example.org");
    EXPECT_EQ(full->path, "/opt/tclens-0.1/bin/tclens");
    EXPECT_TRUE(full->path_given);
    EXPECT_EQ(full->destination(), "ana_b@gpu-1.lab.example.org");

    const auto home = parse_remote_target("node7:~/bin/tclens");
    ASSERT_TRUE(home) << home.error();
    EXPECT_EQ(home->path, "~/bin/tclens");

    const auto named = parse_remote_target("node7:tclens-dev");
    ASSERT_TRUE(named) << named.error();
    EXPECT_EQ(named->path, "tclens-dev");

    const auto v6 = parse_remote_target("me@[fe80::1]:/usr/bin/tclens");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(v6->host, "fe80::1");
    EXPECT_EQ(v6->destination(), "me@fe80::1");
    EXPECT_EQ(v6->path, "/usr/bin/tclens");
}

// Each is refused in one line that shows the value and says what is allowed.
TEST(RemoteTarget, RefusesHostileValuesInOneLine) {
    const std::vector<std::string> hostile = {
        "-oProxyCommand=sh",          // an option to ssh
        "-oProxyCommand=sh -c id",    //
        "user@-x",                    // an option after the user
        "-l@host",                    // a user that is an option
        "host;rm -rf ~",              // a command after the host
        "host:$(id)",                 // a command substitution in the path
        "host:`id`",                  // backticks
        "host:/x y",                  // a space: two words for the remote shell
        "host\nid",                   // a newline
        "host:/opt/tclens\nid",       // a newline in the path
        "host:-x",                    // a path that is an option
        "host:/bin/tclens;id",        // a command after the path
        "host:/bin/tclens' worker'",  // a quote in the path
        "host|id",                    // a pipe
        "host&",                      // a background job
        "ho$st",                      // a variable
        "a@b@c",                      // two users
        "",                           // nothing
        "@host",                      // an empty user
        "host:",                      // an empty path
        "host:bin/tclens",            // a relative path (neither absolute nor ~/)
        "[::1",                       // an unclosed bracket
        "[x;y]",                      // not an IPv6 address in brackets
        "[::1]x",                     // something after the bracket
        "::1",                        // IPv6 without brackets
        "host:~",                     // ~ alone
        "host:~/",                    // ~/ alone
    };
    for (const std::string& text : hostile) {
        const auto target = parse_remote_target(text);
        ASSERT_FALSE(target) << "accepted: " << text;
        const std::string& error = target.error();
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
        EXPECT_NE(error.find("[user@]host[:/path/to/tclens]"), std::string::npos) << error;
        EXPECT_EQ(error.rfind("'", 0), 0u) << error;  // starts with the value in quotes
    }
    EXPECT_NE(parse_remote_target("-oProxyCommand=sh").error().find("'-oProxyCommand=sh'"),
              std::string::npos);
    EXPECT_NE(parse_remote_target("-oProxyCommand=sh").error().find("starts with '-'"),
              std::string::npos);
    EXPECT_NE(parse_remote_target("host;rm -rf ~").error().find("letters, digits"),
              std::string::npos);
}

TEST(RemoteTarget, RefusesOverlongNames) {
    EXPECT_FALSE(parse_remote_target(std::string(256, 'h')));
    EXPECT_TRUE(parse_remote_target(std::string(255, 'h')));
    EXPECT_FALSE(parse_remote_target("h:/" + std::string(4096, 'p')));
}

TEST(RemoteTarget, QuotesThePathForTheRemoteShell) {
    EXPECT_EQ(remote_worker_command(*parse_remote_target("h")), "'tclens' worker");
    EXPECT_EQ(remote_worker_command(*parse_remote_target("h:/opt/t+c/tclens")),
              "'/opt/t+c/tclens' worker");
    // The tilde stays outside the quotes, so the remote shell still expands it.
    EXPECT_EQ(remote_worker_command(*parse_remote_target("h:~/bin/tclens")),
              "~/'bin/tclens' worker");
    // One worker per GPU of the host (bench --workers N --remote h).
    RemoteTarget pinned = *parse_remote_target("h:/opt/tclens");
    pinned.gpu = 1;
    EXPECT_EQ(remote_worker_command(pinned), "'/opt/tclens' worker --gpu 1");
}

TEST(RemoteTarget, SshArgvPutsTheHostAfterDoubleDash) {
    const auto target = parse_remote_target("ana@gpu1:/opt/tclens/bin/tclens");
    ASSERT_TRUE(target);
    const std::vector<std::string> base = {"ssh", "-T",
                                           "-o",  "BatchMode=yes",
                                           "-o",  "LogLevel=ERROR",
                                           "-o",  "ConnectTimeout=20",
                                           "-o",  "ServerAliveInterval=15"};
    std::vector<std::string> expected = base;
    expected.insert(expected.end(), {"--", "ana@gpu1", "'/opt/tclens/bin/tclens' worker"});
    EXPECT_EQ(ssh_worker_argv(*target, ""), expected);

    std::vector<std::string> with_config = base;
    with_config.insert(with_config.end(), {"-F", "/tmp/x config", "--", "ana@gpu1",
                                           "'/opt/tclens/bin/tclens' worker"});
    EXPECT_EQ(ssh_worker_argv(*target, "/tmp/x config"), with_config);
}

}  // namespace
}  // namespace tclens::worker
