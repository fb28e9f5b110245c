#include "app/gui/jobs/open_recordings.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "app/asset_paths.h"
#include "app/gui/jobs/app_context.h"

namespace tclens::gui {
namespace {

constexpr const char* kShippedRecording = "recordings/h200.json.gz";

// Serialises the read-modify-write of context.recordings (the job runner opens and saves, the UI
// thread closes).
std::mutex& recordings_mutex() {
    static std::mutex mutex;
    return mutex;
}

}  // namespace

std::string shipped_recording_path() { return asset_path(kShippedRecording); }

std::string start_up_recording_path(bool has_gpu, bool asked_for) {
    return has_gpu || asked_for ? "" : shipped_recording_path();
}

std::string StartUpRecording::weigh(const std::shared_ptr<const profiling::SystemReport>& system,
                                    bool open_or_asked_for) {
    if (open_or_asked_for || !system || system == weighed_) return "";
    weighed_ = system;
    return start_up_recording_path(system->has_gpu(), false);
}

void publish_open_recording(AppContext& context, std::shared_ptr<const OpenRecording> opened) {
    std::lock_guard lock(recordings_mutex());
    auto recordings = std::make_shared<OpenRecordings>();
    if (const auto open = context.recordings.latest()) recordings->list = open->list;
    const auto same = std::find_if(recordings->list.begin(), recordings->list.end(),
                                   [&](const auto& r) { return r->path == opened->path; });
    if (same != recordings->list.end()) {
        *same = opened;
    } else {
        recordings->list.push_back(opened);
    }
    context.recordings.publish(std::move(recordings));
    context.recording.publish(std::move(opened));
}

std::string open_recording_now(AppContext& context, const std::string& path,
                               const std::atomic<bool>* cancel) {
    auto opened = std::make_shared<OpenRecording>();
    opened->path = path;
    std::string error;
    // Source profiles and traces are read when the Source or Timeline panel first asks.
    if (!profiling::load_recording_deferring_bulk(path, opened->recording, error, cancel)) {
        return error;
    }
    publish_open_recording(context, std::move(opened));
    return "";
}

void close_recording(AppContext& context, const std::string& path) {
    std::lock_guard lock(recordings_mutex());
    const auto open = context.recordings.latest();
    if (!open) return;
    auto recordings = std::make_shared<OpenRecordings>(*open);
    const auto gone = std::remove_if(recordings->list.begin(), recordings->list.end(),
                                     [&](const auto& r) { return r->path == path; });
    if (gone == recordings->list.end()) return;
    recordings->list.erase(gone, recordings->list.end());
    const auto current = context.recording.latest();
    if (current && current->path == path) {
        context.recording.publish(recordings->list.empty() ? nullptr : recordings->list.back());
    }
    context.recordings.publish(std::move(recordings));
}

JobHandle request_open_recording(AppContext& context, std::string path, bool echo_to_stderr) {
    return context.jobs.post(
        "Open recording", [&context, path, echo_to_stderr](JobProgress& progress) {
            progress.report(0.0f, "reading " + path);
            const std::string error = open_recording_now(context, path, &progress.cancel_flag());
            if (progress.cancelled()) return;  // the app is closing
            if (error.empty()) return;
            if (echo_to_stderr) std::fprintf(stderr, "tclens: %s\n", error.c_str());
            throw std::runtime_error(error);
        });
}

}  // namespace tclens::gui
