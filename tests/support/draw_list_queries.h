#pragma once
// Looking things up in a view's draw records (viz/draw_list.h), for the views' unit tests.
#include <string>

#include "viz/draw_list.h"

namespace tclens::test {

// The first text record whose text is `text`; nullptr when there is none.
inline const viz::DrawText* find_text(const viz::DrawList& draw, const std::string& text) {
    for (const viz::DrawText& t : draw.texts) {
        if (t.text == text) return &t;
    }
    return nullptr;
}

// The first rectangle with hit id `hit`; nullptr when there is none.
inline const viz::DrawRect* hit_rect(const viz::DrawList& draw, int hit) {
    for (const viz::DrawRect& rect : draw.rects) {
        if (rect.hit == hit) return &rect;
    }
    return nullptr;
}

}  // namespace tclens::test
