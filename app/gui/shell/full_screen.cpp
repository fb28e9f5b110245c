#include "app/gui/shell/full_screen.h"

#include <GLFW/glfw3.h>

namespace tclens::gui {
namespace {

GLFWmonitor* monitor_under(GLFWwindow* window) {
    int x = 0, y = 0, width = 0, height = 0;
    glfwGetWindowPos(window, &x, &y);
    glfwGetWindowSize(window, &width, &height);
    const int cx = x + width / 2, cy = y + height / 2;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0;
        glfwGetMonitorPos(monitors[i], &mx, &my);
        const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
        if (mode && cx >= mx && cx < mx + mode->width && cy >= my && cy < my + mode->height) {
            return monitors[i];
        }
    }
    return glfwGetPrimaryMonitor();
}

}  // namespace

void FullScreen::set(bool on) {
    if (!glfwGetWindowAttrib(window_, GLFW_VISIBLE)) return;
    if (on == (glfwGetWindowMonitor(window_) != nullptr)) return;
    if (!on) {
        glfwSetWindowMonitor(window_, nullptr, x_, y_, width_, height_, 0);
        return;
    }
    GLFWmonitor* monitor = monitor_under(window_);
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode) return;
    glfwGetWindowPos(window_, &x_, &y_);
    glfwGetWindowSize(window_, &width_, &height_);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

}  // namespace tclens::gui
