// Tour files (app/gui/shell/tour.h) without a window: a good file parses into its steps with
// their settings applied to the panels given; every bad case is one line naming the file, the step
// and the bad value, and leaves the other steps playable; the shipped tour loads; the player walks,
// stops at the ends, leaves, and autoplays round.
#include "app/gui/shell/tour.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "app/gui/panels/panel_registry.h"
#include "tests/support/run_command.h"

namespace tclens::gui {
namespace {

// A panel with one setting, size=1..9, so the tests do not depend on the real panels' keys.
class SizedPanel : public Panel {
  public:
    SizedPanel() : Panel("alpha", "Alpha", "") {}
    void draw_contents(AppContext&) override {}
    std::string apply_setting(std::string_view key, std::string_view value) override {
        if (key != "size") return "view 'alpha' has no setting '" + std::string(key) + "'";
        if (value.size() != 1 || value[0] < '1' || value[0] > '9') {
            return "size='" + std::string(value) + "': allowed: 1..9";
        }
        size = value[0] - '0';
        return "";
    }
    int size = 0;
};

class PlainPanel : public Panel {
  public:
    PlainPanel() : Panel("beta", "Beta", "") {}
    void draw_contents(AppContext&) override {}
};

std::vector<std::unique_ptr<Panel>> fake_panels() {
    std::vector<std::unique_ptr<Panel>> panels;
    panels.push_back(std::make_unique<SizedPanel>());
    panels.push_back(std::make_unique<PlainPanel>());
    return panels;
}

std::string with_steps(const std::string& steps) {
    return R"({"schema_version": 1, "title": "Test tour", "steps": [)" + steps + "]}";
}

constexpr const char* kGoodStep = R"({"view": "beta", "caption": "fine"})";

// Parses `text` and expects exactly one error, at `step`, that is one line and holds each of
// `needles`. Returns the parse for further checks.
TourLoad expect_one_error(const std::string& text, int step, std::vector<std::string> needles) {
    const auto panels = fake_panels();
    TourLoad load = parse_tour(text, "tour.json", panels);
    EXPECT_EQ(load.errors.size(), 1u);
    if (load.errors.empty()) return load;
    const TourError& error = load.errors.front();
    EXPECT_EQ(error.step, step);
    EXPECT_EQ(error.message.find('\n'), std::string::npos) << error.message;
    needles.push_back(step > 0 ? "tour.json: step " + std::to_string(step) + ": " : "tour.json: ");
    for (const std::string& needle : needles) {
        EXPECT_NE(error.message.find(needle), std::string::npos)
            << error.message << " lacks " << needle;
    }
    return load;
}

TEST(TourParse, ReadsStepsInOrderAndAppliesTheirSettings) {
    const auto panels = fake_panels();
    const TourLoad load = parse_tour(
        with_steps(R"({"view": "alpha", "settings": ["size=3", "size=7"], "caption": "Seven."},
                      {"view": "beta", "caption": "Plain."})"),
        "tour.json", panels);
    EXPECT_TRUE(load.errors.empty());
    EXPECT_EQ(load.file_steps, 2);
    EXPECT_EQ(load.tour.title, "Test tour");
    ASSERT_EQ(load.tour.steps.size(), 2u);
    const TourStep& first = load.tour.steps[0];
    EXPECT_EQ(first.number, 1);
    EXPECT_EQ(first.view, "alpha");
    EXPECT_EQ(first.settings, (std::vector<std::string>{"size=3", "size=7"}));
    EXPECT_EQ(first.caption, "Seven.");
    EXPECT_EQ(load.tour.steps[1].number, 2);
    EXPECT_TRUE(load.tour.steps[1].settings.empty());
    // Checked by applying them, in order, to the panels given.
    EXPECT_EQ(static_cast<SizedPanel&>(*panels[0]).size, 7);
}

TEST(TourParse, UnknownViewIsOneLineAndTheOtherStepsStillPlay) {
    const TourLoad load =
        expect_one_error(with_steps(std::string(kGoodStep) +
                                    R"(, {"view": "tilemap", "caption": "Tiles."}, )" + kGoodStep),
                         2, {});
    ASSERT_FALSE(load.errors.empty());
    EXPECT_EQ(load.errors[0].message,
              "tour.json: step 2: unknown view 'tilemap' (views: alpha, beta)");
    EXPECT_EQ(load.file_steps, 3);
    ASSERT_EQ(load.tour.steps.size(), 2u);
    EXPECT_EQ(load.tour.steps[0].number, 1);
    EXPECT_EQ(load.tour.steps[1].number, 3);
}

TEST(TourParse, BadSettingNamesItAndThePanelsReason) {
    expect_one_error(
        with_steps(R"({"view": "alpha", "settings": ["size=2", "size=99"], "caption": "x"})"), 1,
        {"setting 'size=99'", "size='99': allowed: 1..9"});
    expect_one_error(with_steps(R"({"view": "alpha", "settings": ["colour=red"], "caption": "x"})"),
                     1, {"setting 'colour=red'", "no setting 'colour'"});
    expect_one_error(with_steps(R"({"view": "alpha", "settings": ["size"], "caption": "x"})"), 1,
                     {"setting 'size': expected KEY=VALUE"});
    expect_one_error(with_steps(R"({"view": "alpha", "settings": "size=2", "caption": "x"})"), 1,
                     {"\"settings\" must be a list"});
    expect_one_error(with_steps(R"({"view": "alpha", "settings": [2], "caption": "x"})"), 1,
                     {"\"settings\" must be a list"});
}

TEST(TourParse, BadStepShapesAreOneLineEach) {
    expect_one_error(with_steps(R"("fragments")"), 1, {"expected an object"});
    expect_one_error(with_steps(R"({"caption": "x"})"), 1,
                     {"\"view\" must be a string", "alpha, beta"});
    expect_one_error(with_steps(R"({"view": 3, "caption": "x"})"), 1,
                     {"\"view\" must be a string"});
    expect_one_error(with_steps(R"({"view": "beta"})"), 1,
                     {"\"caption\" must be a non-empty string"});
    expect_one_error(with_steps(R"({"view": "beta", "caption": ""})"), 1, {"\"caption\""});
    expect_one_error(with_steps(R"({"view": "beta", "captoin": "typo", "caption": "x"})"), 1,
                     {"unknown key 'captoin'", "view, settings, split, caption"});
}

TEST(TourParse, AStepsSplitIsCheckedAndShown) {
    const auto panels = fake_panels();
    const TourLoad load =
        parse_tour(with_steps(R"({"view": "alpha", "split": "beta,below", "caption": "Both."})"),
                   "tour.json", panels);
    EXPECT_TRUE(load.errors.empty());
    ASSERT_EQ(load.tour.steps.size(), 1u);
    EXPECT_EQ(load.tour.steps[0].split, "beta,below");
    // The step's workspace: alpha with beta below it, nothing floating, the window kept.
    Workspace before({"alpha", "beta"});
    before.pop_out("beta");
    before.remember_window({1000, 700});
    const auto [shown, error] = step_workspace(load.tour.steps[0], before);
    EXPECT_EQ(error, "");
    EXPECT_EQ(shown.main_view(), "alpha");
    EXPECT_EQ(shown.second_view(), "beta");
    EXPECT_EQ(shown.split(), Split::kBelow);
    EXPECT_TRUE(shown.floating().empty());
    EXPECT_EQ(shown.window(), (WindowSize{1000, 700}));
    expect_one_error(with_steps(R"({"view": "alpha", "split": "beta,left", "caption": "x"})"), 1,
                     {"\"split\": split='beta,left': allowed: ID,beside | ID,below | off"});
    expect_one_error(with_steps(R"({"view": "alpha", "split": "alpha,beside", "caption": "x"})"), 1,
                     {"\"split\": split='alpha,beside'"});
    expect_one_error(with_steps(R"({"view": "alpha", "split": 2, "caption": "x"})"), 1,
                     {"\"split\" must be a string"});
}

TEST(TourParse, BadFilesAreOneLineAndPlayNothing) {
    const TourLoad not_json = expect_one_error("{\"schema_version\": 1,\n \"steps\": [}", 0,
                                               {"not JSON (line 2, column"});
    EXPECT_TRUE(not_json.tour.steps.empty());
    expect_one_error(R"({"steps": []})", 0, {"missing key 'schema_version'"});
    expect_one_error("[1, 2]", 0, {"missing key 'schema_version'"});
    expect_one_error(R"({"schema_version": 2, "steps": []})", 0,
                     {"schema_version 2 is not supported", "reads 1"});
    expect_one_error(R"({"schema_version": "1", "steps": []})", 0, {"schema_version \"1\""});
    expect_one_error(R"({"schema_version": 1})", 0, {"\"steps\" must be a non-empty list"});
    expect_one_error(R"({"schema_version": 1, "steps": []})", 0,
                     {"\"steps\" must be a non-empty list"});
}

TEST(TourLoadFile, MissingOrOversizedFileIsOneLine) {
    const std::string missing = test::temp_path("no_such_tour.json");
    const TourLoad load = load_tour(missing);
    ASSERT_EQ(load.errors.size(), 1u);
    EXPECT_EQ(load.errors[0].step, 0);
    EXPECT_NE(load.errors[0].message.find(missing), std::string::npos) << load.errors[0].message;
    EXPECT_EQ(load.errors[0].message.find('\n'), std::string::npos);

    const std::string big = test::temp_path("big_tour.json");
    std::ofstream(big) << std::string(kMaxTourBytes + 1, ' ');
    const TourLoad too_big = load_tour(big);
    std::remove(big.c_str());
    ASSERT_EQ(too_big.errors.size(), 1u);
    EXPECT_NE(too_big.errors[0].message.find("limit"), std::string::npos)
        << too_big.errors[0].message;
}

TEST(TourLoadFile, ShippedTourPlaysEveryStep) {
    const TourLoad load = load_tour(default_tour_path());
    bool has_tilemap = false;
    for (const auto& panel : make_all_panels())
        has_tilemap = has_tilemap || panel->id() == "tilemap";
    // Every step plays; only the tile map step may be missing, in a build without its panel.
    for (const TourError& error : load.errors) {
        EXPECT_FALSE(has_tilemap) << error.message;
        EXPECT_NE(error.message.find("unknown view 'tilemap'"), std::string::npos) << error.message;
    }
    EXPECT_LE(load.errors.size(), 1u);
    EXPECT_GE(load.file_steps, 7);
    EXPECT_EQ(int(load.tour.steps.size()) + int(load.errors.size()), load.file_steps);
    std::vector<std::string> views;
    for (const TourStep& step : load.tour.steps) views.push_back(step.view);
    // Fragment layouts first, live metrics last, as lectures go.
    ASSERT_FALSE(views.empty());
    EXPECT_EQ(views.front(), "fragments");
    EXPECT_EQ(views.back(), "profile");
    for (const char* view : {"banks", "kernels", "timeline"}) {
        EXPECT_NE(std::find(views.begin(), views.end(), view), views.end()) << view;
    }
}

TEST(TourLoadFile, OneStepForAScreenshot) {
    const std::string path = test::temp_path("step_tour.json");
    std::ofstream(path) << with_steps(
        R"({"view": "device", "caption": "One."}, {"view": "nowhere", "caption": "Two."},
           {"view": "fragments", "settings": ["layout=ldmatrix.x4"], "caption": "Three."})");
    TourStep step;
    std::string counter;
    EXPECT_EQ(load_tour_step(path, 3, step, counter), "");
    EXPECT_EQ(step.view, "fragments");
    EXPECT_EQ(step.caption, "Three.");
    EXPECT_EQ(counter, "step 2 of 2");  // its place among the playable steps
    const std::string bad = load_tour_step(path, 2, step, counter);
    EXPECT_NE(bad.find("step 2: unknown view 'nowhere'"), std::string::npos) << bad;
    const std::string beyond = load_tour_step(path, 4, step, counter);
    EXPECT_NE(beyond.find("has 3 steps; --tour-step 4"), std::string::npos) << beyond;
    std::remove(path.c_str());
}

Tour three_steps() {
    Tour tour;
    for (int i = 1; i <= 3; ++i)
        tour.steps.push_back({i, "beta", {}, "step " + std::to_string(i), ""});
    return tour;
}

TEST(TourPlayer, WalksStopsAtTheEndsAndLeaves) {
    TourPlayer player(three_steps());
    EXPECT_FALSE(player.active());
    EXPECT_EQ(player.current(), nullptr);
    EXPECT_FALSE(player.next());  // not started
    ASSERT_TRUE(player.start());
    EXPECT_EQ(player.current()->caption, "step 1");
    EXPECT_FALSE(player.previous());  // stays on the first
    EXPECT_TRUE(player.next());
    EXPECT_TRUE(player.next());
    EXPECT_EQ(player.index(), 2);
    EXPECT_FALSE(player.next());  // stays on the last
    EXPECT_TRUE(player.previous());
    EXPECT_EQ(player.index(), 1);
    EXPECT_TRUE(player.first());
    EXPECT_EQ(player.index(), 0);
    EXPECT_FALSE(player.first());
    EXPECT_TRUE(player.last());
    EXPECT_EQ(player.index(), 2);
    EXPECT_FALSE(player.last());
    EXPECT_TRUE(player.first());
    const auto before = player.changes();
    EXPECT_TRUE(player.leave());
    EXPECT_EQ(player.changes(), before + 1);
    EXPECT_EQ(player.current(), nullptr);
    EXPECT_FALSE(player.leave());
    EXPECT_FALSE(TourPlayer(Tour{}).start());  // nothing to play
}

TEST(TourPlayer, AutoplayLoopsAndAManualStepRestartsTheWait) {
    TourPlayer player(three_steps());
    player.set_autoplay(2.0, 10.0);
    ASSERT_TRUE(player.start());
    EXPECT_FALSE(player.advance_if_due(11.9));
    EXPECT_TRUE(player.advance_if_due(12.0));
    EXPECT_EQ(player.index(), 1);
    EXPECT_TRUE(player.advance_if_due(14.0));
    EXPECT_TRUE(player.advance_if_due(16.0));
    EXPECT_EQ(player.index(), 0);  // wrapped round
    player.advance_if_due(17.0);
    EXPECT_TRUE(player.next());  // at 17: the next automatic step is due at 19, not 18
    EXPECT_FALSE(player.advance_if_due(18.5));
    EXPECT_TRUE(player.advance_if_due(19.0));
    EXPECT_EQ(player.index(), 2);

    TourPlayer off(three_steps());
    ASSERT_TRUE(off.start());
    EXPECT_FALSE(off.advance_if_due(1000.0));  // no autoplay set

    Tour single;
    single.steps.push_back({1, "beta", {}, "only", ""});
    TourPlayer lone(single);
    lone.set_autoplay(1.0, 0.0);
    ASSERT_TRUE(lone.start());
    const auto changes = lone.changes();
    EXPECT_FALSE(lone.advance_if_due(5.0));
    EXPECT_EQ(lone.changes(), changes);
}

}  // namespace
}  // namespace tclens::gui
