#include "app/cli/cli.h"
#include "app/cli/commands.h"

// `tclens worker` is this build's (app/CMakeLists.txt: tclens_worker_command).
int main(int argc, char** argv) {
    return tclens::cli::run_cli(argc, argv, tclens::cli::add_worker_command);
}
