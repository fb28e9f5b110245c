#pragma once
// Process exit codes of `tclens` (README.md, "Command line").

namespace tclens {

enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,        // the work itself failed (e.g. a file could not be written)
    kExitUsage = 2,          // bad usage: unknown name, bad value; the message says what is allowed
    kExitNeedsResource = 3,  // needs a GPU, profiling permission or a display; the message says how
};

}  // namespace tclens
