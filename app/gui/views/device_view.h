#pragma once
// The Device panel's content as draw records (viz/table_view.h), no ImGui: the panel paints
// them and its Export buttons write the same records as SVG and PNG.

#include "profiling/device_info.h"
#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::gui {

// Title: the CUDA versions (profiling::versions_summary). Then one section per GPU, headed
// "GPU <index>", with the rows of profiling::describe_device; or, with no GPU, one section
// "No GPU" saying so, why, and what works without one.
viz::DrawList device_view(const profiling::SystemReport& report, const viz::Palette& palette);

}  // namespace tclens::gui
