#pragma once
// The presentation layout (lecture mode and F11, `lecture.presentation=on|off`): the drawing gets
// the screen. The shell hides the rail, the menu bar, the status bar and the panes' title bars,
// and folds every panel's controls away; the tour's caption becomes a compact overlay beside or
// below the drawing (tour_overlay.h). Hovering the strip at the top of the window brings the
// menu, the status bar and the controls back for as long as the mouse stays on them
// (shell_frame.h decides it each frame).
//
// Panels ask controls_folded() while they draw: true means "draw only the drawing (and the one
// line that says what it shows), sized to fill the pane".

namespace tclens::gui {

// Whether this frame's panels fold their controls away (the presentation layout, not revealed).
// False unless the shell set it: screenshots of one view and the headless runtime keep controls.
bool controls_folded();
// The shell, before its panels draw.
void set_controls_folded(bool folded);

}  // namespace tclens::gui
