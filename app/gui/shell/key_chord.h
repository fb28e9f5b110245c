#pragma once
// Key chords written as text, e.g. "ctrl+3" or "ctrl+shift+backslash": `tclens --press` plays a
// list of them into the window as GLFW key events (GuiRuntime::press_key), so scripts and tests
// drive the app through the same input path as a keyboard. Pure parsing, no ImGui or GLFW.

#include <string>
#include <string_view>
#include <vector>

namespace tclens::gui {

struct KeyChord {
    bool ctrl = false, shift = false, alt = false;
    int key = 0;  // a GLFW key code (keys.h)
    bool operator==(const KeyChord& other) const {
        return ctrl == other.ctrl && shift == other.shift && alt == other.alt && key == other.key;
    }
};

// The key names: a..z, 0..9, f1..f12, space, enter, tab, escape, backspace, left, right, up,
// down, pageup, pagedown, home, end, minus, equal, backslash, comma, period, slash.
const std::vector<std::string>& key_names();

// "ctrl+shift+backslash" -> {ctrl, shift, key 92}: modifiers (ctrl, shift, alt) then one key
// name, joined by '+', lower case. A list is comma-separated: "ctrl+2,ctrl+backslash". Returns
// "" with `chords` filled, or one line naming the bad chord and what is allowed.
std::string parse_key_chords(std::string_view text, std::vector<KeyChord>& chords);

// The chord as parse_key_chords() reads it: {ctrl, key 50} -> "ctrl+2".
std::string key_chord_text(const KeyChord& chord);

}  // namespace tclens::gui
