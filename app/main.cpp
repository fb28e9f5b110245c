#include "app/cli/cli.h"

int main(int argc, char** argv) { return tclens::cli::run_cli(argc, argv); }
