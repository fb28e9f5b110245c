#include "kernels/sass_census/sass_listing.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>

#include "kernels/sass_census/sass_line.h"

namespace tclens::kernels {
namespace {

std::string_view trim_left(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    return text;
}

std::string_view first_word(std::string_view text) {
    size_t end = 0;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           text[end] != ';') {
        ++end;
    }
    return text.substr(0, end);
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string demangle_symbol(const std::string& symbol) {
    int status = 0;
    char* text = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    if (status != 0 || text == nullptr) return symbol;
    std::string demangled(text);
    std::free(text);
    return demangled;
}

void SassListingReader::add_line(std::string_view line) {
    if (const auto instruction = parse_sass_instruction(line)) {
        if (current_ == kNone) return;
        count_instruction(functions_[current_].counts, instruction->opcode);
        return;
    }
    const std::string_view text = trim_left(line);
    for (std::string_view marker : {"code for ", "arch = "}) {
        if (starts_with(text, marker)) {
            arch_ = std::string(first_word(text.substr(marker.size())));
            current_ = kNone;
            return;
        }
    }
    if (starts_with(text, "Function :")) {
        const std::string symbol(first_word(trim_left(text.substr(10))));
        const auto [it, added] = seen_.emplace(arch_ + " " + symbol, functions_.size());
        if (!added) {
            current_ = kNone;
            return;
        }
        current_ = functions_.size();
        functions_.push_back(FunctionMix{arch_, demangle_symbol(symbol), {}});
    }
}

std::vector<FunctionMix> parse_sass_listing(std::string_view text) {
    SassListingReader reader;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        reader.add_line(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return reader.functions();
}

}  // namespace tclens::kernels
