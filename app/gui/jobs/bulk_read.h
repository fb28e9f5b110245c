#pragma once
// An open recording's deferred bulk (profiling::RecordingBulk: its source profiles and warp
// traces, most of its bytes; the shipped recording's take about half a second to parse) read on
// the job runner, not in a frame. A panel asks ready() each frame before it calls
// profiling::sources_of or traces_of, and shows progress() while it is false: the frames go on
// while the bulk is read.

#include <chrono>
#include <memory>
#include <string>

#include "app/gui/jobs/job_runner.h"
#include "profiling/recording.h"

namespace tclens::gui {

struct AppContext;

class BulkRead {
  public:
    // True when `recording` defers nothing or its bulk has been read: sources_of and traces_of
    // return at once. Else false, the read posted to context.jobs (once per bulk).
    bool ready(AppContext& context, const profiling::Recording& recording);
    // One line while the read is queued or running: what is read and for how long so far, or how
    // many jobs run before it.
    std::string progress() const;

  private:
    std::weak_ptr<const profiling::RecordingBulk> posted_;  // the bulk the job reads
    JobHandle job_;
    std::chrono::steady_clock::time_point posted_at_;
};

}  // namespace tclens::gui
