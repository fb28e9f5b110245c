#pragma once
// Frame-time statistics for `--frame-stats`: each frame's wall time from its start until the
// GPU finished it (glFinish), so the number is the frame's own cost, not the vsync wait.

#include <chrono>
#include <string>
#include <vector>

namespace tclens::gui {

class FrameStats {
public:
    void begin_frame() { start_ = std::chrono::steady_clock::now(); }
    void end_frame();  // calls glFinish, then records the frame
    // "frames 590, median 4.10 ms, p95 5.02 ms, max 9.31 ms (after 10 warm-up frames)";
    // "" when there were no frames after the warm-up.
    std::string summary() const;

private:
    std::chrono::steady_clock::time_point start_;
    std::vector<double> frame_ms_;
};

}  // namespace tclens::gui
