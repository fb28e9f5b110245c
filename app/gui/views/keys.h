#pragma once
// Key codes the shell and panels ask ImGui about (ImGui::IsKeyPressed takes the backend's own
// codes in ImGui 1.86). They are GLFW's values, written here so that code which only draws
// (the headless runtime included) needs no GLFW header.

namespace tclens::gui::keys {

inline constexpr int kQ = 81;    // GLFW_KEY_Q
inline constexpr int kF = 70;    // GLFW_KEY_F: Ctrl+F fits the views' drawings (view_zoom.h)
inline constexpr int kF1 = 290;  // GLFW_KEY_F1
// Lecture mode and tours (lecture_mode.h, tour_overlay.h).
inline constexpr int kF11 = 300;             // GLFW_KEY_F11
inline constexpr int k0 = 48;                // GLFW_KEY_0
inline constexpr int kMinus = 45;            // GLFW_KEY_MINUS
inline constexpr int kEqual = 61;            // GLFW_KEY_EQUAL
inline constexpr int kKeypad0 = 320;         // GLFW_KEY_KP_0
inline constexpr int kKeypadSubtract = 333;  // GLFW_KEY_KP_SUBTRACT
inline constexpr int kKeypadAdd = 334;       // GLFW_KEY_KP_ADD
inline constexpr int kSpace = 32;            // GLFW_KEY_SPACE
inline constexpr int kEscape = 256;          // GLFW_KEY_ESCAPE
inline constexpr int kRight = 262;           // GLFW_KEY_RIGHT
inline constexpr int kLeft = 263;            // GLFW_KEY_LEFT
inline constexpr int kPageUp = 266;          // GLFW_KEY_PAGE_UP
inline constexpr int kPageDown = 267;        // GLFW_KEY_PAGE_DOWN
inline constexpr int kHome = 268;            // GLFW_KEY_HOME
// The workspace (workspace_draw.h): Ctrl+1..9 pick a view, Ctrl+\ splits.
inline constexpr int k1 = 49;          // GLFW_KEY_1; GLFW_KEY_2..9 follow
inline constexpr int kBackslash = 92;  // GLFW_KEY_BACKSLASH
// The other keys `tclens --press` names (key_chord.h), and the modifiers it holds down.
inline constexpr int kComma = 44;         // GLFW_KEY_COMMA
inline constexpr int kPeriod = 46;        // GLFW_KEY_PERIOD
inline constexpr int kSlash = 47;         // GLFW_KEY_SLASH
inline constexpr int kEnter = 257;        // GLFW_KEY_ENTER
inline constexpr int kTab = 258;          // GLFW_KEY_TAB
inline constexpr int kBackspace = 259;    // GLFW_KEY_BACKSPACE
inline constexpr int kDown = 264;         // GLFW_KEY_DOWN
inline constexpr int kUp = 265;           // GLFW_KEY_UP
inline constexpr int kEnd = 269;          // GLFW_KEY_END
inline constexpr int kLeftShift = 340;    // GLFW_KEY_LEFT_SHIFT
inline constexpr int kLeftControl = 341;  // GLFW_KEY_LEFT_CONTROL
inline constexpr int kLeftAlt = 342;      // GLFW_KEY_LEFT_ALT

}  // namespace tclens::gui::keys
