#pragma once
// Checks the end-to-end tests of `tclens` subcommands share (tests/unit/app/cli/): usage errors
// that must be one line naming the bad value, and runs under an injected fault
// (kernels/fault_injection.h). Header-only; uses GoogleTest's EXPECT macros.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/run_command.h"

namespace tclens::test {

// True if `part` occurs in `text`.
inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

struct UsageCase {
    std::string args;                // after `tclens`
    std::vector<std::string> names;  // what the line must hold: the bad value, the valid ones
};

// Each case: exit 2, one line on stderr holding every name, nothing on stdout.
inline void expect_usage_errors(const std::string& tclens, const std::vector<UsageCase>& cases) {
    for (const UsageCase& c : cases) {
        const CommandResult result = run_command(tclens + " " + c.args);
        EXPECT_EQ(result.exit_code, 2) << c.args << "\n" << result.err;
        EXPECT_TRUE(is_one_line(result.err)) << c.args << "\n" << result.err;
        for (const std::string& name : c.names) {
            EXPECT_NE(result.err.find(name), std::string::npos)
                << c.args << ": '" << name << "' in " << result.err;
        }
        EXPECT_EQ(result.out, "") << c.args;
    }
}

// `tclens ARGS` with TCLENS_INJECT_FAULT=fault.
inline CommandResult run_with_fault(const std::string& tclens, const std::string& fault,
                                    const std::string& args) {
    return run_command("env TCLENS_INJECT_FAULT=" + fault + " " + tclens + " " + args);
}

// `tclens ARGS` with TCLENS_INJECT_FAULT=no-gpu: exit 3 and one line saying the fault hides every
// GPU (what a machine without one gets, with the reason).
inline void expect_no_gpu_refusal(const std::string& tclens, const std::string& args) {
    const CommandResult result = run_with_fault(tclens, "no-gpu", args);
    EXPECT_EQ(result.exit_code, 3) << args << "\n" << result.err;
    EXPECT_TRUE(is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_TRUE(contains(result.err, "TCLENS_INJECT_FAULT=no-gpu hides every GPU")) << args << "\n"
                                                                                    << result.err;
}

}  // namespace tclens::test
