// The workspace model (app/gui/shell/workspace.h) without a window: the default arrangement, the
// keys' operations (show, second view, split, orientation), popping out and back, links, the
// `--set workspace.KEY=VALUE` settings with their one-line errors, the settings-file lines read
// back equal, the invariants under any sequence of operations, and the layout's rectangles.
#include "app/gui/shell/workspace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

namespace tclens::gui {
namespace {

const std::vector<std::string> kViews = {"device",  "fragments", "banks",  "tilemap",
                                         "kernels", "profile",   "compare"};

// "KEY=VALUE" lines, each read with read_line(); returns the first refusal or "".
std::string read_lines(Workspace& workspace, const std::string& lines) {
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) {
        if (std::string error = workspace.read_line(line); !error.empty()) return error;
    }
    return "";
}

// Every view is in at most one place; the second differs from the main; split off <=> no second.
void expect_invariants(const Workspace& w) {
    for (const std::string& view : w.views()) {
        const int places = (w.main_view() == view) + (w.second_view() == view) +
                           int(std::count(w.floating().begin(), w.floating().end(), view));
        EXPECT_LE(places, 1) << view;
    }
    if (!w.second_view().empty()) {
        EXPECT_NE(w.second_view(), w.main_view());
    }
    EXPECT_EQ(w.split() == Split::kOff, w.second_view().empty());
    if (w.main_view().empty()) {
        EXPECT_EQ(w.floating().size(), w.views().size());
        EXPECT_EQ(w.split(), Split::kOff);
    }
    EXPECT_GE(w.ratio(), kMinSplitRatio);
    EXPECT_LE(w.ratio(), kMaxSplitRatio);
}

TEST(Workspace, StartsWithFragmentsAlone) {
    const Workspace w(kViews);
    EXPECT_EQ(w.main_view(), "fragments");
    EXPECT_EQ(w.second_view(), "");
    EXPECT_EQ(w.split(), Split::kOff);
    EXPECT_FLOAT_EQ(w.ratio(), 0.5f);
    EXPECT_TRUE(w.floating().empty());
    EXPECT_EQ(w.window(), WindowSize{});
    // Without those views: the first view alone.
    const Workspace other({"alpha", "beta"});
    EXPECT_EQ(other.main_view(), "alpha");
    EXPECT_EQ(other.split(), Split::kOff);
}

TEST(Workspace, PartnersAreThePairsPeopleUse) {
    EXPECT_EQ(partner_view("fragments"), "banks");
    EXPECT_EQ(partner_view("banks"), "fragments");
    EXPECT_EQ(partner_view("kernels"), "profile");
    EXPECT_EQ(partner_view("profile"), "kernels");
    EXPECT_EQ(partner_view("tilemap"), "kernels");
    EXPECT_EQ(partner_view("compare"), "profile");
    EXPECT_EQ(partner_view("device"), "kernels");
    EXPECT_EQ(partner_view("nothing"), "");
}

TEST(Workspace, ShowFillsTheMainPaneAndSwapsWithTheSecond) {
    Workspace w(kViews);
    w.toggle_split();  // the partner: banks
    ASSERT_EQ(w.second_view(), "banks");
    w.show("kernels");
    EXPECT_EQ(w.main_view(), "kernels");
    EXPECT_EQ(w.second_view(), "banks");
    w.show("banks");  // the second view: the two swap
    EXPECT_EQ(w.main_view(), "banks");
    EXPECT_EQ(w.second_view(), "kernels");
    w.show("nothing");  // not a view: ignored
    EXPECT_EQ(w.main_view(), "banks");
}

TEST(Workspace, ShowSecondSplitsAndSwapsWithTheMain) {
    Workspace w(kViews);
    w.show_second("profile");
    EXPECT_EQ(w.split(), Split::kBeside);
    EXPECT_EQ(w.second_view(), "profile");
    w.show_second("fragments");  // the main view: it swaps with the second
    EXPECT_EQ(w.main_view(), "profile");
    EXPECT_EQ(w.second_view(), "fragments");
    w.toggle_split();
    w.show_second("profile");  // the main view, split off: its partner takes the main pane
    EXPECT_EQ(w.main_view(), "kernels");
    EXPECT_EQ(w.second_view(), "profile");
}

TEST(Workspace, SplitKeyBringsBackTheLastSecondViewElseThePartner) {
    Workspace w(kViews);
    w.toggle_split();
    EXPECT_EQ(w.split(), Split::kBeside);
    EXPECT_EQ(w.second_view(), "banks");
    w.toggle_split();
    EXPECT_EQ(w.split(), Split::kOff);
    EXPECT_EQ(w.second_view(), "");
    w.toggle_split();
    EXPECT_EQ(w.second_view(), "banks");
    w.toggle_split();
    w.show("kernels");
    w.toggle_split();  // banks is still free: it comes back
    EXPECT_EQ(w.second_view(), "banks");
    w.toggle_split();
    w.show("banks");  // the last second view is now the main one: the partner instead
    w.toggle_split();
    EXPECT_EQ(w.main_view(), "banks");
    EXPECT_EQ(w.second_view(), "fragments");
    w.toggle_split();
    w.pop_out("fragments");
    w.show("device");
    w.toggle_split();  // the last one, fragments, floats: device's partner
    EXPECT_EQ(w.second_view(), "kernels");
    Workspace alone({"device", "fragments"});
    alone.pop_out("fragments");
    alone.toggle_split();  // no partner free, nothing else free: no split
    EXPECT_EQ(alone.split(), Split::kOff);
}

TEST(Workspace, OrientationFlipsAndTurnsTheSplitOn) {
    Workspace w(kViews);
    w.toggle_orientation();  // off: on, beside as it was
    EXPECT_EQ(w.split(), Split::kBeside);
    w.toggle_orientation();
    EXPECT_EQ(w.split(), Split::kBelow);
    w.toggle_orientation();
    EXPECT_EQ(w.split(), Split::kBeside);
    w.toggle_split();
    w.set_orientation(Split::kBelow);
    EXPECT_EQ(w.split(), Split::kBelow);
    EXPECT_EQ(w.second_view(), "banks");
}

TEST(Workspace, RatioIsClamped) {
    Workspace w(kViews);
    w.set_ratio(0.05f);
    EXPECT_FLOAT_EQ(w.ratio(), kMinSplitRatio);
    w.set_ratio(2.0f);
    EXPECT_FLOAT_EQ(w.ratio(), kMaxSplitRatio);
    w.set_ratio(std::nanf(""));
    EXPECT_FLOAT_EQ(w.ratio(), kMaxSplitRatio);
}

TEST(Workspace, PopOutLeavesThePaneAndShowBringsItBack) {
    Workspace w(kViews);
    w.toggle_split();
    w.pop_out("fragments");  // the main view: the second takes its place
    EXPECT_EQ(w.main_view(), "banks");
    EXPECT_EQ(w.split(), Split::kOff);
    EXPECT_TRUE(w.is_floating("fragments"));
    EXPECT_TRUE(w.is_shown("fragments"));
    w.pop_out("banks");  // alone: the first free view in rail order
    EXPECT_EQ(w.main_view(), "device");
    w.close_floating("banks");
    EXPECT_FALSE(w.is_shown("banks"));
    w.show("fragments");
    EXPECT_EQ(w.main_view(), "fragments");
    EXPECT_FALSE(w.is_floating("fragments"));
    for (const std::string& view : kViews) w.pop_out(view);
    EXPECT_EQ(w.main_view(), "");
    expect_invariants(w);
    w.toggle_split();  // nothing to split
    EXPECT_EQ(w.split(), Split::kOff);
    w.show_second("kernels");  // with the main pane empty it takes that
    EXPECT_EQ(w.main_view(), "kernels");
    expect_invariants(w);
    w.pop_out("kernels");
    w.close_floating("banks");  // closing a window with the main pane empty: it goes there
    EXPECT_EQ(w.main_view(), "banks");
    expect_invariants(w);
}

TEST(Workspace, LinksOpenBesideTheirSource) {
    Workspace w(kViews);
    w.toggle_split();
    w.show("kernels");
    w.show_linked("tilemap", "kernels");  // from the main pane: beside it
    EXPECT_EQ(w.main_view(), "kernels");
    EXPECT_EQ(w.second_view(), "tilemap");
    w.show_linked("fragments", "tilemap");  // from the second pane: into the main one
    EXPECT_EQ(w.main_view(), "fragments");
    EXPECT_EQ(w.second_view(), "tilemap");
    w.show_linked("tilemap", "fragments");  // already shown: nothing moves
    EXPECT_EQ(w.main_view(), "fragments");
    EXPECT_EQ(w.second_view(), "tilemap");
    w.pop_out("tilemap");
    w.show_linked("banks", "tilemap");  // from a floating window: the main pane
    EXPECT_EQ(w.main_view(), "banks");
}

TEST(Workspace, SettingsApplyInEitherOrder) {
    Workspace a(kViews), b(kViews);
    EXPECT_EQ(a.apply_setting("view", "banks"), "");
    EXPECT_EQ(a.apply_setting("split", "fragments,below"), "");
    EXPECT_EQ(b.apply_setting("split", "fragments,below"), "");
    EXPECT_EQ(b.apply_setting("view", "banks"), "");
    EXPECT_EQ(a, b);
    EXPECT_EQ(a.main_view(), "banks");
    EXPECT_EQ(a.second_view(), "fragments");
    EXPECT_EQ(a.split(), Split::kBelow);
    EXPECT_EQ(a.apply_setting("ratio", "0.3"), "");
    EXPECT_FLOAT_EQ(a.ratio(), 0.3f);
    EXPECT_EQ(a.apply_setting("floating", "profile, compare"), "");
    EXPECT_EQ(a.floating(), (std::vector<std::string>{"profile", "compare"}));
    EXPECT_EQ(a.apply_setting("floating", "compare"), "");  // profile's window closes
    EXPECT_EQ(a.floating(), std::vector<std::string>{"compare"});
    EXPECT_FALSE(a.is_shown("profile"));
    EXPECT_EQ(a.apply_setting("split", "off"), "");
    EXPECT_EQ(a.split(), Split::kOff);
    EXPECT_EQ(a.apply_setting("floating", "none"), "");
    EXPECT_TRUE(a.floating().empty());
}

TEST(Workspace, BadSettingsAreOneLineNamingValueAndAllowed) {
    Workspace w(kViews);
    const Workspace before = w;
    const std::vector<std::pair<std::pair<std::string, std::string>, std::string>> cases = {
        {{"view", "tiles"}, "view='tiles': allowed: a view id (device, fragments,"},
        {{"split", "banks,left"}, "split='banks,left': allowed: ID,beside | ID,below | off"},
        {{"split", "banks"}, "split='banks': allowed: ID,beside"},
        {{"split", "nothing,beside"}, "split='nothing,beside': allowed:"},
        {{"ratio", "0.9"}, "ratio='0.9': allowed: 0.2..0.8"},
        {{"ratio", "half"}, "ratio='half': allowed: 0.2..0.8"},
        {{"ratio", "nan"}, "ratio='nan': allowed: 0.2..0.8"},
        {{"floating", "banks,nothing"}, "floating='banks,nothing': allowed: none or a list"},
        {{"width", "3"}, "workspace has no setting 'width' (settings: view, split, ratio"},
    };
    for (const auto& [setting, message] : cases) {
        SCOPED_TRACE(setting.first + "=" + setting.second);
        const std::string error = w.apply_setting(setting.first, setting.second);
        EXPECT_EQ(error.rfind(message, 0), 0u) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos);
        EXPECT_EQ(w, before);  // a refused setting changes nothing
    }
}

