// `tclens screenshot --view V --out F.png [--size WxH]`: one panel rendered offscreen to PNG.

#include <CLI/CLI.hpp>

#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/size_arg.h"
#include "app/exit_codes.h"
#include "app/gui/offscreen_capture.h"
#include "app/gui/panel_registry.h"

namespace tclens::cli {

void add_screenshot_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "screenshot", "Render one view offscreen to a PNG (views: " + gui::panel_ids_text() + ")");
    struct Options {
        std::string view, out, size = "1280x800";
        std::vector<std::string> settings;
        int frames = 4;
        bool frame_stats = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--view", options->view, "View to render")->required();
    command->add_option("--out", options->out, "PNG file to write")->required();
    command->add_option("--size", options->size, "Image size WxH")->capture_default_str();
    command->add_option("--set", options->settings,
                        "View setting KEY=VALUE, e.g. layout=ldmatrix.x4 (repeatable)");
    command->add_option("--frames", options->frames, "Frames to draw before capturing the last")
        ->check(CLI::Range(2, 100000))
        ->capture_default_str();
    command->add_flag("--frame-stats", options->frame_stats,
                      "Print frame-time statistics of those frames");
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
        request.view = options->view;
        request.width = size->width;
        request.height = size->height;
        request.out_path = options->out;
        request.settings = options->settings;
        request.frames = options->frames;
        request.frame_stats = options->frame_stats;
        exit_code = gui::capture_view(request);
    });
}

}  // namespace tclens::cli
