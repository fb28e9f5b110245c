#include "common/one_line.h"

namespace tclens::common {

std::string one_line(std::string_view text) {
    std::string line(text);
    for (char& c : line) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    return line;
}

}  // namespace tclens::common
