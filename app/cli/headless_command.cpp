// `tclens headless [--view V] [--set PANEL.KEY=VALUE ...] (--frames N | --seconds S |
// --until-live-updates N) [--until-text T] [--fps F] [--size WxH] [--open F] [--text F] [--json]`:
// the GUI without a window (app/gui/shell/headless_shell.h), for GPU servers with no display;
// prints what the frames measured.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/size_arg.h"
#include "app/exit_codes.h"
#include "app/gui/panels/panel_registry.h"
#include "app/gui/shell/headless_shell.h"

namespace tclens::cli {
namespace {

nlohmann::json report_json(const gui::HeadlessReport& report) {
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& s : report.samples) {
        samples.push_back({{"t_s", s.t_s},
                           {"frames", s.frames},
                           {"frame_p95_ms", s.frame_p95_ms},
                           {"live_updates", s.live_updates},
                           {"rss_bytes", s.rss_bytes}});
    }
    nlohmann::json kernel_updates = nlohmann::json::array();
    for (const auto& [id, updates] : report.live_kernel_updates) {
        kernel_updates.push_back({{"kernel", id}, {"updates", updates}});
    }
    const double growth_pct =
        report.rss_after_warm_up_bytes > 0
            ? 100.0 * (double(report.rss_end_bytes) / double(report.rss_after_warm_up_bytes) - 1.0)
            : 0.0;
    return {{"frames", report.frames},
            {"wall_s", report.wall_s},
            {"frame_ms",
             {{"frames", report.frame_times.frames},
              {"median", report.frame_times.median_ms},
              {"p95", report.frame_times.p95_ms},
              {"max", report.frame_times.max_ms}}},
            {"vertices_last_frame", report.vertices_last_frame},
            {"live",
             {{"snapshots_seen", report.live_snapshots_seen},
              {"seen_per_s", report.live_seen_per_s},
              {"updates", report.live_updates},
              {"job_updates_per_s", report.live_job_updates_per_s},
              {"error", report.live_error},
              {"kernels", kernel_updates}}},
            {"rss_bytes",
             {{"after_warm_up", report.rss_after_warm_up_bytes},
              {"end", report.rss_end_bytes},
              {"growth_pct", growth_pct}}},
            {"samples", samples}};
}

void print_text(const gui::HeadlessReport& report) {
    const auto& t = report.frame_times;
    std::printf("frames %llu in %.1f s; %zu vertices in the last frame\n",
                (unsigned long long)report.frames, report.wall_s, report.vertices_last_frame);
    if (t.frames > 0) {
        std::printf(
            "frame cost (NewFrame..Render, after warm-up): median %.2f ms, p95 %.2f ms, "
            "max %.2f ms over %zu frames\n",
            t.median_ms, t.p95_ms, t.max_ms, t.frames);
    } else {
        std::printf("frame cost: too few frames for statistics (warm-up frames are left out)\n");
    }
    if (report.live_snapshots_seen > 0 || !report.live_error.empty()) {
        std::printf("live profile: %llu updates, %llu seen by frames (%.1f/s)%s%s\n",
                    (unsigned long long)report.live_updates,
                    (unsigned long long)report.live_snapshots_seen, report.live_seen_per_s,
                    report.live_error.empty() ? "" : "; error: ", report.live_error.c_str());
    }
    std::printf("resident memory: %.1f MiB after warm-up, %.1f MiB at the end\n",
                double(report.rss_after_warm_up_bytes) / (1 << 20),
                double(report.rss_end_bytes) / (1 << 20));
}

}  // namespace

void add_headless_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "headless",
        "Run the GUI without a window (ImGui null backend) and report frame cost, live-profile "
        "updates and memory; for GPU servers with no display");
    struct Options {
        gui::HeadlessOptions run;
        std::string size = "1440x900";
        bool json = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--view", options->run.view,
                        "Show only this panel (" + gui::panel_ids_text() + ")");
    command->add_option("--set", options->run.settings,
                        "Panel setting PANEL.KEY=VALUE, e.g. profile.live=on, or connect.to=HOST "
                        "(File > Connect to GPU server...) (repeatable)");
    command->add_option("--frames", options->run.frames, "Stop after N frames")
        ->check(CLI::Range(1, 100000000));
    command->add_option("--seconds", options->run.seconds, "Stop after S seconds")
        ->check(CLI::Range(0.001, 1e7));
    command
        ->add_option("--until-live-updates", options->run.until_live_updates,
                     "Stop once the Profile panel's live job made N updates")
        ->check(CLI::Range(1, 100000000));
    command->add_option("--until-text", options->run.until_text,
                        "Stop after the first frame whose panel text holds TEXT (with --frames, "
                        "--seconds or --until-live-updates as the limit)");
    command->add_option("--fps", options->run.fps, "Pace frames to F per second (0: unpaced)")
        ->check(CLI::Range(0.0, 1000.0))
        ->capture_default_str();
    command->add_option("--size", options->size, "Display size WxH")->capture_default_str();
    command
        ->add_option("--open", options->run.open_paths,
                     "Open this recording as the GUI's --open does (the panels show it; "
                     "repeatable: Compare holds runs of each)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command->add_option("--text", options->run.text_path,
                        "Write the text the panels show in the last frame to this file (with "
                        "--frames N, frames go on until the jobs are idle and the layout settled, "
                        "at most 60 s more)");
    command
        ->add_option("--sample-every", options->run.sample_every_s,
                     "Seconds between memory / frame-time samples")
        ->check(CLI::Range(0.01, 3600.0))
        ->capture_default_str();
    command->add_flag("--json", options->json, "Print the report as JSON");
    command->callback([options, &exit_code] {
        const auto size = parse_image_size(options->size);
        if (!size) {
            std::fprintf(stderr,
                         "tclens: --size '%s' is not WxH with W and H in %d..%d (e.g. 1440x900)\n",
                         options->size.c_str(), kMinImageSide, kMaxImageSide);
            exit_code = kExitUsage;
            return;
        }
        options->run.width = size->width;
        options->run.height = size->height;
        gui::HeadlessReport report;
        std::string error;
        exit_code = gui::run_headless(options->run, report, error);
        if (exit_code != kExitOk) {
            std::fprintf(stderr, "tclens: %s\n", error.c_str());
            return;
        }
        if (options->json) {
            std::printf("%s\n", report_json(report).dump(2).c_str());
        } else {
            print_text(report);
        }
    });
}

}  // namespace tclens::cli
