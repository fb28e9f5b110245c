#pragma once
// A GLFW window with an OpenGL 3.3 core context and a Dear ImGui context bound to it.
// Shared by the interactive shell and the offscreen screenshot renderer.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/shell/key_chord.h"
#include "app/gui/shell/pointer_moves.h"
#include "app/gui/shell/workspace.h"

struct GLFWwindow;

namespace tclens::gui {

struct GuiRuntimeOptions {
    const char* title = "tclens";
    int width = 1440;
    int height = 900;
    bool visible = true;   // false: hidden until show(), or for good (offscreen rendering)
    std::string ini_path;  // where ImGui keeps window placement; "" keeps nothing
    // > 0: content_scale() returns this instead of the monitor's (`--content-scale`: tests, and
    // displays that report a wrong one).
    float content_scale = 0;
};

class GuiRuntime {
  public:
    // Opens the window and ImGui; on failure returns nullptr and sets `error` to one line
    // that names the cause (e.g. no display) and the fix.
    static std::unique_ptr<GuiRuntime> open(const GuiRuntimeOptions& options, std::string& error);
    ~GuiRuntime();
    GuiRuntime(const GuiRuntime&) = delete;
    GuiRuntime& operator=(const GuiRuntime&) = delete;

    GLFWwindow* window() const { return window_; }
    // Shows the window on the primary monitor: `remembered` centred in its work area where it
    // fits, else filling (and maximised to) the work area.
    void show(WindowSize remembered);
    // The window size to remember for the next start: {0, 0} while it fills the work area or is
    // maximised; nullopt in full screen (keep what was remembered before).
    std::optional<WindowSize> size_to_remember() const;
    // Presses (`down`) or releases the chord's key and its modifiers as a keyboard would: through
    // the GLFW backend's key callback, so ImGui and everything reading it (the shell's, the
    // workspace's and the tour's keys) sees an ordinary key event. Call between frames.
    void key_event(const KeyChord& chord, bool down);
    // Moves the mouse pointer to window pixel `to` as a mouse would (the window system's pointer,
    // which the GLFW backend reads each frame), and tells the backend the pointer is in the
    // window (a window without focus under a bare X server reads it only then). Call between
    // frames.
    void move_pointer(PointerPosition to);
    // Starts an ImGui frame (ImGui::NewFrame included). With width and height > 0 the frame is
    // laid out for that size instead of the window's (offscreen rendering).
    void begin_frame(int width = 0, int height = 0);
    // Renders the ImGui frame into the currently bound framebuffer.
    void render_frame();
    // Call between frames after rebuilding ImGui's font atlas (lecture mode's zoom): the GL
    // objects, font texture included, are made again at the next begin_frame().
    void fonts_changed();
    // Paths of the files dropped on the window since the last call, in drop order.
    std::vector<std::string> take_dropped_paths();
    // The window's content scale (glfwGetWindowContentScale: 2 on a 4K monitor set to 200 %),
    // kept up to date as the window moves between monitors or the setting changes, less what
    // the window system scales itself (a framebuffer larger than the window: macOS, Wayland);
    // or GuiRuntimeOptions::content_scale when that is set.
    float content_scale() const;

  private:
    GuiRuntime() = default;
    // Points the window's user pointer at events_ and installs the callbacks that fill it.
    void watch_window_events();
    GLFWwindow* window_ = nullptr;
    std::string ini_path_;  // ImGui keeps a pointer to it
    bool imgui_ready_ = false;
    int work_width_ = 0, work_height_ = 0;  // the work area show() filled or centred in
    float forced_scale_ = 0;                // GuiRuntimeOptions::content_scale
    // Filled by GLFW's callbacks, which find it through the window's user pointer.
    struct WindowEvents {
        std::vector<std::string> dropped_paths;
        float content_scale = 1.0f;
    } events_;
};

}  // namespace tclens::gui
