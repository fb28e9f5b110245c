#pragma once
// The warp every layout, access pattern and trace in viz is drawn for.

namespace tclens::viz {

constexpr int kWarpLanes = 32;  // threads of a warp

}  // namespace tclens::viz
