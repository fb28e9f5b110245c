#pragma once
// A GLFW window with an OpenGL 3.3 core context and a Dear ImGui context bound to it.
// Shared by the interactive shell and the offscreen screenshot renderer.

#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace tclens::gui {

struct GuiRuntimeOptions {
    const char* title = "tclens";
    int width = 1440;
    int height = 900;
    bool visible = true;
    std::string ini_path;  // where ImGui keeps window placement; "" keeps nothing
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

  private:
    GuiRuntime() = default;
    GLFWwindow* window_ = nullptr;
    std::string ini_path_;  // ImGui keeps a pointer to it
    bool imgui_ready_ = false;
    std::vector<std::string> dropped_paths_;  // filled by GLFW's drop callback
};

}  // namespace tclens::gui
