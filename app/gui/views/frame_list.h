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
    // The list of the frame being drawn; the one before is kept once ImGui has begun another.
    std::vector<Item>& now() {
        if (const int frame = ImGui::GetFrameCount(); frame != frame_) {
            last_ = std::move(current_);
            current_.clear();
            frame_ = frame;
        }
        return current_;
    }
    // Read after a frame was rendered: that frame's list, unless nothing was added in it.
    const std::vector<Item>& shown() const {
        return frame_ == ImGui::GetFrameCount() ? current_ : last_;
    }

  private:
    int frame_ = -1;
    std::vector<Item> current_;
    std::vector<Item> last_;
};

}  // namespace tclens::gui
