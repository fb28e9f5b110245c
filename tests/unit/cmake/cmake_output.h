#pragma once
// CMake wraps a message() at about 75 columns and indents it; the tests of cmake/*.cmake look for
// a message in the text with every run of blanks and line breaks made one space.

#include <string>

namespace tclens::test {

inline std::string unwrapped(const std::string& output) {
    std::string text;
    for (const char c : output) {
        const bool blank = c == ' ' || c == '\n' || c == '\t';
        if (!blank) {
            text += c;
        } else if (!text.empty() && text.back() != ' ') {
            text += ' ';
        }
    }
    return text;
}

}  // namespace tclens::test
