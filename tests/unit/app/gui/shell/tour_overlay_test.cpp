// TourOverlay's keys (app/gui/shell/tour_overlay.h) through real ImGui frames without a window
// (no backend: keys go straight into ImGuiIO, as the GLFW backend puts them): each tour key
// does what the menu's tooltip and README say, End included, and Esc leaves. That the panels do
// not read them as well is the ui test TourKeys.* (the real window).

#include "app/gui/shell/tour_overlay.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <fstream>
#include <string>

#include "app/gui/panels/panel_registry.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/lecture_mode.h"

namespace tclens::gui {
namespace {

constexpr int kNoKey = -1;

// An ImGui context with a built font atlas, for frames without a window; made before, and
// destroyed after, what the tests draw with it.
struct ImGuiContextForTests {
    ImGuiContextForTests() {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(1280, 720);
        io.DeltaTime = 1.0f / 60.0f;
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    }
    ~ImGuiContextForTests() { ImGui::DestroyContext(); }
};

class TourOverlayKeys : public ::testing::Test {
  protected:
    // One frame of the overlay with `key` down (kNoKey: none), as the shell runs it.
    void frame(int key) {
        ImGuiIO& io = ImGui::GetIO();
        for (bool& down : io.KeysDown) down = false;
        if (key != kNoKey) io.KeysDown[key] = true;
        ImGui::NewFrame();
        tour_.update(workspace_, panels_, lecture_);
        tour_.draw();
        ImGui::Render();
    }
    // Presses and releases `key`; returns the tour's step (1-based), or 0 when it has left.
    int press(int key) {
        frame(key);
        frame(kNoKey);
        return tour_.player().active() ? tour_.player().index() + 1 : 0;
    }

    static std::string three_step_tour() {
        const std::string path = ::testing::TempDir() + "tour_overlay_keys.json";
        std::ofstream(path) << R"({"schema_version": 1, "steps": [
            {"view": "device", "caption": "one"}, {"view": "fragments", "caption": "two"},
            {"view": "banks", "caption": "three"}]})";
        return path;
    }

    ImGuiContextForTests imgui_;  // first: the others use it
    std::vector<std::unique_ptr<Panel>> panels_ = make_all_panels();
    Workspace workspace_{panel_ids(panels_)};
    LectureMode lecture_{LectureSettings{}, {}};
    TourOverlay tour_{three_step_tour()};
};

TEST_F(TourOverlayKeys, EachTourKeyStepsAsDocumented) {
    ASSERT_TRUE(tour_.start().empty());
    frame(kNoKey);
    ASSERT_TRUE(tour_.player().active());
    EXPECT_EQ(press(keys::kEnd), 3);
    EXPECT_EQ(workspace_.main_view(), "banks");
    EXPECT_EQ(press(keys::kRight), 3);  // manual steps stop at the ends
    EXPECT_EQ(press(keys::kHome), 1);
    EXPECT_EQ(workspace_.main_view(), "device");
    EXPECT_EQ(press(keys::kRight), 2);
    EXPECT_EQ(press(keys::kSpace), 3);
    EXPECT_EQ(press(keys::kLeft), 2);
    EXPECT_EQ(press(keys::kPageUp), 1);
    EXPECT_EQ(press(keys::kPageDown), 2);
    EXPECT_EQ(press(keys::kEscape), 0);
    EXPECT_EQ(press(keys::kEnd), 0);  // after the tour, End is not the tour's any more
}

}  // namespace
}  // namespace tclens::gui
