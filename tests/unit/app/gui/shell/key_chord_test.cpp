// Key chords as `tclens --press` reads them (app/gui/shell/key_chord.h): modifiers and a key name
// to GLFW's codes, lists in order, every name read back, and bad chords as one line naming the
// chord and what is allowed.
#include "app/gui/shell/key_chord.h"

#include <gtest/gtest.h>

#include "app/gui/views/keys.h"

namespace tclens::gui {
namespace {

TEST(KeyChord, ModifiersAndKeysMapToGlfwCodes) {
    std::vector<KeyChord> chords;
    ASSERT_EQ(parse_key_chords("ctrl+3,ctrl+shift+backslash,right,alt+f11,q", chords), "");
    ASSERT_EQ(chords.size(), 5u);
    EXPECT_EQ(chords[0], (KeyChord{true, false, false, keys::k1 + 2}));
    EXPECT_EQ(chords[1], (KeyChord{true, true, false, keys::kBackslash}));
    EXPECT_EQ(chords[2], (KeyChord{false, false, false, keys::kRight}));
    EXPECT_EQ(chords[3], (KeyChord{false, false, true, keys::kF11}));
    EXPECT_EQ(chords[4], (KeyChord{false, false, false, keys::kQ}));
}

TEST(KeyChord, EveryNameReadsBack) {
    for (const std::string& name : key_names()) {
        for (const std::string modifiers : {"", "ctrl+", "ctrl+shift+alt+"}) {
            std::vector<KeyChord> chords;
            ASSERT_EQ(parse_key_chords(modifiers + name, chords), "") << modifiers + name;
            ASSERT_EQ(chords.size(), 1u);
            EXPECT_EQ(key_chord_text(chords[0]), modifiers + name);
        }
    }
    EXPECT_EQ(key_names().size(), 26u + 10u + 12u + 19u);
}

TEST(KeyChord, BadChordsAreOneLineNamingTheChord) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"ctrl+", "key chord 'ctrl+': unknown key ''"},
        {"", "key chord '': unknown key ''"},
        {"ctrl+3,,q", "key chord '': unknown key ''"},
        {"Ctrl+3", "key chord 'Ctrl+3': 'Ctrl' is not a modifier here"},
        {"ctrl+ctrl+3", "key chord 'ctrl+ctrl+3': 'ctrl' is not a modifier here"},
        {"super+3", "key chord 'super+3': 'super' is not a modifier"},
        {"ctrl+f13", "key chord 'ctrl+f13': unknown key 'f13' (keys: a..z, 0..9, f1..f12"},
    };
    for (const auto& [text, message] : cases) {
        SCOPED_TRACE(text);
        std::vector<KeyChord> chords{KeyChord{}};
        const std::string error = parse_key_chords(text, chords);
        EXPECT_EQ(error.rfind(message, 0), 0u) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos);
        EXPECT_TRUE(chords.empty());
    }
}

}  // namespace
}  // namespace tclens::gui
