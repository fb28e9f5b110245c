#include "app/gui/views/presentation.h"

namespace tclens::gui {
namespace {

bool folded = false;  // the process's one ImGui context draws one frame at a time

}  // namespace

bool controls_folded() { return folded; }

void set_controls_folded(bool now) { folded = now; }

}  // namespace tclens::gui
