#pragma once
// Internal to profiling/: the open() of a CUPTI owner, tried once. Its first failure is kept and
// returned by every later call, so a GPU that refuses (no permission, counters busy) is asked
// once, not at every request. Pure: no CUPTI or CUDA call of its own.

#include "profiling/profiler_error.h"

namespace tclens::profiling::detail {

class OpenOnce {
  public:
    // ok when open; the kept failure when the steps failed before; else runs `steps` (returning
    // a ProfilerError) and keeps what they return, calling `undo` after a failure.
    template <typename Steps, typename Undo>
    ProfilerError open(const Steps& steps, const Undo& undo) {
        if (opened_) return ProfilerError{};
        if (!failure_.ok()) return failure_;
        const ProfilerError error = steps();
        if (error.ok()) {
            opened_ = true;
        } else {
            failure_ = error;
            undo();
        }
        return error;
    }
    template <typename Steps>
    ProfilerError open(const Steps& steps) {
        return open(steps, [] {});
    }

    bool opened() const { return opened_; }
    // The owner closed what it opened: the next open() runs the steps again.
    void closed() { opened_ = false; }

  private:
    bool opened_ = false;
    ProfilerError failure_;  // the first failure, returned again
};

}  // namespace tclens::profiling::detail
