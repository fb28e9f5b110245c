#include "app/gui/shell/headless_shell.h"

#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/exit_codes.h"
#include "app/gui/jobs/app_context.h"
#include "app/gui/shell/layout_settle.h"
#include "app/gui/shell/shell_frame.h"
#include "common/atomic_file.h"

namespace tclens::gui {
namespace {

using Clock = std::chrono::steady_clock;

// With --text, how long the frames may go on past --frames for the app's jobs to end and the
// layout to settle (a kernel of yours compiled and run in the worker takes seconds).
constexpr double kMaxSettleSeconds = 60;

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// An ImGui context with no platform or renderer: the font atlas is built (text needs its
// glyph metrics) but never uploaded anywhere.
class NullBackend {
  public:
    NullBackend(int width, int height) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.LogFilename = nullptr;
        io.BackendPlatformName = "tclens-headless";
        io.DisplaySize = ImVec2(float(width), float(height));
        unsigned char* pixels = nullptr;
        int atlas_width = 0, atlas_height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &atlas_width, &atlas_height);
        io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(std::intptr_t{1}));
        ImGui::StyleColorsDark();
    }
    ~NullBackend() { ImGui::DestroyContext(); }
    NullBackend(const NullBackend&) = delete;
    NullBackend& operator=(const NullBackend&) = delete;
};

std::size_t vertex_count() {
    const ImDrawData* data = ImGui::GetDrawData();
    return data && data->Valid ? std::size_t(data->TotalVtxCount) : 0;
}

double p95(std::vector<double> ms) {
    if (ms.empty()) return 0;
    std::sort(ms.begin(), ms.end());
    return ms[std::size_t(0.95 * double(ms.size() - 1))];
}

}  // namespace

std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t total_pages = 0, resident_pages = 0;
    if (!(statm >> total_pages >> resident_pages)) return 0;
    return resident_pages * std::size_t(sysconf(_SC_PAGESIZE));
}

int run_headless(const HeadlessOptions& options, HeadlessReport& report, std::string& error) {
    report = {};
    if (options.frames <= 0 && options.seconds <= 0 && options.until_live_updates == 0) {
        error = "give a limit: --frames, --seconds or --until-live-updates";
        return kExitUsage;
    }
    ShellFrame shell;
    error = shell.apply_settings(options.settings);
    if (error.empty() && !options.view.empty()) error = shell.show_only(options.view);
    if (!error.empty()) return kExitUsage;

    NullBackend backend(options.width, options.height);
    AppContext context;
    request_system_query(context);
    for (const std::string& path : options.open_paths) shell.recordings().open(context, path, true);

    FrameStats stats;
    std::vector<double> period_ms;  // frame times since the previous sample
    const Clock::time_point start = Clock::now();
    Clock::time_point previous = start, next_sample = start, first_live, last_live;
    std::uint64_t last_live_updates = 0;
    const auto frame_period = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.fps > 0 ? 1.0 / options.fps : 0.0));
    // The text file's folder is checked before the first frame: the file is written (atomically)
    // only after the last.
    if (!options.text_path.empty()) {
        const std::string probe = options.text_path + ".partial";
        if (!std::ofstream(probe, std::ios::trunc)) {
            error = "cannot write " + options.text_path + ": cannot create " + probe;
            return kExitFailure;
        }
        std::filesystem::remove(probe);
    }
    shell.capture_text = !options.until_text.empty();
    LayoutSettle settle;
    bool text_seen = false;

    Clock::time_point frames_reached{};  // when the frame limit was reached (settling since)
    for (std::uint64_t frame = 0;; ++frame) {
        const Clock::time_point frame_start = Clock::now();
        const bool past_frames = options.frames > 0 && frame + 1 >= std::uint64_t(options.frames);
        if (past_frames && frames_reached == Clock::time_point{}) frames_reached = frame_start;
        const bool frames_done =
            past_frames && (options.text_path.empty() || settle.settled() ||
                            seconds_between(frames_reached, frame_start) >= kMaxSettleSeconds);
        const bool time_done =
            options.seconds > 0 && seconds_between(start, frame_start) >= options.seconds;
        const bool live_done =
            options.until_live_updates > 0 && last_live_updates >= options.until_live_updates;
        const bool last =
            frames_done || time_done || live_done || text_seen || shell.quit_requested();
        if (last && !options.text_path.empty()) shell.capture_text = true;

        stats.begin_frame();
        ImGuiIO& io = ImGui::GetIO();
        io.DeltaTime = float(std::max(seconds_between(previous, frame_start), 1e-4));
        previous = frame_start;
        ImGui::NewFrame();
        shell.draw(context);
        ImGui::Render();
        stats.end_frame();
        period_ms.push_back(seconds_between(frame_start, Clock::now()) * 1e3);
        ++report.frames;
        settle.saw(context.jobs.wait_idle(std::chrono::milliseconds(0)), shell.layout());
        text_seen = !options.until_text.empty() &&
                    shell.captured_text().find(options.until_text) != std::string::npos;

        if (const auto live = context.live_profile.latest()) {
            if (live->updates != last_live_updates) {
                const Clock::time_point now = Clock::now();
                if (report.live_snapshots_seen == 0) first_live = now;
                last_live = now;
                ++report.live_snapshots_seen;
                last_live_updates = live->updates;
            }
            report.live_updates = live->updates;
            report.live_job_updates_per_s = live->updates_per_s;
            report.live_error = live->error;
            report.live_kernel_updates.clear();
            for (const KernelLive& kernel : live->kernels) {
                report.live_kernel_updates.emplace_back(kernel.kernel_id, kernel.updates);
            }
        }
        const Clock::time_point now = Clock::now();
        if (now >= next_sample || last) {
            HeadlessSample sample;
            sample.t_s = seconds_between(start, now);
            sample.frames = report.frames;
            sample.frame_p95_ms = p95(period_ms);
            sample.live_updates = report.live_updates;
            sample.rss_bytes = resident_bytes();
            report.samples.push_back(sample);
            if (report.samples.size() == 2) report.rss_after_warm_up_bytes = sample.rss_bytes;
            period_ms.clear();
            next_sample = now + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(options.sample_every_s));
        }
        if (last) break;
        if (frame_period.count() > 0) std::this_thread::sleep_until(frame_start + frame_period);
    }
    context.jobs.cancel_all();

    report.wall_s = seconds_between(start, Clock::now());
    report.frame_times = stats.times();
    report.vertices_last_frame = vertex_count();
    report.rss_end_bytes = resident_bytes();
    if (report.rss_after_warm_up_bytes == 0 && !report.samples.empty()) {
        report.rss_after_warm_up_bytes = report.samples.front().rss_bytes;
    }
    if (report.live_snapshots_seen > 1) {
        report.live_seen_per_s =
            double(report.live_snapshots_seen - 1) / seconds_between(first_live, last_live);
    }
    if (!options.text_path.empty()) {
        error = common::write_bytes_atomically(options.text_path, shell.captured_text());
        if (!error.empty()) return kExitFailure;
    }
    return kExitOk;
}

}  // namespace tclens::gui
