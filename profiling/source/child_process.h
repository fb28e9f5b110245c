#pragma once
// Running a program of the CUDA toolkit (cuobjdump, nvdisasm) and reading what it prints. No
// shell: the arguments go to the program as they are, so paths need no quoting.

#include <cstddef>
#include <string>
#include <vector>

namespace tclens::profiling {

struct ProgramOutput {
    int exit_status = -1;  // the program's exit status; -1 when it did not run or was killed
    std::string out;       // what it wrote to stdout (at most the limit given)
    std::string err;       // what it wrote to stderr (at most 64 KiB)
    std::string error;     // why it did not run or was cut off, one line; "" when it ran to its end
    bool ok() const { return error.empty() && exit_status == 0; }
};

// Runs argv[0] (a path) with `argv` in `working_dir` ("" = this process's), waits for it and
// returns its output. stdout beyond `max_out_bytes` is an error (the program is killed).
ProgramOutput run_program(const std::vector<std::string>& argv, const std::string& working_dir = "",
                          std::size_t max_out_bytes = 512ull << 20);

}  // namespace tclens::profiling
