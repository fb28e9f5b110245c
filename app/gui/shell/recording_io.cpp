#include "app/gui/shell/recording_io.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/open_recordings.h"
#include "app/gui/shell/config_folder.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/recording_view.h"
#include "common/atomic_file.h"

namespace tclens::gui {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kRecentCount = 8;
constexpr const char* kOpenPopup = "Open recording";
constexpr const char* kSavePopup = "Save recording as";

}  // namespace

JobHandle request_save_recording(AppContext& context, std::string path) {
    // The snapshots as this frame sees them; the job merges and writes them.
    const auto open = context.recording.latest();
    const auto system = context.system.latest();
    const auto bench = context.bench_results.latest();
    const auto live = context.live_profile.latest();
    const auto yours = context.user_kernels.latest();
    const auto hello = context.worker_hello.latest();
    return context.jobs.post("Save recording", [&context, path, open, system, bench, live, yours,
                                                hello](JobProgress& progress) {
        std::optional<profiling::Recording> recording =
            session_recording(open ? &open->recording : nullptr, system.get(), bench.get(),
                              live.get(), profiling::utc_now(), yours.get(), hello.get());
        if (!recording)
            throw std::runtime_error(
                "nothing to save: no recording is open and "
                "nothing was measured");
        progress.report(0.0f, "writing " + path);
        const std::string error = profiling::save_recording(path, *recording);
        if (!error.empty()) throw std::runtime_error(error);
        auto saved = std::make_shared<OpenRecording>();
        saved->path = path;
        saved->recording = std::move(*recording);
        publish_open_recording(context, std::move(saved));
    });
}

RecordingIo::RecordingIo() {
    const std::string file = config_file_path("recent_recordings");
    if (file.empty()) return;
    std::ifstream in(file);
    std::error_code ignored;
    for (std::string line; std::getline(in, line) && recent_.size() < kRecentCount;) {
        if (fs::is_regular_file(line, ignored)) recent_.push_back(line);  // gone files drop out
    }
}

void RecordingIo::remember(const std::string& path) {
    std::error_code ignored;
    const std::string absolute = fs::absolute(path, ignored).lexically_normal().string();
    const std::string entry = absolute.empty() ? path : absolute;
    if (!recent_.empty() && recent_.front() == entry) return;
    recent_.erase(std::remove(recent_.begin(), recent_.end(), entry), recent_.end());
    recent_.insert(recent_.begin(), entry);
    if (recent_.size() > kRecentCount) recent_.resize(kRecentCount);
    const std::string file = config_file_path("recent_recordings");
    if (file.empty()) return;
    std::string text;
    for (const std::string& recent : recent_) text += recent + "\n";
    common::write_bytes_atomically(file, text);  // best effort: a read-only home keeps no list
}

void RecordingIo::open(AppContext& context, const std::string& path, bool echo_to_stderr) {
    asked_to_open_ = true;
    request_open_recording(context, path, echo_to_stderr);
}

void RecordingIo::draw_file_menu_items() {
    if (ImGui::MenuItem("Open recording...")) open_requested_ = true;
    if (ImGui::MenuItem("Save recording as...", nullptr, false, can_save_)) save_requested_ = true;
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::SetTooltip(can_save_ ? "the bench and profile of this session, else the open "
                                      "recording, as a recording file"
                                    : "nothing to save yet: open a recording, or run a bench or "
                                      "a profile");
    }
    if (ImGui::BeginMenu("Open recent", !recent_.empty())) {
        for (const std::string& path : recent_) {
            if (ImGui::MenuItem(path.c_str())) {
                std::snprintf(path_buffer_.data(), path_buffer_.size(), "%s", path.c_str());
                pending_open_ = path;
            }
        }
        ImGui::EndMenu();
    }
    ImGui::Separator();
}

void RecordingIo::draw_path_popup(AppContext& context, bool saving) {
    const char* title = saving ? kSavePopup : kOpenPopup;
    ImGui::SetNextWindowSize(ImVec2(em_width(43), 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted(saving ? "Write the recording to (JSON, replaced atomically):"
                                  : "Recording file (written by tclens record), or drop one on "
                                    "the window:");
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    next_item_width(40);
    bool confirmed = ImGui::InputText("##path", path_buffer_.data(), path_buffer_.size(),
                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (!saving && !recent_.empty()) {
        ImGui::TextDisabled("recent:");
        for (const std::string& path : recent_) {
            if (ImGui::Selectable(path.c_str())) {
                std::snprintf(path_buffer_.data(), path_buffer_.size(), "%s", path.c_str());
                confirmed = true;
            }
        }
    }
    const std::string path = path_buffer_.data();
    if (path.empty()) ImGui::BeginDisabled();
    confirmed = ImGui::Button(saving ? "Save" : "Open") || confirmed;
    if (path.empty()) ImGui::EndDisabled();
    ImGui::SameLine();
    const bool cancelled = ImGui::Button("Cancel") || ImGui::IsKeyPressed(keys::kEscape);
    if (confirmed && !path.empty()) {
        if (saving) {
            request_save_recording(context, path);
        } else {
            open(context, path);
        }
        ImGui::CloseCurrentPopup();
    } else if (cancelled) {
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void RecordingIo::draw(AppContext& context) {
    const auto opened = context.recording.latest();
    if (opened && opened != last_opened_) remember(opened->path);
    last_opened_ = opened;
    can_save_ = session_has_recording(
        opened ? &opened->recording : nullptr, context.system.latest().get(),
        context.bench_results.latest().get(), context.live_profile.latest().get(),
        context.user_kernels.latest().get());

    if (!pending_open_.empty()) {
        open(context, pending_open_);
        pending_open_.clear();
    }
    if (open_requested_) {
        if (path_buffer_[0] == '\0' && !recent_.empty()) {
            std::snprintf(path_buffer_.data(), path_buffer_.size(), "%s", recent_.front().c_str());
        }
        ImGui::OpenPopup(kOpenPopup);
        open_requested_ = false;
    }
    if (save_requested_) {
        if (path_buffer_[0] == '\0') {
            std::snprintf(path_buffer_.data(), path_buffer_.size(), "recording.json");
        }
        ImGui::OpenPopup(kSavePopup);
        save_requested_ = false;
    }
    draw_path_popup(context, false);
    draw_path_popup(context, true);

    const std::string shipped =
        start_up_.weigh(context.system.latest(), asked_to_open_ || opened != nullptr);
    if (!shipped.empty()) request_open_recording(context, shipped);
}

}  // namespace tclens::gui
