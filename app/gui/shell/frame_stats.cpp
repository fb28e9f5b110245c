#include "app/gui/shell/frame_stats.h"

#include <algorithm>
#include <cstdio>

namespace tclens::gui {
namespace {

constexpr size_t kWarmUpFrames = 10;  // font atlas upload, first layout passes

}  // namespace

void FrameStats::end_frame() {
    frame_ms_.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count());
}

FrameStats::Times FrameStats::times() const {
    Times times;
    if (frame_ms_.size() <= kWarmUpFrames) return times;
    std::vector<double> ms(frame_ms_.begin() + kWarmUpFrames, frame_ms_.end());
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[size_t(q * double(ms.size() - 1))]; };
    times.frames = ms.size();
    times.median_ms = at(0.5);
    times.p95_ms = at(0.95);
    times.max_ms = ms.back();
    return times;
}

std::string FrameStats::summary() const {
    const Times t = times();
    if (t.frames == 0) return "";
    char text[160];
    std::snprintf(text, sizeof text,
                  "frames %zu, median %.2f ms, p95 %.2f ms, max %.2f ms (after %zu warm-up "
                  "frames)",
                  t.frames, t.median_ms, t.p95_ms, t.max_ms, kWarmUpFrames);
    return text;
}

}  // namespace tclens::gui
