// libFuzzer harness for the SASS text reader (profiling/source/sass_text.h), which reads what
// nvdisasm and cuobjdump print: outside input.
//
// Input: the listing's text.
// Invariants:
//   - every function has a name, met once; every instruction an opcode, and a text that starts
//     with its predicate or its opcode;
//   - every frame is a known location (a file and a line from 1);
//   - the functions written back as nvdisasm prints them (".text.NAME:", a "//## File" block per
//     instruction, innermost first, each naming the next as its call site) read back the same.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "profiling/source/sass_text.h"
#include "tests/fuzz/fuzz_support.h"

namespace tclens::fuzz {
namespace {

using profiling::SassFunction;
using profiling::SassInstruction;
using profiling::SourceLocation;

std::string frame_text(const SourceLocation& frame) {
    return "\"" + frame.file + "\", line " + std::to_string(frame.line);
}

std::string listing_of(const std::vector<SassFunction>& functions) {
    std::string text;
    for (const SassFunction& function : functions) {
        text += ".text." + function.name + ":\n";
        for (const SassInstruction& instruction : function.instructions) {
            for (std::size_t i = 0; i < instruction.frames.size(); ++i) {
                text += "\t//## File " + frame_text(instruction.frames[i]);
                if (i + 1 < instruction.frames.size()) {
                    text += " inlined at " + frame_text(instruction.frames[i + 1]);
                }
                text += "\n";
            }
            char pc[32];
            std::snprintf(pc, sizeof pc, "/*%04llx*/ ",
                          static_cast<unsigned long long>(instruction.pc));
            text += "        " + std::string(pc) + instruction.text + " ;\n";
        }
    }
    return text;
}

bool same(const std::vector<SassFunction>& a, const std::vector<SassFunction>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t f = 0; f < a.size(); ++f) {
        if (a[f].name != b[f].name || a[f].instructions.size() != b[f].instructions.size()) {
            return false;
        }
        for (std::size_t i = 0; i < a[f].instructions.size(); ++i) {
            const SassInstruction& x = a[f].instructions[i];
            const SassInstruction& y = b[f].instructions[i];
            if (x.pc != y.pc || x.text != y.text || x.opcode != y.opcode ||
                !(x.frames == y.frames)) {
                return false;
            }
        }
    }
    return true;
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::vector<profiling::SassFunction> functions = profiling::parse_sass_text(text);
    std::set<std::string> names;
    for (const profiling::SassFunction& function : functions) {
        TCLENS_FUZZ_CHECK(!function.name.empty(), "a function without a name");
        TCLENS_FUZZ_CHECK(names.insert(function.name).second, "listed twice: " + function.name);
        for (const profiling::SassInstruction& instruction : function.instructions) {
            TCLENS_FUZZ_CHECK(!instruction.opcode.empty(), instruction.text);
            TCLENS_FUZZ_CHECK(instruction.text.rfind(instruction.opcode, 0) == 0 ||
                                  instruction.text.front() == '@',
                              instruction.text);
            for (const profiling::SourceLocation& frame : instruction.frames) {
                TCLENS_FUZZ_CHECK(frame.known(), frame.file + ":" + std::to_string(frame.line));
            }
        }
    }
    const std::string written = fuzz::listing_of(functions);
    const std::vector<profiling::SassFunction> again = profiling::parse_sass_text(written);
    TCLENS_FUZZ_CHECK(fuzz::same(functions, again),
                      "the listing reads back differently when written out:\n" + written);
    return 0;
}
