#pragma once
// Pointer positions written as text, "640:2,640:650" (window pixels x:y, comma-separated):
// `tclens --mouse` moves the mouse pointer to each in turn (GuiRuntime::move_pointer), so tests
// drive hovering through the same input path as a mouse. Pure parsing, no ImGui or GLFW.

#include <string>
#include <string_view>
#include <vector>

namespace tclens::gui {

struct PointerPosition {
    int x = 0;
    int y = 0;
};

// "640:2,640:650" -> {{640, 2}, {640, 650}}: whole numbers from 0 to 100000. Returns "" with
// `positions` filled, or one line naming the bad item and what is allowed.
std::string parse_pointer_positions(std::string_view text, std::vector<PointerPosition>& positions);

}  // namespace tclens::gui
