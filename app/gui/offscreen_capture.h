#pragma once
// Renders one panel, alone, into an offscreen framebuffer and writes it as a PNG
// (`tclens screenshot`): the same drawing code as on screen, without showing a window.

#include <string>
#include <string_view>

namespace tclens::gui {

struct CaptureRequest {
    std::string view;  // a panel id, e.g. "device"
    int width = 1280;
    int height = 800;
    std::string out_path;
};

// Returns an exit code; prints one line to stderr on failure (unknown view: kExitUsage;
// no display: kExitNeedsResource; write failure: kExitFailure).
int capture_view(const CaptureRequest& request);

}  // namespace tclens::gui
