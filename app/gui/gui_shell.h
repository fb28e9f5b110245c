#pragma once
// The interactive app: main menu, one window per visible panel, status bar, shortcuts.

namespace tclens::gui {

struct GuiShellOptions {
    int frames = 0;  // > 0: render this many frames, then exit 0 (tests, smoke checks)
};

// Runs until the window closes; returns the process exit code. With no display it prints
// one line with the fix to stderr and returns kExitNeedsResource.
int run_gui_shell(const GuiShellOptions& options);

}  // namespace tclens::gui
