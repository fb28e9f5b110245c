// The census tool, run by the build after tclens_kernels is linked (kernels/CMakeLists.txt):
//   sass_census --cuobjdump PATH --binary LIB --out FILE.cpp   reads `PATH -sass LIB`
//   sass_census --missing REASON --out FILE.cpp                 an empty census saying why
// and writes the source of built_in_census() (census_table.h) to FILE.cpp, atomically. A
// cuobjdump listing with no function fails the build: a toolkit that has cuobjdump should read
// its own binaries, and a silent empty census would hide that it did not.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/atomic_file.h"
#include "kernels/sass_census/census_source.h"
#include "kernels/sass_census/sass_listing.h"

namespace {

constexpr const char* kUsage =
    "usage: sass_census (--cuobjdump PATH --binary LIB | --missing REASON) --out FILE.cpp";

std::string shell_quoted(const std::string& text) {
    std::string out = "'";
    for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs `cuobjdump -sass binary` and reads its standard output line by line; its standard error
// goes to the build log. Returns "" or why it failed.
std::string read_listing(const std::string& cuobjdump, const std::string& binary,
                         tclens::kernels::SassListingReader& reader) {
    const std::string command = shell_quoted(cuobjdump) + " -sass " + shell_quoted(binary);
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return "cannot start " + command;
    char* line = nullptr;
    size_t capacity = 0;
    ssize_t length = 0;
    while ((length = getline(&line, &capacity, pipe)) >= 0) {
        reader.add_line(std::string_view(line, static_cast<size_t>(length)));
    }
    std::free(line);
    const int status = pclose(pipe);
    if (reader.functions().empty()) {
        return command + " listed no __global__ function (exit status " + std::to_string(status) +
               ")";
    }
    if (status != 0) {
        std::fprintf(stderr, "sass_census: warning: %s exited with status %d; %zu functions read\n",
                     command.c_str(), status, reader.functions().size());
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    std::string cuobjdump, binary, missing, out;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        std::string* value = flag == "--cuobjdump" ? &cuobjdump
                             : flag == "--binary"  ? &binary
                             : flag == "--missing" ? &missing
                             : flag == "--out"     ? &out
                                                   : nullptr;
        if (value == nullptr) {
            std::fprintf(stderr, "sass_census: unknown option '%s'; %s\n", argv[i], kUsage);
            return 2;
        }
        *value = argv[i + 1];
    }
    const bool read = !cuobjdump.empty() && !binary.empty();
    if (argc % 2 == 0 || out.empty() || read == !missing.empty()) {
        std::fprintf(stderr, "sass_census: %s\n", kUsage);
        return 2;
    }
    tclens::kernels::SassListingReader reader;
    std::string origin;
    if (read) {
        const std::string error = read_listing(cuobjdump, binary, reader);
        if (!error.empty()) {
            std::fprintf(stderr, "sass_census: %s\n", error.c_str());
            return 1;
        }
        origin = cuobjdump + " -sass " + binary;
    }
    const std::string source = tclens::kernels::census_source(reader.functions(), origin, missing);
    const std::string error = tclens::common::write_bytes_atomically(out, source);
    if (!error.empty()) {
        std::fprintf(stderr, "sass_census: %s\n", error.c_str());
        return 1;
    }
    return 0;
}
