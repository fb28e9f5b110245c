#include "common/one_line.h"

namespace tclens::common {

std::string one_line(std::string_view text) {
    std::string line(text);
    for (char& c : line) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    return line;
}

std::string one_line_excerpt(std::string_view text, std::size_t max_bytes) {
    return one_line(text.substr(0, max_bytes)) + (text.size() > max_bytes ? "..." : "");
}

}  // namespace tclens::common
