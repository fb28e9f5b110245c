#pragma once
// Widths of controls (text fields, combos, number steppers, sliders) in font units, so they grow
// with the font (lecture zoom, the monitor's content scale) and show their values whole: at
// 300 % a field 100 px wide read "4096" as "409". Every fixed width in app/gui comes from here.
// A control that shows a value reports it with note_shown_value(), and the layout report
// (shell/layout_report.h) lists each one with the width its value needs.

#include <string>
#include <string_view>
#include <vector>

namespace tclens::gui {

// How a control lays out its value: a text field, a combo (its arrow button at the right), a
// number with - and + buttons (ImGui::InputInt with a step), or a bare label (a Selectable).
enum class ItemKind { kField, kCombo, kStepper, kLabel };

// `ems` times the current font size.
float em_width(float ems);

// The width a control of `kind` needs to show `text` whole: the text, the frame's padding and
// the control's own buttons, at the current font and style.
float width_to_show(std::string_view text, ItemKind kind);

// ImGui::SetNextItemWidth: `ems` font sizes, widened to show `longest` whole in a control of
// `kind` ("" for no such value).
void next_item_width(float ems, std::string_view longest = {}, ItemKind kind = ItemKind::kField);

// ImGui::SameLine() where an item `width` pixels wide still fits before the window's edge, else
// the item starts the next line (a row of controls wraps instead of running past its pane).
void same_line_if_fits(float width);

// Call right after a control of `kind` that shows `shown`, with its label (ImGui draws the part
// before "##" inside the item's rectangle, right of the frame): remembered for the layout report
// as a ShownValue of this frame.
void note_shown_value(std::string_view shown, ItemKind kind, std::string_view label = {});

// `text` whole when it fits in `width` pixels of the current font, else its longest beginning
// that fits with "..." after it (e.g. a title in a narrow table column).
std::string text_to_fit(std::string_view text, float width);

// The widest of `texts` (any range of strings) in the current font, e.g. a combo's items.
template <typename Texts>
std::string widest_text(const Texts& texts) {
    std::string widest;
    float most = -1.0f;
    for (const auto& text : texts) {
        const float width = width_to_show(text, ItemKind::kField);
        if (width > most) {
            most = width;
            widest = text;
        }
    }
    return widest;
}

// The same for `shown` drawn as plain text in `width` pixels from the cursor (a title in a table
// column, where a Selectable's own rectangle grows with its text): call before drawing it.
void note_shown_text(std::string_view shown, float width);

// A control's value in the last frame: the window it went into, the text, the control's frame
// [x, y, width, height] in pixels (its label left out) and the width `text` needs
// (width_to_show). needed > frame width: the value is cut.
struct ShownValue {
    std::string window;
    std::string text;
    float frame[4];
    float needed;
};
// Read after a frame was rendered: that frame's values (or the frame's before, if it had none).
const std::vector<ShownValue>& shown_values();

}  // namespace tclens::gui
