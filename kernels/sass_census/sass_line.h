#pragma once
// One SASS instruction line as cuobjdump -sass and nvdisasm print it, taken apart. Shared by the
// build-time census (sass_listing.h) and the source view's disassembly reader
// (profiling/source/sass_text.h), so both agree on what an instruction line is.
//   "        /*0040*/   @!P0 HMMA.16816.F32 R4, R8, R12, R4 ;   /* 0x000fe40000001804 */"
//   -> pc 0x40, predicate "@!P0", opcode "HMMA.16816.F32", operands "R4, R8, R12, R4"
// The offset is hex digits right after "/*", which tells an instruction from an encoding word
// ("/* 0x..."). One "{" in front (a dual-issue pair of old architectures) is skipped; the
// opcode starts with a letter.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tclens::kernels {

struct SassInstructionLine {
    std::uint64_t pc = 0;        // byte offset from the start of the function
    std::string_view predicate;  // "@!P0", or empty
    std::string_view opcode;     // with its modifiers: "LDSM.16.MT88.4"
    std::string_view operands;   // up to the ';', trimmed; may be empty ("EXIT")
};

// The instruction on `line`, or nullopt when the line holds none (labels, headers, encodings,
// comments). The views point into `line`.
std::optional<SassInstructionLine> parse_sass_instruction(std::string_view line);

// "@!P0 HMMA.16816.F32 R4, R8, R12, R4": the instruction as one would read it, one space apart.
std::string sass_instruction_text(const SassInstructionLine& instruction);

}  // namespace tclens::kernels
