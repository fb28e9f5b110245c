#pragma once
// The SASS text of a cubin, instruction by instruction, with the CUDA source line each came from:
// what `nvdisasm -c -gi FILE.cubin` prints (and, without line info, `cuobjdump -sass FILE.cubin`).
// Pure C++; the tools themselves are run by disassembler.h.
//
// The lines it reads, everything else skipped (directives, labels, headers, encodings):
//   .text._Z14naive_fma_gemmPKfS0_Pfiii:        nvdisasm: a function starts (mangled name)
//   Function : _Z14naive_fma_gemmPKfS0_Pfiii     cuobjdump: a function starts
//   //## File "/src/k.cu", line 42               line info for the instructions that follow
//   //## File "/src/ptx.cuh", line 40 inlined at "/src/k.cu", line 42
//   /*0040*/  @!P0 LDSM.16.M88.4 R4, [R2] ;      one instruction (kernels/sass_census/sass_line.h)
// nvdisasm prints a block of "//## File" lines only where the location changes, innermost frame
// first (-gi: one line per inlining level, each naming its call site; -g: the innermost only); the
// block holds for every instruction after it until the next block. Lines of the PTX debug file
// (".nv_debug_ptx_txt") are not CUDA source and are skipped.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::profiling {

// A CUDA source position; line 0 means none.
struct SourceLocation {
    std::string file;
    int line = 0;

    bool known() const { return line > 0 && !file.empty(); }
};
bool operator==(const SourceLocation& a, const SourceLocation& b);
bool operator<(const SourceLocation& a, const SourceLocation& b);

struct SassInstruction {
    std::uint64_t pc = 0;  // byte offset from the start of its function (CUPTI's pcOffset)
    std::string text;      // "@!P0 LDSM.16.M88.4 R4, [R2]"
    std::string opcode;    // "LDSM.16.M88.4"
    // Where it came from, innermost first: [0] is the line it was compiled from (a helper in
    // ptx.cuh for an inlined wrapper), the last is the line in the kernel's own function that
    // called it. Empty without line info.
    std::vector<SourceLocation> frames;
};

struct SassFunction {
    std::string name;                           // mangled, as CUPTI reports functionName
    std::vector<SassInstruction> instructions;  // in pc order, as listed
    bool has_line_info() const;
};

// Fed one line at a time. A function listed twice (cuobjdump of several cubins) keeps its first
// listing.
class SassTextReader {
  public:
    void add_line(std::string_view line);
    const std::vector<SassFunction>& functions() const { return functions_; }

  private:
    std::vector<SassFunction> functions_;
    bool skipping_ = false;               // inside a function listed before
    bool block_open_ = false;             // the last line read was a "//## File" line
    std::vector<SourceLocation> frames_;  // the location block in force
    SourceLocation call_pending_;         // the call site the block's last line named
};

std::vector<SassFunction> parse_sass_text(std::string_view text);

// One "//## File" line -> its frame, e.g. `//## File "/a.cu", line 7 inlined at "/b.cu", line 9`
// -> {"/a.cu", 7}; `call_site`, when given, gets {"/b.cu", 9} (line 0 without "inlined at").
// False for any other line.
bool parse_line_info(std::string_view line, SourceLocation& frame,
                     SourceLocation* call_site = nullptr);

// The function named `name` (mangled), or nullptr.
const SassFunction* find_function(const std::vector<SassFunction>& functions,
                                  const std::string& name);

}  // namespace tclens::profiling
