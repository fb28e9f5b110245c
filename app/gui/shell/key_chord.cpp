#include "app/gui/shell/key_chord.h"

#include "app/gui/views/keys.h"

namespace tclens::gui {
namespace {

struct NamedKey {
    std::string name;
    int key;
};

// GLFW's codes: letters and digits are their ASCII upper-case codes; F1..F12 are consecutive.
const std::vector<NamedKey>& named_keys() {
    static const std::vector<NamedKey> keys = [] {
        std::vector<NamedKey> list;
        for (char c = 'a'; c <= 'z'; ++c) list.push_back({std::string(1, c), c - 'a' + 'A'});
        for (char c = '0'; c <= '9'; ++c) list.push_back({std::string(1, c), c});
        for (int f = 1; f <= 12; ++f) list.push_back({"f" + std::to_string(f), keys::kF1 + f - 1});
        list.insert(list.end(), {{"space", keys::kSpace},
                                 {"enter", keys::kEnter},
                                 {"tab", keys::kTab},
                                 {"escape", keys::kEscape},
                                 {"backspace", keys::kBackspace},
                                 {"left", keys::kLeft},
                                 {"right", keys::kRight},
                                 {"up", keys::kUp},
                                 {"down", keys::kDown},
                                 {"pageup", keys::kPageUp},
                                 {"pagedown", keys::kPageDown},
                                 {"home", keys::kHome},
                                 {"end", keys::kEnd},
                                 {"minus", keys::kMinus},
                                 {"equal", keys::kEqual},
                                 {"backslash", keys::kBackslash},
                                 {"comma", keys::kComma},
                                 {"period", keys::kPeriod},
                                 {"slash", keys::kSlash}});
        return list;
    }();
    return keys;
}

std::string parse_chord(std::string_view text, KeyChord& chord) {
    chord = {};
    for (;;) {
        const auto plus = text.find('+');
        const std::string_view part = text.substr(0, plus);
        if (plus == std::string_view::npos) {
            for (const NamedKey& named : named_keys()) {
                if (part == named.name) {
                    chord.key = named.key;
                    return "";
                }
            }
            return "unknown key '" + std::string(part) +
                   "' (keys: a..z, 0..9, f1..f12, space, enter, tab, escape, backspace, left, "
                   "right, up, down, pageup, pagedown, home, end, minus, equal, backslash, comma, "
                   "period, slash)";
        }
        bool* modifier = part == "ctrl"    ? &chord.ctrl
                         : part == "shift" ? &chord.shift
                         : part == "alt"   ? &chord.alt
                                           : nullptr;
        if (!modifier || *modifier) {
            return "'" + std::string(part) +
                   "' is not a modifier here (ctrl, shift, alt, once each)";
        }
        *modifier = true;
        text.remove_prefix(plus + 1);
    }
}

}  // namespace

const std::vector<std::string>& key_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const NamedKey& named : named_keys()) list.push_back(named.name);
        return list;
    }();
    return names;
}

std::string parse_key_chords(std::string_view text, std::vector<KeyChord>& chords) {
    chords.clear();
    for (;;) {
        const auto comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        KeyChord chord;
        if (std::string error = parse_chord(item, chord); !error.empty()) {
            chords.clear();
            return "key chord '" + std::string(item) + "': " + error;
        }
        chords.push_back(chord);
        if (comma == std::string_view::npos) return "";
        text.remove_prefix(comma + 1);
    }
}

std::string key_chord_text(const KeyChord& chord) {
    std::string text = std::string(chord.ctrl ? "ctrl+" : "") + (chord.shift ? "shift+" : "") +
                       (chord.alt ? "alt+" : "");
    for (const NamedKey& named : named_keys()) {
        if (named.key == chord.key) return text + named.name;
    }
    return text + "key" + std::to_string(chord.key);
}

}  // namespace tclens::gui
