#pragma once
// File > Open kernel...: a path entry (Dear ImGui 1.86 has no file dialog) for a kernel of yours
// (docs/your-kernel.md: path.cu[:NAME][:TYPE]); a .cu or .cuh dropped on the window goes the
// same way. What is opened is a panel link (user_kernel_link: exercises to Fragments, other
// kernels to the Kernels panel's "yours" group), which the shell follows. A ref that is no
// kernel ref is one line in the dialog, and nothing else changes.

#include <array>
#include <optional>
#include <string>

#include "app/gui/panels/panel_settings.h"

namespace tclens::gui {

class KernelOpenDialog {
  public:
    // Inside the open File menu.
    void draw_menu_item();
    // Opens the dialog from the next draw(), as the menu item does.
    void request_open() { open_requested_ = true; }
    // The dialog while it is open; returns the link of the kernel confirmed this frame.
    std::optional<PanelLink> draw();

  private:
    bool open_requested_ = false;
    std::array<char, 1024> path_{};
    std::string error_;  // why the last path was refused, one line
};

}  // namespace tclens::gui
