#pragma once
// Full screen for a GLFW window on the monitor it is on, and back to where it was: lecture
// mode's LectureHooks::set_full_screen in the windowed shell.

struct GLFWwindow;

namespace tclens::gui {

class FullScreen {
  public:
    explicit FullScreen(GLFWwindow* window) : window_(window) {}
    // on: remembers the window's place and size, then fills the monitor holding the window's
    // centre (the primary one when none does) at its current video mode. off: back to the
    // remembered place and size. Hidden windows and repeated calls change nothing.
    void set(bool on);

  private:
    GLFWwindow* window_;
    int x_ = 0, y_ = 0, width_ = 0, height_ = 0;  // before full screen
};

}  // namespace tclens::gui
