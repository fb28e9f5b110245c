#include "app/gui/shell/gui_runtime.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace tclens::gui {
namespace {

std::string last_glfw_error;

void remember_glfw_error(int, const char* description) { last_glfw_error = description; }

// GLFW calls these from glfwPollEvents, on the UI thread. The window's user pointer is its
// runtime's WindowEvents.
template <typename Events>
Events* events_of(GLFWwindow* window) {
    return static_cast<Events*>(glfwGetWindowUserPointer(window));
}

std::string display_error(const std::string& what) {
    return what + (last_glfw_error.empty() ? "" : " (" + last_glfw_error + ")") +
           "; run it in a desktop session, or headless with `xvfb-run -a tclens`; "
           "the subcommands work without a display (tclens --help)";
}

}  // namespace

std::unique_ptr<GuiRuntime> GuiRuntime::open(const GuiRuntimeOptions& options, std::string& error) {
    last_glfw_error.clear();
    glfwSetErrorCallback(remember_glfw_error);
    if (!glfwInit()) {
        error = display_error("cannot open a window: no display found");
        return nullptr;
    }
    std::unique_ptr<GuiRuntime> runtime(new GuiRuntime());
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
    runtime->window_ =
        glfwCreateWindow(options.width, options.height, options.title, nullptr, nullptr);
    if (!runtime->window_) {
        error = display_error("cannot create an OpenGL 3.3 window");
        return nullptr;
    }
    glfwMakeContextCurrent(runtime->window_);
    runtime->watch_window_events();
    runtime->forced_scale_ = options.content_scale;
    glfwSwapInterval(1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    runtime->imgui_ready_ = true;
    runtime->ini_path_ = options.ini_path;
    ImGui::GetIO().IniFilename = runtime->ini_path_.empty() ? nullptr : runtime->ini_path_.c_str();
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(runtime->window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    return runtime;
}

GuiRuntime::~GuiRuntime() {
    if (imgui_ready_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

void GuiRuntime::begin_frame(int width, int height) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (width > 0 && height > 0) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
        io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    }
    ImGui::NewFrame();
}

void GuiRuntime::watch_window_events() {
    glfwSetWindowUserPointer(window_, &events_);
    glfwSetDropCallback(window_, [](GLFWwindow* window, int count, const char** paths) {
        auto* events = events_of<WindowEvents>(window);
        for (int i = 0; events && i < count; ++i) events->dropped_paths.push_back(paths[i]);
    });
    float x_scale = 1.0f, y_scale = 1.0f;
    glfwGetWindowContentScale(window_, &x_scale, &y_scale);
    events_.content_scale = x_scale;
    glfwSetWindowContentScaleCallback(window_, [](GLFWwindow* window, float x, float) {
        if (auto* events = events_of<WindowEvents>(window)) events->content_scale = x;
    });
}

std::vector<std::string> GuiRuntime::take_dropped_paths() {
    std::vector<std::string> paths;
    paths.swap(events_.dropped_paths);
    return paths;
}

float GuiRuntime::content_scale() const {
    if (forced_scale_ > 0) return forced_scale_;
    // Where the window system already counts in scaled units (macOS, Wayland: the framebuffer is
    // larger than the window), ImGui's sizes grow with it; only what is left is ours to scale.
    int window_width = 0, window_height = 0, frame_width = 0, frame_height = 0;
    glfwGetWindowSize(window_, &window_width, &window_height);
    glfwGetFramebufferSize(window_, &frame_width, &frame_height);
    const float framebuffer_scale =
        window_width > 0 && frame_width > 0 ? float(frame_width) / float(window_width) : 1.0f;
    const float scale = events_.content_scale / framebuffer_scale;
    return scale > 0 ? scale : 1.0f;
}

void GuiRuntime::render_frame() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void GuiRuntime::show(WindowSize remembered) {
    int x = 0, y = 0;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        glfwGetMonitorWorkarea(monitor, &x, &y, &work_width_, &work_height_);
    }
    if (work_width_ <= 0 || work_height_ <= 0) {
        glfwShowWindow(window_);
        return;
    }
    if (remembered.width > 0 && remembered.height > 0 && remembered.width <= work_width_ &&
        remembered.height <= work_height_) {
        glfwSetWindowSize(window_, remembered.width, remembered.height);
        glfwSetWindowPos(window_, x + (work_width_ - remembered.width) / 2,
                         y + (work_height_ - remembered.height) / 2);
        glfwShowWindow(window_);
        return;
    }
    glfwSetWindowPos(window_, x, y);
    glfwSetWindowSize(window_, work_width_, work_height_);
    glfwShowWindow(window_);
    glfwMaximizeWindow(window_);  // with a window manager: the work area less its decorations
}

std::optional<WindowSize> GuiRuntime::size_to_remember() const {
    if (glfwGetWindowMonitor(window_)) return std::nullopt;
    int width = 0, height = 0;
    glfwGetWindowSize(window_, &width, &height);
    if (glfwGetWindowAttrib(window_, GLFW_MAXIMIZED) ||
        (width >= work_width_ && height >= work_height_)) {
        return WindowSize{};
    }
    return WindowSize{width, height};
}

void GuiRuntime::key_event(const KeyChord& chord, bool down) {
    const int action = down ? GLFW_PRESS : GLFW_RELEASE;
    const int mods = (chord.ctrl ? GLFW_MOD_CONTROL : 0) | (chord.shift ? GLFW_MOD_SHIFT : 0) |
                     (chord.alt ? GLFW_MOD_ALT : 0);
    const auto modifiers = [&] {
        if (chord.ctrl) ImGui_ImplGlfw_KeyCallback(window_, GLFW_KEY_LEFT_CONTROL, 0, action, mods);
        if (chord.shift) ImGui_ImplGlfw_KeyCallback(window_, GLFW_KEY_LEFT_SHIFT, 0, action, mods);
        if (chord.alt) ImGui_ImplGlfw_KeyCallback(window_, GLFW_KEY_LEFT_ALT, 0, action, mods);
    };
    if (down) modifiers();
    ImGui_ImplGlfw_KeyCallback(window_, chord.key, 0, action, mods);
    if (!down) modifiers();
}

void GuiRuntime::move_pointer(PointerPosition to) {
    glfwSetCursorPos(window_, to.x, to.y);
    ImGui_ImplGlfw_CursorEnterCallback(window_, GLFW_TRUE);
}

void GuiRuntime::fonts_changed() { ImGui_ImplOpenGL3_DestroyDeviceObjects(); }

}  // namespace tclens::gui