TEST(Workspace, LinesReadBackEqual) {
    Workspace w(kViews);
    w.show("compare");
    w.show_second("profile");
    w.toggle_orientation();
    w.set_ratio(0.625f);
    w.pop_out("device");
    w.pop_out("tilemap");
    w.remember_window({1600, 900});
    const std::string lines = w.to_lines();
    EXPECT_EQ(lines,
              "view=compare\nsplit=profile,below\nratio=0.625\nfloating=device,tilemap\n"
              "window=1600x900\n");
    Workspace read(kViews);
    EXPECT_EQ(read_lines(read, lines), "");
    EXPECT_EQ(read, w);
    // Onto a workspace arranged otherwise, the same.
    Workspace other(kViews);
    other.pop_out("compare");
    other.pop_out("kernels");
    other.remember_window({800, 600});
    EXPECT_EQ(read_lines(other, lines), "");
    EXPECT_EQ(other, w);
    // And back to the default's lines.
    const Workspace fresh(kViews);
    EXPECT_EQ(read_lines(other, fresh.to_lines()), "");
    EXPECT_EQ(other, fresh);
}

TEST(Workspace, BadLinesAreSkippedAndTheRestRead) {
    Workspace w(kViews);
    EXPECT_NE(w.read_line("window=0x900"), "");
    EXPECT_NE(w.read_line("window=16000"), "");
    EXPECT_NE(w.read_line("window=200000x900"), "");
    EXPECT_NE(w.read_line("view=gone"), "");
    EXPECT_NE(w.read_line("no equals sign"), "");
    EXPECT_EQ(w, Workspace(kViews));
    EXPECT_EQ(w.read_line(""), "");
    EXPECT_EQ(w.read_line("view=kernels\r"), "");
    EXPECT_EQ(w.read_line("window=1280x720"), "");
    EXPECT_EQ(w.main_view(), "kernels");
    EXPECT_EQ(w.window(), (WindowSize{1280, 720}));
    EXPECT_EQ(w.read_line("window=none"), "");
    EXPECT_EQ(w.window(), WindowSize{});
}

