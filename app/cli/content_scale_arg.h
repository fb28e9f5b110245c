#pragma once
// `--content-scale S`: the monitor content scale the GUI and `tclens screenshot` draw for
// (app/gui/shell/gui_runtime.h, app/gui/views/lecture_mode.h), e.g. 2 for a 4K monitor at 200 %.

#include <string>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tclens::cli {

inline constexpr float kMinContentScale = 0.5f;
inline constexpr float kMaxContentScale = 4.0f;

// Adds the option to `command`, into `scale`, checked to [kMinContentScale, kMaxContentScale]
// (outside it, or not a number: CLI11's one line naming the value and the range, exit 2). `help`
// says what it does; the range is added to it.
CLI::Option* add_content_scale_option(CLI::App& command, float& scale, const std::string& help);

}  // namespace tclens::cli
