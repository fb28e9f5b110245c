#pragma once
// First start: a strip at the right of the main menu bar that points a newcomer at the three ways
// in: "New here?  Start the tour | What am I looking at? | Open a recording or a kernel... | x".
// Any of them (x included) dismisses it for good: a file `welcome_dismissed` in the config folder
// (config_folder.h) says so to every later start. It hides while a tour plays and where there is
// no config folder to remember it in.

#include <optional>
#include <string>

namespace tclens::gui {

enum class WelcomeChoice { kStartTour, kExplainView, kOpenRecording, kOpenKernel, kDismiss };

// Whether the strip was dismissed, remembered in the config folder.
class WelcomeMemory {
  public:
    // Reads config_file_path(kFileName); with no config folder the strip counts as dismissed.
    WelcomeMemory();
    bool dismissed() const { return dismissed_; }
    // From now on and at every later start. Returns "" or the one-line error of writing the file
    // (the strip then still goes away for this run).
    std::string dismiss();

    static constexpr const char* kFileName = "welcome_dismissed";

  private:
    std::string path_;
    bool dismissed_ = true;
};

class WelcomeStrip {
  public:
    // Inside a frame, after the shell's main menu: the strip, unless dismissed or `hidden`.
    // Returns what was picked this frame (which also dismisses it for good). With `captured`,
    // the words ImGui drew go there under "== welcome ==" (`tclens --text`, as the panels').
    std::optional<WelcomeChoice> draw(bool hidden, std::string* captured = nullptr);

  private:
    WelcomeMemory memory_;
};

}  // namespace tclens::gui
