// libFuzzer harness for app/gui/shell/workspace.h: the settings file's [tclens][workspace] lines
// (Workspace::read_line, which `--set workspace.KEY=VALUE` shares through apply_setting) and the
// layout of what they arrange.
//
// Input: the section's lines, e.g. "view=kernels\nsplit=profile,below\nratio=0.35".
// Invariants:
//   - a refused line gets a one-line reason, and the workspace keeps its invariants after every
//     line (each view in at most one place, the second view not the main one, split off exactly
//     when there is no second view, the ratio in range);
//   - what to_lines() writes reads back, line by line, without a refusal and equal;
//   - layout_workspace() of the result cuts an area into parts that do not overlap and cover it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/shell/workspace.h"
#include "tests/fuzz/fuzz_support.h"

namespace tclens::fuzz {
namespace {

using gui::Rect;
using gui::Split;
using gui::Workspace;

const std::vector<std::string> kViews = {"device",  "fragments", "banks",  "tilemap",
                                         "kernels", "profile",   "compare"};

void check_invariants(const Workspace& w, const std::string& where) {
    for (const std::string& view : w.views()) {
        const int places = (w.main_view() == view) + (w.second_view() == view) +
                           int(std::count(w.floating().begin(), w.floating().end(), view));
        TCLENS_FUZZ_CHECK(places <= 1, where + ": " + view + " in two places");
    }
    TCLENS_FUZZ_CHECK(w.second_view().empty() || w.second_view() != w.main_view(), where);
    TCLENS_FUZZ_CHECK((w.split() == Split::kOff) == w.second_view().empty(), where);
    TCLENS_FUZZ_CHECK(!w.main_view().empty() || w.floating().size() == w.views().size(), where);
    TCLENS_FUZZ_CHECK(w.ratio() >= gui::kMinSplitRatio && w.ratio() <= gui::kMaxSplitRatio, where);
}

// Reads `lines` one by one; returns the number of refusals.
int read_lines(Workspace& w, std::string_view lines) {
    int refused = 0;
    while (!lines.empty()) {
        const std::size_t end = lines.find('\n');
        const std::string line(lines.substr(0, end));
        const std::string error = w.read_line(line);
        if (!error.empty()) {
            ++refused;
            TCLENS_FUZZ_CHECK(error.find('\n') == std::string::npos, error);
        }
        check_invariants(w, "after '" + line + "'");
        if (end == std::string_view::npos) break;
        lines.remove_prefix(end + 1);
    }
    return refused;
}

bool overlap(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::string text(reinterpret_cast<const char*>(data), size);
    gui::Workspace workspace(fuzz::kViews);
    fuzz::read_lines(workspace, text);

    const std::string lines = workspace.to_lines();
    gui::Workspace again(fuzz::kViews);
    TCLENS_FUZZ_CHECK(fuzz::read_lines(again, lines) == 0, lines);
    TCLENS_FUZZ_CHECK(again == workspace, lines + "read back as\n" + again.to_lines());

    // A size from the input's length, so the fuzzer varies it too.
    const gui::Rect area{0, 19, float(200 + size % 4000), float(100 + (size * 7) % 2200)};
    const gui::WorkspaceLayout layout =
        gui::layout_workspace(workspace, area, 160, 8, 156, {float(size % 1500), 700});
    const gui::Rect parts[] = {layout.rail, layout.main, layout.divider, layout.second};
    float covered = 0;
    for (const gui::Rect& a : parts) {
        TCLENS_FUZZ_CHECK(a.width >= 0 && a.height >= 0, lines);
        covered += a.width * a.height;
        for (const gui::Rect& b : parts) {
            TCLENS_FUZZ_CHECK(&a == &b || !fuzz::overlap(a, b), lines);
        }
    }
    TCLENS_FUZZ_CHECK(covered == area.width * area.height, lines);
    return 0;
}
