// `tclens screenshot --view V --out F.png [--size WxH]`: one panel rendered offscreen to PNG;
// `--window` the whole app as a user sees it; `--lecture` in lecture mode's look, `--tour-step N`
// as step N of a tour with its caption.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/content_scale_arg.h"
#include "app/cli/size_arg.h"
#include "app/exit_codes.h"
#include "app/gui/panels/panel_registry.h"
#include "app/gui/shell/offscreen_capture.h"
#include "app/gui/shell/tour.h"

namespace tclens::cli {

void add_screenshot_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "screenshot",
        "Render one view, or the whole window (--window), offscreen to a PNG (views: " +
            gui::panel_ids_text() + ")");
    struct Options {
        std::string view, out, size = "1280x800";
        std::vector<std::string> settings;
        int frames = 4;
        bool frame_stats = false;
        std::vector<std::string> open;
        bool lecture = false;
        std::string tour;
        int tour_step = 0;
        bool window = false;
        std::string layout_json;
        float content_scale = 1.0f;
    };
    auto options = std::make_shared<Options>();
    auto* view = command->add_option("--view", options->view, "View to render (or --tour-step)");
    command->add_option("--out", options->out, "PNG file to write")->required();
    command->add_option("--size", options->size, "Image size WxH")->capture_default_str();
    command->add_option("--set", options->settings,
                        "View setting KEY=VALUE, e.g. layout=ldmatrix.x4 (repeatable)");
    command->add_option("--frames", options->frames, "Frames to draw before capturing the last")
        ->check(CLI::Range(2, 100000))
        ->capture_default_str();
    command->add_flag("--frame-stats", options->frame_stats,
                      "Print frame-time statistics of those frames");
    command
        ->add_option("--open", options->open,
                     "Recording to open first (written by tclens record), as `tclens --open`; "
                     "repeatable")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command->add_flag("--lecture", options->lecture,
                      "Lecture mode's look: zoom 150%, high contrast (or --set "
                      "lecture.zoom=100..300, --set lecture.theme=dark|high-contrast)");
    command
        ->add_option("--tour-step", options->tour_step,
                     "Render step N of the tour instead of --view: its view, settings, caption")
        ->check(CLI::PositiveNumber)
        ->excludes(view);
    command->add_option("--tour", options->tour,
                        "Tour file for --tour-step (default: the shipped one)");
    command
        ->add_flag("--window", options->window,
                   "The whole app as a user sees it: menu, rail, main area, status bar; --set "
                   "takes PANEL.KEY=VALUE and workspace.KEY=VALUE, --view shows that view alone")
        ->excludes("--tour-step");
    add_content_scale_option(*command, options->content_scale,
                             "Draw as on a monitor of this content scale")
        ->capture_default_str();
    command->add_option("--layout-json", options->layout_json,
                        "Write the window rectangles and what of each drawing is shown as JSON to "
                        "this file (with --window the whole app's)");
    command->callback([options, &exit_code] {
        const auto size = parse_image_size(options->size);
        if (!size) {
            std::fprintf(stderr,
                         "tclens: --size '%s' is not WxH with W and H in %d..%d (e.g. 1280x800)\n",
                         options->size.c_str(), kMinImageSide, kMaxImageSide);
            exit_code = kExitUsage;
            return;
        }
        gui::CaptureRequest request;
        request.whole_window = options->window;
        request.layout_json_path = options->layout_json;
        request.view = options->view;
        request.width = size->width;
        request.height = size->height;
        request.out_path = options->out;
        request.settings = options->settings;
        request.frames = options->frames;
        request.frame_stats = options->frame_stats;
        request.content_scale = options->content_scale;
        request.open_paths = options->open;
        if (options->lecture) request.lecture = gui::lecture_on_settings();
        std::string error = gui::take_lecture_settings(request.settings, request.lecture);
        if (error.empty() && options->tour_step > 0) {
            gui::TourStep step;
            const std::string tour =
                options->tour.empty() ? gui::default_tour_path() : options->tour;
            error = gui::load_tour_step(tour, options->tour_step, step, request.caption_counter);
            request.view = step.view;
            request.caption = step.caption;
            request.tour_step = true;  // as the app shows it: steps 6-9 show the recording
            request.settings.insert(request.settings.begin(), step.settings.begin(),
                                    step.settings.end());
        } else if (error.empty() && request.view.empty() && !request.whole_window) {
            error = "screenshot needs --view V, --window or --tour-step N (views: " +
                    gui::panel_ids_text() + ")";
        }
        if (!error.empty()) {
            std::fprintf(stderr, "tclens: %s\n", error.c_str());
            exit_code = kExitUsage;
            return;
        }
        exit_code = gui::capture_view(request);
    });
}

}  // namespace tclens::cli
