#include "app/cli/content_scale_arg.h"

#include <CLI/CLI.hpp>

namespace tclens::cli {

CLI::Option* add_content_scale_option(CLI::App& command, float& scale, const std::string& help) {
    return command
        .add_option("--content-scale", scale, help + " (0.5..4; 2: a 4K monitor at 200 %)")
        ->check(CLI::Range(kMinContentScale, kMaxContentScale));
}

}  // namespace tclens::cli
