#pragma once
// Entry point of the `tclens` binary: parses the command line, runs a subcommand or the GUI.

namespace tclens::cli {

// Returns the process exit code (app/exit_codes.h). Never throws.
int run_cli(int argc, char** argv);

}  // namespace tclens::cli
