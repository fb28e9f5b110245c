#include "app/gui/frame_stats.h"

#include <GL/gl.h>

#include <algorithm>
#include <cstdio>

namespace tclens::gui {
namespace {

constexpr size_t kWarmUpFrames = 10;  // font atlas upload, first layout passes

}  // namespace

void FrameStats::end_frame() {
    glFinish();
    frame_ms_.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count());
}

std::string FrameStats::summary() const {
    if (frame_ms_.size() <= kWarmUpFrames) return "";
    std::vector<double> ms(frame_ms_.begin() + kWarmUpFrames, frame_ms_.end());
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[size_t(q * double(ms.size() - 1))]; };
    char text[160];
    std::snprintf(text, sizeof text,
                  "frames %zu, median %.2f ms, p95 %.2f ms, max %.2f ms (after %zu warm-up "
                  "frames)",
                  ms.size(), at(0.5), at(0.95), ms.back(), kWarmUpFrames);
    return text;
}

}  // namespace tclens::gui
