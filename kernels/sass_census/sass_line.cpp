#include "kernels/sass_census/sass_line.h"

#include <cctype>

namespace tclens::kernels {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

// The leading word of `text`, which ends at white space or ';'.
std::string_view first_word(std::string_view text) {
    std::size_t end = 0;
    while (end < text.size() && !is_space(text[end]) && text[end] != ';') ++end;
    return text.substr(0, end);
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<SassInstructionLine> parse_sass_instruction(std::string_view line) {
    line = trim(line);
    if (line.substr(0, 2) != "/*") return std::nullopt;
    std::size_t end = 2;
    std::uint64_t pc = 0;
    while (end < line.size() && hex_value(line[end]) >= 0) {
        if (end - 2 >= 16) return std::nullopt;  // more digits than a 64-bit offset holds
        pc = pc * 16 + static_cast<std::uint64_t>(hex_value(line[end]));
        ++end;
    }
    if (end == 2 || line.substr(end, 2) != "*/") return std::nullopt;
    std::string_view rest = trim(line.substr(end + 2));
    if (!rest.empty() && rest.front() == '{') rest = trim(rest.substr(1));
    SassInstructionLine instruction;
    instruction.pc = pc;
    if (!rest.empty() && rest.front() == '@') {
        instruction.predicate = first_word(rest);
        rest = trim(rest.substr(instruction.predicate.size()));
    }
    instruction.opcode = first_word(rest);
    // An opcode starts with a letter: "{{ NOP ;" is no instruction (only one brace is skipped).
    if (instruction.opcode.empty() ||
        std::isalpha(static_cast<unsigned char>(instruction.opcode.front())) == 0) {
        return std::nullopt;
    }
    rest = rest.substr(instruction.opcode.size());
    const std::size_t semicolon = rest.find(';');
    if (semicolon == std::string_view::npos) return std::nullopt;  // not an instruction line
    instruction.operands = trim(rest.substr(0, semicolon));
    return instruction;
}

std::string sass_instruction_text(const SassInstructionLine& instruction) {
    std::string text;
    if (!instruction.predicate.empty()) {
        text.append(instruction.predicate);
        text += ' ';
    }
    text.append(instruction.opcode);
    if (!instruction.operands.empty()) {
        text += ' ';
        text.append(instruction.operands);
    }
    return text;
}

}  // namespace tclens::kernels
