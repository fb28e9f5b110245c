#include "app/gui/shell/gui_shell.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "app/exit_codes.h"
#include "app/gui/jobs/app_context.h"
#include "app/gui/shell/config_folder.h"
#include "app/gui/shell/frame_stats.h"
#include "app/gui/shell/full_screen.h"
#include "app/gui/shell/gui_runtime.h"
#include "app/gui/shell/key_chord.h"
#include "app/gui/shell/layout_report.h"
#include "app/gui/shell/layout_settle.h"
#include "app/gui/shell/pointer_moves.h"
#include "app/gui/shell/shell_frame.h"
#include "app/gui/shell/tour_overlay.h"
#include "app/gui/shell/welcome_strip.h"
#include "app/gui/shell/workspace_settings.h"
#include "app/gui/views/lecture_mode.h"
#include "common/atomic_file.h"
#include "kernels/user/kernel_ref.h"

namespace tclens::gui {
namespace {

constexpr int kFirstPressFrame = 3;  // the window and the remembered layout have settled

std::vector<std::string> workspace_settings_of(const std::vector<std::string>& settings) {
    std::vector<std::string> picked;
    for (const std::string& setting : settings) {
        if (setting.rfind("workspace.", 0) == 0) picked.push_back(setting);
    }
    return picked;
}

// The command line's settings (`--set`, lecture mode's among them) and key presses, checked
// before a window opens: "" or the one-line error. `settings` keeps the panels' and workspace's.
std::string read_start_options(const GuiShellOptions& options, ShellFrame& shell,
                               std::vector<std::string>& settings,
                               LectureSettings& lecture_settings, std::vector<KeyChord>& presses,
                               std::vector<PointerPosition>& pointer_moves) {
    settings = options.settings;
    lecture_settings = options.lecture ? lecture_on_settings() : LectureSettings{};
    std::string error = take_lecture_settings(settings, lecture_settings);
    if (error.empty()) error = shell.apply_settings(settings);
    if (error.empty() && !options.press.empty()) {
        if (std::string bad = parse_key_chords(options.press, presses); !bad.empty()) {
            error = "--press: " + bad;
        }
    }
    if (error.empty() && !options.mouse.empty()) {
        if (std::string bad = parse_pointer_positions(options.mouse, pointer_moves); !bad.empty()) {
            error = "--mouse: " + bad;
        }
    }
    return error;
}

// Files dropped on the window: a .cu or .cuh is a kernel of yours; anything else is taken for a
// recording.
void open_dropped_files(GuiRuntime& runtime, ShellFrame& shell, AppContext& context) {
    for (const std::string& path : runtime.take_dropped_paths()) {
        if (kernels::user::parse_kernel_ref(path)) {
            shell.open_kernel(path);
        } else {
            shell.recordings().open(context, path);
        }
    }
}

// Clears the window in the theme's colour, renders what ImGui drew and shows it.
void present_frame(GuiRuntime& runtime, const LectureMode& lecture) {
    int width = 0, height = 0;
    glfwGetFramebufferSize(runtime.window(), &width, &height);
    glViewport(0, 0, width, height);
    const auto clear = lecture.clear_colour();
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    runtime.render_frame();
    glfwSwapBuffers(runtime.window());
}

// What the welcome strip's choice opens (welcome_strip.h).
void follow_welcome(WelcomeChoice choice, ShellFrame& shell, TourOverlay& tour) {
    switch (choice) {
        case WelcomeChoice::kStartTour:
            for (const TourError& problem : tour.start()) {
                std::fprintf(stderr, "tclens: %s\n", problem.message.c_str());
            }
            break;
        case WelcomeChoice::kExplainView:
            shell.show_help();
            break;
        case WelcomeChoice::kOpenRecording:
            shell.recordings().request_open();
            break;
        case WelcomeChoice::kOpenKernel:
            shell.request_open_kernel();
            break;
        case WelcomeChoice::kDismiss:
            break;
    }
}

// `--frame-stats`: the frame times, how long the window ran, and where a tour got to.
void print_frame_stats(const FrameStats& stats, std::chrono::duration<double> ran,
                       std::chrono::duration<double> last_frame_began, const TourPlayer& player) {
    // Milliseconds cut, not rounded: a frame that began at 1.9996 s of a 2 s limit reads
    // 1.999, not 2.000.
    const auto cut_to_ms = [](double s) { return std::floor(s * 1000.0) / 1000.0; };
    std::printf("%s\nran %.3f s, the last frame began at %.3f s\n", stats.summary().c_str(),
                cut_to_ms(ran.count()), cut_to_ms(last_frame_began.count()));
    if (player.changes() > 0) {
        std::printf("tour: at step %d of %zu after %llu step changes\n", player.index() + 1,
                    player.tour().steps.size(), static_cast<unsigned long long>(player.changes()));
    }
}

}  // namespace

int run_gui_shell(const GuiShellOptions& options) {
    ShellFrame shell;  // before the runtime: the settings file is written from its workspace
    std::vector<std::string> settings;
    LectureSettings lecture_settings;
    std::vector<KeyChord> presses;
    std::vector<PointerPosition> pointer_moves;
    std::string error =
        read_start_options(options, shell, settings, lecture_settings, presses, pointer_moves);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitUsage;
    }
    GuiRuntimeOptions window_options;
    window_options.ini_path = config_file_path("imgui.ini");
    window_options.visible = false;  // shown at its size once the settings are read
    window_options.content_scale = options.content_scale;
    auto runtime = GuiRuntime::open(window_options, error);
    if (!runtime) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitNeedsResource;
    }
    install_workspace_settings(shell.workspace());
    if (!window_options.ini_path.empty()) {
        ImGui::LoadIniSettingsFromDisk(window_options.ini_path.c_str());
    }
    shell.apply_settings(workspace_settings_of(settings));  // checked above: over the remembered
    runtime->show(shell.workspace().window());
    if (options.frame_stats) glfwSwapInterval(0);
    AppContext context;
    context.worker_options.remote = options.remote;
    request_system_query(context);
    for (const std::string& path : options.open_paths) shell.recordings().open(context, path, true);
    FullScreen full_screen(runtime->window());
    LectureMode lecture(lecture_settings, {[&runtime] { runtime->fonts_changed(); },
                                           [&full_screen](bool on) { full_screen.set(on); }});
    TourOverlay tour(options.tour_path.empty() ? default_tour_path() : options.tour_path,
                     options.tour_autoplay_s);
    if (options.lecture || !options.tour_path.empty() || options.tour_autoplay_s > 0) {
        for (const TourError& problem : tour.start()) {
            std::fprintf(stderr, "tclens: %s\n", problem.message.c_str());
        }
    }
    WelcomeStrip welcome;
    std::string welcome_text;  // the strip's words in the last frame, for --text
    FrameStats stats;
    const auto started = std::chrono::steady_clock::now();
    const auto out_of_time = [&] {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
        return options.seconds > 0 && elapsed.count() >= options.seconds;
    };
    std::chrono::duration<double> last_frame_began{};
    shell.capture_text = !options.text_path.empty();
    // With --layout-json, --frames N reports the layout the window settles on after N frames
    // (waiting at most LayoutSettle::kMaxExtraSeconds more): what a user ends up seeing, not a
    // frame in which a finished job's contents have not yet moved the panes.
    LayoutSettle settle;
    const auto frames_done = [&](int frame) {
        if (options.frames <= 0 || frame < options.frames) return false;
        return options.layout_json_path.empty() || settle.settled() || !settle.may_wait();
    };

    for (int frame = 0; !shell.quit_requested() && !glfwWindowShouldClose(runtime->window());
         ++frame) {
        const bool tour_done =
            options.until_tour_changes > 0 && tour.player().changes() >= options.until_tour_changes;
        if (frames_done(frame) || out_of_time() || tour_done) break;
        last_frame_began = std::chrono::steady_clock::now() - started;
        stats.begin_frame();
        glfwPollEvents();
        open_dropped_files(*runtime, shell, context);
        const int press = frame - kFirstPressFrame;
        if (press >= 0 && std::size_t(press / 2) < presses.size()) {
            runtime->key_event(presses[std::size_t(press / 2)], press % 2 == 0);
        }
        if (press >= 0 && press % 2 == 0 && std::size_t(press / 2) < pointer_moves.size()) {
            runtime->move_pointer(pointer_moves[std::size_t(press / 2)]);
        }
        lecture.set_content_scale(runtime->content_scale());
        lecture.apply_pending();
        runtime->begin_frame();
        shell.update_presentation(lecture.presentation());
        const CaptionReserve caption = tour.update(shell.workspace(), shell.panels(), lecture);
        context.tour_playing = tour.player().active();
        shell.draw(context, caption);
        lecture.draw_frame();
        tour.draw();
        welcome_text.clear();
        if (const auto choice = welcome.draw(tour.player().active(),
                                             shell.capture_text ? &welcome_text : nullptr)) {
            follow_welcome(*choice, shell, tour);
        }
        present_frame(*runtime, lecture);
        settle.saw(context.jobs.wait_idle(std::chrono::milliseconds(0)), shell.layout());
        if (options.frame_stats) {
            glFinish();  // the frame's own cost, not the time the GPU queues it
            stats.end_frame();
        }
    }
    const std::chrono::duration<double> ran = std::chrono::steady_clock::now() - started;
    context.jobs.cancel_all();
    if (options.frame_stats) print_frame_stats(stats, ran, last_frame_began, tour.player());
    int exit_code = kExitOk;
    if (!options.layout_json_path.empty()) {
        if (error = write_layout_report(shell, options.layout_json_path); !error.empty()) {
            std::fprintf(stderr, "tclens: %s\n", error.c_str());
            exit_code = kExitFailure;
        }
    }
    if (!options.text_path.empty()) {
        if (error = common::write_bytes_atomically(options.text_path,
                                                   shell.captured_text() + welcome_text);
            !error.empty()) {
            std::fprintf(stderr, "tclens: %s\n", error.c_str());
            exit_code = kExitFailure;
        }
    }
    // Remembered as it was before any tour, at the size the window has now (ImGui writes the
    // settings file when the runtime closes).
    tour.leave(shell.workspace());
    if (const auto size = runtime->size_to_remember()) shell.workspace().remember_window(*size);
    return exit_code;
}

}  // namespace tclens::gui
