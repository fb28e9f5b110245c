#include "app/gui/shell/config_folder.h"

#include <cstdlib>
#include <filesystem>

namespace tclens::gui {

std::string config_file_path(const std::string& name) {
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".config";
    } else {
        return "";
    }
    std::error_code failed;
    std::filesystem::create_directories(base / "tclens", failed);
    return failed ? "" : (base / "tclens" / name).string();
}

}  // namespace tclens::gui
