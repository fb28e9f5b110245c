#pragma once
// Entry point of the `tclens` binary: parses the command line, runs a subcommand or the GUI.

namespace CLI {
class App;
}  // namespace CLI

namespace tclens::cli {

// Adds one subcommand to `app`; it sets `exit_code` when it runs (commands.h).
using AddCommand = void (*)(CLI::App& app, int& exit_code);

// Returns the process exit code (app/exit_codes.h). Never throws. `add_worker` adds `tclens
// worker`, which differs by build (main.cpp; app/CMakeLists.txt, tclens_worker_command).
int run_cli(int argc, char** argv, AddCommand add_worker);

}  // namespace tclens::cli
