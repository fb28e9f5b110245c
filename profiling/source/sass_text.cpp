#include "profiling/source/sass_text.h"

#include <cctype>
#include <tuple>

#include "common/text.h"
#include "kernels/sass_census/sass_line.h"

namespace tclens::profiling {
namespace {

constexpr std::string_view kPtxDebugFile = ".nv_debug_ptx_txt";

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return text;
}

// `"path", line N` at the front of `text` -> frame; `text` is left after it. False when it is not
// there or N is not a positive number that fits an int.
bool take_file_and_line(std::string_view& text, SourceLocation& frame) {
    if (!common::starts_with(text, "\"")) return false;
    const std::size_t close = text.find('"', 1);
    if (close == std::string_view::npos) return false;
    std::string_view rest = trim(text.substr(close + 1));
    if (!common::starts_with(rest, ",")) return false;
    rest = trim(rest.substr(1));
    if (!common::starts_with(rest, "line")) return false;
    rest = trim(rest.substr(4));
    long long number = 0;
    std::size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) {
        number = number * 10 + (rest[digits] - '0');
        if (number > 0x7fffffff) return false;
        ++digits;
    }
    if (digits == 0 || number == 0) return false;
    frame.file = std::string(text.substr(1, close - 1));
    frame.line = static_cast<int>(number);
    text = trim(rest.substr(digits));
    return !frame.file.empty();
}

// ".text.NAME:" -> NAME; "Function : NAME" -> NAME; otherwise "".
std::string_view function_start(std::string_view line) {
    line = trim(line);
    if (common::starts_with(line, ".text.") && line.size() > 7 && line.back() == ':') {
        return line.substr(6, line.size() - 7);
    }
    if (common::starts_with(line, "Function :")) {
        std::string_view name = trim(line.substr(10));
        std::size_t end = 0;
        while (end < name.size() && !std::isspace(static_cast<unsigned char>(name[end]))) ++end;
        return name.substr(0, end);
    }
    return {};
}

}  // namespace

bool operator==(const SourceLocation& a, const SourceLocation& b) {
    return a.line == b.line && a.file == b.file;
}

bool operator<(const SourceLocation& a, const SourceLocation& b) {
    return std::tie(a.file, a.line) < std::tie(b.file, b.line);
}

bool SassFunction::has_line_info() const {
    for (const SassInstruction& instruction : instructions) {
        if (!instruction.frames.empty()) return true;
    }
    return false;
}

bool parse_line_info(std::string_view line, SourceLocation& frame, SourceLocation* call_site) {
    line = trim(line);
    if (!common::starts_with(line, "//##")) return false;
    line = trim(line.substr(4));
    if (!common::starts_with(line, "File")) return false;
    line = trim(line.substr(4));
    SourceLocation found;
    if (!take_file_and_line(line, found)) return false;
    SourceLocation caller;
    if (common::starts_with(line, "inlined at")) {
        line = trim(line.substr(10));
        if (!take_file_and_line(line, caller)) caller = SourceLocation{};
    }
    frame = found;
    if (call_site != nullptr) *call_site = caller;
    return true;
}

void SassTextReader::add_line(std::string_view line) {
    SourceLocation frame;
    SourceLocation call_site;
    if (parse_line_info(line, frame, &call_site)) {
        if (frame.file == kPtxDebugFile) return;
        if (!block_open_) {
            frames_.clear();
            call_pending_ = SourceLocation{};
        }
        block_open_ = true;
        // The line's own frame; its call site is the next frame, which the next line of the block
        // names itself (-gi) or nobody does (-g), so it is added until a line replaces it.
        if (!frames_.empty() && !call_pending_.file.empty() && frames_.back() == call_pending_) {
            frames_.pop_back();
        }
        frames_.push_back(frame);
        call_pending_ = call_site;
        if (call_site.known()) frames_.push_back(call_site);
        return;
    }
    if (const auto instruction = kernels::parse_sass_instruction(line)) {
        block_open_ = false;
        if (skipping_ || functions_.empty()) return;
        SassInstruction parsed;
        parsed.pc = instruction->pc;
        parsed.text = kernels::sass_instruction_text(*instruction);
        parsed.opcode = std::string(instruction->opcode);
        parsed.frames = frames_;
        functions_.back().instructions.push_back(std::move(parsed));
        return;
    }
    const std::string_view name = function_start(line);
    if (name.empty()) return;
    block_open_ = false;
    frames_.clear();
    call_pending_ = SourceLocation{};
    skipping_ = find_function(functions_, std::string(name)) != nullptr;
    if (!skipping_) functions_.push_back(SassFunction{std::string(name), {}});
}

std::vector<SassFunction> parse_sass_text(std::string_view text) {
    SassTextReader reader;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        reader.add_line(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return reader.functions();
}

const SassFunction* find_function(const std::vector<SassFunction>& functions,
                                  const std::string& name) {
    for (const SassFunction& function : functions) {
        if (function.name == name) return &function;
    }
    return nullptr;
}

}  // namespace tclens::profiling
