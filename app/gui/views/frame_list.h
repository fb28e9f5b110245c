#pragma once
// Things gathered while ImGui draws a frame (the drawings painted, the values controls showed),
// kept past the frame so that what runs after it (the layout report) can read them.

#include <imgui.h>

#include <utility>
#include <vector>

namespace tclens::gui {

template <typename Item>
class FrameList {
  public:
    // The list of the frame being drawn.
    std::vector<Item>& now() {
        if (const int frame = ImGui::GetFrameCount(); frame != frame_) {
            last_ = frame_ == frame - 1 ? std::move(current_) : std::vector<Item>{};
            current_.clear();
            frame_ = frame;
        }
        return current_;
    }
    // Read after a frame was rendered: that frame's list (empty when nothing was added in it).
    const std::vector<Item>& shown() const {
        return frame_ == ImGui::GetFrameCount() ? current_ : empty_;
    }
    // Read while a frame is drawn: the list of the frame before it.
    const std::vector<Item>& before() const {
        const int frame = ImGui::GetFrameCount();
        return frame_ == frame ? last_ : frame_ == frame - 1 ? current_ : empty_;
    }

  private:
    int frame_ = -1;
    std::vector<Item> current_;
    std::vector<Item> last_;
    std::vector<Item> empty_;
};

}  // namespace tclens::gui
