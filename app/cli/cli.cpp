#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/asset_paths.h"
#include "app/cli/commands.h"
#include "app/cli/content_scale_arg.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/client.h"
#include "common/one_line.h"
#include "kernels/fault_injection.h"
#include "profiling/device_info.h"
#include "tclens_commit.h"
#include "tclens_version.h"
#if TCLENS_WITH_GUI
#include "app/gui/shell/gui_shell.h"
#endif

namespace tclens::cli {
namespace {

// The CUDA versions and GPUs of this machine as its worker's hello names them (this process asks
// no CUDA; $TCLENS_WORKER says which worker runs). A worker that does not answer is one line
// here: --version never fails for it.
void print_worker_system() {
    worker::WorkerClient client;
    const worker::Reply hello = client.connect();
    if (!hello.ok()) {
        std::printf("CUDA runtime, driver and GPUs: unknown (%s)\n",
                    common::one_line(hello.message).c_str());
        return;
    }
    const profiling::SystemReport& report = client.worker().system;
    std::printf("%s\n", profiling::versions_summary(report).c_str());
    if (!report.has_gpu()) {
        std::printf("GPU: none found (%s)\n", report.no_gpu_reason.c_str());
    }
    for (const auto& d : report.devices) {
        std::printf("GPU %d: %s (sm_%d%d, %d SMs)\n", d.index, d.name.c_str(), d.cc_major,
                    d.cc_minor, d.sm_count);
    }
}

void print_version() {
    std::printf("tclens %s\n", TCLENS_VERSION);
    std::printf("commit: %s\n", TCLENS_COMMIT);
    print_worker_system();
    const std::string assets = assets_dir();
    std::printf("assets: %s\n",
                assets.empty() ? "none found (no shipped recording or tour)" : assets.c_str());
}

}  // namespace

int run_cli(int argc, char** argv, AddCommand add_worker) {
    CLI::App app{
        "tclens: learn, teach and profile NVIDIA Tensor Core matrix multiplication.\n"
        "With no subcommand it opens the GUI.",
        "tclens"};
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version,
                 "Print version, CUDA runtime and driver and GPUs (as this machine's worker finds "
                 "them), where the assets are");
#if TCLENS_WITH_GUI
    gui::GuiShellOptions gui_options;
    app.add_option("--frames", gui_options.frames,
                   "Open the GUI, render N frames, exit 0 (for tests)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--seconds", gui_options.seconds,
                   "Open the GUI, run S seconds (wall clock), exit 0 (for soaks)")
        ->check(CLI::Range(0.1, 86400.0));
    app.add_option("--set", gui_options.settings,
                   "Panel setting PANEL.KEY=VALUE, e.g. fragments.layout=ldmatrix.x4, or the "
                   "workspace's, e.g. workspace.view=banks, workspace.split=fragments,beside, "
                   "or connect.to=[user@]host[:path] as File > Connect to GPU server... does "
                   "(repeatable)");
    app.add_option("--press", gui_options.press,
                   "Open the GUI and press these keys one after another from the third frame, "
                   "e.g. ctrl+3,ctrl+backslash (scripts, tests)");
    app.add_option("--mouse", gui_options.mouse,
                   "Open the GUI and move the mouse pointer to these window pixels X:Y one after "
                   "another from the third frame, e.g. 640:2,640:650 (tests)");
    app.add_option("--layout-json", gui_options.layout_json_path,
                   "Open the GUI and, on exit, write the last frame's window rectangles as JSON; "
                   "with --frames, the frames go on until the layout has settled (tests)");
    add_content_scale_option(
        app, gui_options.content_scale,
        "Open the GUI with fonts and sizes for this content scale instead of the monitor's");
    app.add_option("--text", gui_options.text_path,
                   "Open the GUI and, on exit, write the text the shown panels drew in the last "
                   "frame to this file (tests)");
    app.add_flag("--frame-stats", gui_options.frame_stats,
                 "Print frame-time statistics, the run's length and the tour's progress on exit "
                 "(vsync off)");
    app.add_option("--open", gui_options.open_paths,
                   "Open the GUI with this recording (written by tclens record; repeatable: "
                   "Compare holds runs of each, the other panels show the last)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_flag("--lecture", gui_options.lecture,
                 "Open the GUI in lecture mode (full screen, zoom 150%, high contrast; F11 "
                 "toggles) and start the tour (the shipped one unless --tour)");
    app.add_option("--tour", gui_options.tour_path,
                   "Open the GUI and start the tour in FILE (steps through views with captions; "
                   "see assets/tour.json)");
    app.add_option("--tour-autoplay", gui_options.tour_autoplay_s,
                   "Advance the tour every SECONDS, looping (the shipped tour unless --tour)")
        ->check(CLI::Range(0.5, 3600.0));
    add_remote_option(app, gui_options.remote);
    app.add_option("--until-tour-changes", gui_options.until_tour_changes,
                   "Open the GUI, exit 0 once the tour has changed step N times, its start "
                   "included (tests; --seconds still limits the run)")
        ->check(CLI::Range(1, 1000000));
#endif

    int exit_code = kExitOk;
    add_banks_command(app, exit_code);
    add_bench_command(app, exit_code);
    add_device_command(app, exit_code);
    add_exercise_command(app, exit_code);
    add_kernels_command(app, exit_code);
    add_layout_command(app, exit_code);
    add_profile_command(app, exit_code);
    add_record_command(app, exit_code);
    add_source_command(app, exit_code);
    add_tilemap_command(app, exit_code);
    add_trace_command(app, exit_code);
    add_watch_command(app, exit_code);
    add_worker(app, exit_code);
#if TCLENS_WITH_GUI
    add_screenshot_command(app, exit_code);
#endif
#if TCLENS_WITH_GUI_CORE
    add_headless_command(app, exit_code);
    add_compare_command(app, exit_code);
#endif

    if (const std::string bad = kernels::fault_variable_error(); !bad.empty()) {
        std::fprintf(stderr, "tclens: %s\n", bad.c_str());
        return kExitUsage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::CallForAllHelp& help) {
        return app.exit(help);
    } catch (const CLI::ParseError& error) {
        std::fprintf(stderr, "tclens: %s (see tclens --help)\n", error.what());
        return kExitUsage;
    }
    if (version) {
        print_version();
        return kExitOk;
    }
    if (!app.get_subcommands().empty()) return exit_code;
#if TCLENS_WITH_GUI
    return gui::run_gui_shell(gui_options);
#else
    std::fprintf(stderr,
                 "tclens: this build has no GUI (TCLENS_GUI=OFF); give a subcommand "
                 "(see tclens --help)\n");
    return kExitUsage;
#endif
}

}  // namespace tclens::cli
