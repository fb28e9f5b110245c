// libFuzzer harness for app/gui/shell/key_chord.h: `tclens --press` key chord lists.
//
// Input: the list, e.g. "ctrl+3,ctrl+shift+backslash".
// Invariants:
//   - a refused list gets a one-line error naming a chord of it ("key chord '...'") and no
//     chords;
//   - an accepted list has one chord per comma-separated item, each a known key code, and each
//     chord's text (key_chord_text) parses back to the same chord.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/shell/key_chord.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<gui::KeyChord> chords;
    const std::string error = gui::parse_key_chords(text, chords);
    if (!error.empty()) {
        TCLENS_FUZZ_CHECK(error.rfind("key chord '", 0) == 0, error);
        TCLENS_FUZZ_CHECK(error.find('\n') == std::string::npos || text.find('\n') != text.npos,
                          error);
        TCLENS_FUZZ_CHECK(chords.empty(), error);
        return 0;
    }
    const std::size_t items = std::count(text.begin(), text.end(), ',') + 1;
    TCLENS_FUZZ_CHECK(chords.size() == items, text);
    for (const gui::KeyChord& chord : chords) {
        const std::string chord_text = gui::key_chord_text(chord);
        TCLENS_FUZZ_CHECK(chord_text.find("key") != 0, text);  // a named key, not a raw code
        std::vector<gui::KeyChord> again;
        TCLENS_FUZZ_CHECK(gui::parse_key_chords(chord_text, again) == "", chord_text);
        TCLENS_FUZZ_CHECK(again.size() == 1 && again[0] == chord, chord_text);
    }
    return 0;
}
