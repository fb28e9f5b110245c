// One meaning per key while a tour plays (app/gui/shell/tour_overlay.h), in the real window under
// Xvfb through the keyboard's own path (`--press`: GLFW key events): Right steps the tour and
// does not also step the Banks panel's phase (read from the text the panels drew, `--text`);
// End goes to the last step and Home back to the first (`--frame-stats` names the step).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

struct TourRun {
    test::CommandResult result;
    std::string text;  // what the panels drew in the last frame
};

// Plays `tour` (JSON text) in the GUI at 1280x720, pressing `keys`, and reads back what the
// panels drew in the last frame.
TourRun play(const std::string& tour, const std::string& keys) {
    const std::string tour_path = test::temp_path("tour_keys.json");
    const std::string text_path = test::temp_path("tour_keys.txt");
    std::ofstream(tour_path) << tour;
    std::filesystem::remove(text_path);
    TourRun run;
    run.result = test::run_under_xvfb(kTclens + " --frames 16 --frame-stats --tour " + tour_path +
                                          " --press " + keys + " --text " + text_path,
                                      "1280x720");
    std::ifstream file(text_path);
    std::stringstream text;
    text << file.rdbuf();
    run.text = text.str();
    std::filesystem::remove(tour_path);
    std::filesystem::remove(text_path);
    return run;
}

constexpr const char* kToBanks = R"({"schema_version": 1, "steps": [
    {"view": "fragments", "caption": "The fragments."},
    {"view": "banks", "caption": "All four phases of ldmatrix.x4."}]})";

TEST(TourKeys, RightStepsTheTourNotTheBanksPhase) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Right to the Banks step, then Right again at the tour's end: the tour's keys both times.
    for (const std::string keys : {"right", "right,right"}) {
        const TourRun run = play(kToBanks, keys);
        ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
        EXPECT_NE(run.result.out.find("tour: at step 2 of 2"), std::string::npos) << run.result.out;
        ASSERT_NE(run.text.find("== banks =="), std::string::npos) << run.text;
        EXPECT_NE(run.text.find("all 4 phases"), std::string::npos)
            << keys << ": the phase moved:\n"
            << run.text.substr(run.text.find("== banks =="), 400);
    }
}

TEST(TourKeys, EndGoesToTheLastStepAndHomeToTheFirst) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string tour = R"({"schema_version": 1, "steps": [
        {"view": "device", "caption": "one"}, {"view": "fragments", "caption": "two"},
        {"view": "banks", "caption": "three"}]})";
    TourRun run = play(tour, "end");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_NE(run.result.out.find("tour: at step 3 of 3"), std::string::npos) << run.result.out;
    EXPECT_NE(run.text.find("all 4 phases"), std::string::npos) << run.text;
    run = play(tour, "end,home");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_NE(run.result.out.find("tour: at step 1 of 3"), std::string::npos) << run.result.out;
}

}  // namespace
}  // namespace tclens
