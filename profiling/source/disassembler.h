#pragma once
// The SASS text of a kernel, from its own cubin, with file:line per instruction where the cubin
// has line info: the toolkit's cuobjdump takes the cubins out of a binary (`cuobjdump -xelf all`),
// nvdisasm disassembles one with line info (`nvdisasm -c -gi`), and without nvdisasm cuobjdump
// prints the SASS alone (`cuobjdump -sass`). Neither tool is needed at build time or shipped; a
// machine without them (CI, a laptop) says which is missing and what still works.
//
// The tools are looked for in $TCLENS_CUDA_BIN (if set), PATH, the toolkit this build used and
// /usr/local/cuda/bin.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "profiling/source/sass_text.h"

namespace tclens::profiling {

struct DisassemblyTools {
    std::string cuobjdump;  // full path; "" when not found
    std::string nvdisasm;
    std::string searched;  // where they were looked for, for the message
};

// The first `dirs` entry holding an executable `name` (`is_executable` decides), or "".
std::string find_program(const std::string& name, const std::vector<std::string>& dirs,
                         const std::function<bool(const std::string&)>& is_executable);

// "a:b:c" -> {"a", "b", "c"}, empty entries dropped.
std::vector<std::string> split_search_path(std::string_view path);

// Looks for both tools where the header says.
DisassemblyTools find_disassembly_tools();

// One line naming the missing tool(s) and what still works; "" when both were found.
// Both missing: "no cuobjdump or nvdisasm (looked in ...): no SASS text or source lines; stall
// samples and per-instruction counts are shown by PC offset".
std::string missing_tools_message(const DisassemblyTools& tools);

// "tclens.3.sm_90a.cubin" -> "sm_90a"; "" for a name that is no cubin of cuobjdump -xelf.
std::string cubin_arch(const std::string& file_name);

// Whether a cubin's bytes name the function `mangled` (in its string table: the name between two
// NULs, or after ".text.").
bool cubin_names_function(std::string_view cubin, const std::string& mangled);

struct Disassembly {
    std::vector<SassFunction> functions;  // empty when `error` is set
    std::string how;         // "nvdisasm -c -gi tclens.3.sm_90a.cubin (from /path/tclens)"
    std::string error;       // why there is no SASS text, one line; "" when there is
    bool line_info = false;  // some instruction has a source line
};

// The functions of the cubin in `binary` that a GPU of compute capability `sm` (major * 10 + minor)
// runs and that holds the function `mangled`. Takes the cubins out once per (binary, sm) per
// process and disassembles each cubin once; thread-safe.
Disassembly disassemble_function(const std::string& binary, int sm, const std::string& mangled,
                                 const DisassemblyTools& tools);

// Takes the cubins out of `binary` now (the first step of disassemble_function, done once per
// binary per process), so that a caller can overlap it with GPU work. Thread-safe; without
// cuobjdump it does nothing.
void extract_cubins_once(const std::string& binary, const DisassemblyTools& tools);

// The functions of one cubin file (a user kernel's).
Disassembly disassemble_cubin(const std::string& cubin_path, const DisassemblyTools& tools);

// This process's executable: where tclens's own kernels are.
std::string own_binary();

}  // namespace tclens::profiling
