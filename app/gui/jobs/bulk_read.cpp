#include "app/gui/jobs/bulk_read.h"

#include <cstdio>

#include "app/gui/jobs/app_context.h"

namespace tclens::gui {

bool BulkRead::ready(AppContext& context, const profiling::Recording& recording) {
    const std::shared_ptr<const profiling::RecordingBulk>& bulk = recording.bulk;
    if (!bulk || bulk->is_read()) return true;
    if (posted_.lock() != bulk || !job_.snapshot().active()) {
        posted_ = bulk;
        posted_at_ = std::chrono::steady_clock::now();
        // The job holds the bulk: closing the recording meanwhile frees it after the read.
        job_ = context.jobs.post("read the recording's traces and sources",
                                 [bulk](JobProgress&) { bulk->traces(); });
    }
    return false;
}

std::string BulkRead::progress() const {
    const JobSnapshot job = job_.snapshot();
    if (job.state == JobState::kQueued) {
        return "The recording's traces and source profiles are read next (" +
               std::to_string(job.ahead) + (job.ahead == 1 ? " job" : " jobs") + " ahead).";
    }
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - posted_at_;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", waited.count());
    return std::string("Reading the recording's traces and source profiles (once): ") + seconds;
}

}  // namespace tclens::gui