TEST(Workspace, AnySequenceKeepsTheInvariantsAndReadsBackEqual) {
    std::mt19937 random(7);
    Workspace w(kViews);
    for (int step = 0; step < 5000; ++step) {
        const std::string& view = kViews[random() % kViews.size()];
        switch (random() % 9) {
            case 0:
                w.show(view);
                break;
            case 1:
                w.show_second(view);
                break;
            case 2:
                w.toggle_split();
                break;
            case 3:
                w.toggle_orientation();
                break;
            case 4:
                w.pop_out(view);
                break;
            case 5:
                w.close_floating(view);
                break;
            case 6:
                w.show_linked(view, kViews[random() % kViews.size()]);
                break;
            case 7:
                w.set_ratio(float(random() % 100) / 100.0f);
                break;
            case 8:
                w.reset();
                break;
        }
        SCOPED_TRACE(step);
        expect_invariants(w);
        Workspace read(kViews);
        ASSERT_EQ(read_lines(read, w.to_lines()), "") << w.to_lines();
        ASSERT_EQ(read, w) << w.to_lines() << "read as\n" << read.to_lines();
    }
}

bool overlap(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

TEST(WorkspaceLayout, OneViewFillsEverythingRightOfTheRail) {
    const Workspace w(kViews);
    const Rect area{0, 19, 1280, 672};
    const WorkspaceLayout layout = layout_workspace(w, area, 150.4f, 8, 180);
    EXPECT_FLOAT_EQ(layout.rail.width, 150);
    EXPECT_FLOAT_EQ(layout.rail.height, 672);
    EXPECT_FLOAT_EQ(layout.main.x, 150);
    EXPECT_FLOAT_EQ(layout.main.y, 19);
    EXPECT_FLOAT_EQ(layout.main.right(), 1280);
    EXPECT_FLOAT_EQ(layout.main.bottom(), 691);
    EXPECT_FLOAT_EQ(layout.second.width * layout.second.height, 0);
    EXPECT_FLOAT_EQ(layout.divider.width * layout.divider.height, 0);
}

TEST(WorkspaceLayout, SplitsCoverTheAreaWithoutOverlapAtTheRatio) {
    for (const Split split : {Split::kBeside, Split::kBelow}) {
        for (const float ratio : {0.2f, 0.35f, 0.5f, 0.8f}) {
            SCOPED_TRACE(std::string(split_name(split)) + " " + std::to_string(ratio));
            Workspace w(kViews);
            w.set_orientation(split);
            if (w.split() != split) w.toggle_orientation();
            w.set_ratio(ratio);
            const Rect area{0, 19, 1920, 1038};
            const WorkspaceLayout l = layout_workspace(w, area, 150, 8, 100);
            const Rect parts[] = {l.rail, l.main, l.divider, l.second};
            float covered = 0;
            for (const Rect& a : parts) {
                covered += a.width * a.height;
                for (const Rect& b : parts) {
                    if (&a != &b) {
                        EXPECT_FALSE(overlap(a, b));
                    }
                }
                EXPECT_EQ(a.width, std::round(a.width));
                EXPECT_EQ(a.height, std::round(a.height));
            }
            EXPECT_FLOAT_EQ(covered, area.width * area.height);
            const bool beside = split == Split::kBeside;
            const float main = beside ? l.main.width : l.main.height;
            const float second = beside ? l.second.width : l.second.height;
            EXPECT_NEAR(main / (main + second), ratio, 0.002);
            EXPECT_FLOAT_EQ(beside ? l.divider.width : l.divider.height, 8);
        }
    }
}

TEST(WorkspaceLayout, PanesKeepTheirLeastLengthWhereThereIsRoom) {
    Workspace w(kViews);
    w.toggle_split();
    w.set_ratio(0.2f);
    WorkspaceLayout l = layout_workspace(w, {0, 0, 800, 600}, 150, 10, 300);
    EXPECT_EQ(l.split, Split::kBeside);
    EXPECT_FLOAT_EQ(l.main.width, 300);  // 0.2 of 640 would be 128
    EXPECT_FLOAT_EQ(l.second.width, 340);
    // No room for two beside: below each other, at the ratio (the height has room for 2 x 200).
    l = layout_workspace(w, {0, 0, 500, 610}, 150, 10, 200);
    EXPECT_EQ(l.split, Split::kBelow);
    EXPECT_FLOAT_EQ(l.main.height, 200);
    EXPECT_FLOAT_EQ(l.second.height, 400);
    EXPECT_FLOAT_EQ(l.main.width, 350);
    // No room either way: beside, at the ratio.
    l = layout_workspace(w, {0, 0, 500, 300}, 150, 10, 200);
    EXPECT_EQ(l.split, Split::kBeside);
    EXPECT_FLOAT_EQ(l.main.width, 68);
    EXPECT_FLOAT_EQ(l.main.width + l.divider.width + l.second.width, 350);
}

TEST(WorkspaceLayout, ViewsGetTheWidthTheyNeedElseGoBelow) {
    Workspace w(kViews);
    w.toggle_split();
    const Rect area{0, 19, 1280, 674};
    // Kernels beside Profile at 1280: Profile needs 697, the ratio gives way.
    w.show("kernels");
    WorkspaceLayout l = layout_workspace(w, area, 159, 8, 156, {328, 697});
    EXPECT_EQ(l.split, Split::kBeside);
    EXPECT_FLOAT_EQ(l.second.width, 697);
    EXPECT_FLOAT_EQ(l.main.width, 1280 - 159 - 8 - 697);
    // Fragments beside Banks need 755 + 754: more than 1121, so below each other.
    l = layout_workspace(w, area, 159, 8, 156, {755, 754});
    EXPECT_EQ(l.split, Split::kBelow);
    EXPECT_FLOAT_EQ(l.main.width, 1121);
    EXPECT_FLOAT_EQ(l.second.width, 1121);
    EXPECT_FLOAT_EQ(l.main.height, 333);
    // At 1920 they fit beside.
    l = layout_workspace(w, {0, 19, 1920, 1036}, 159, 8, 156, {755, 754});
    EXPECT_EQ(l.split, Split::kBeside);
    EXPECT_GE(l.main.width, 755);
    EXPECT_GE(l.second.width, 754);
    // Asked for below, below whatever the widths.
    w.toggle_orientation();
    l = layout_workspace(w, {0, 19, 1920, 1036}, 159, 8, 156, {755, 754});
    EXPECT_EQ(l.split, Split::kBelow);
}

}  // namespace
}  // namespace tclens::gui
