#pragma once
// Frame-time statistics for `--frame-stats` and the headless runtime: each frame's wall time
// from begin_frame() to end_frame(). A GL caller calls glFinish() before end_frame(), so the
// number is the frame's own cost, not the vsync wait.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace tclens::gui {

class FrameStats {
  public:
    void begin_frame() { start_ = std::chrono::steady_clock::now(); }
    void end_frame();
    // "frames 590, median 4.10 ms, p95 5.02 ms, max 9.31 ms (after 10 warm-up frames)";
    // "" when there were no frames after the warm-up.
    std::string summary() const;

    struct Times {
        std::size_t frames = 0;  // after the warm-up; 0: no statistics
        double median_ms = 0, p95_ms = 0, max_ms = 0;
    };
    Times times() const;

  private:
    std::chrono::steady_clock::time_point start_;
    std::vector<double> frame_ms_;
};

}  // namespace tclens::gui
