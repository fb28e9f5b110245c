#pragma once
// JSON form of the system report (`tclens device --json`, and the device part of recordings).

#include <nlohmann/json.hpp>

#include "profiling/device_info.h"

namespace tclens::profiling {

// Keys are the DeviceFacts / SystemReport field names; "gpu_found" is has_gpu(), and each
// device adds "peak_dram_bandwidth_bytes_per_s".
nlohmann::json to_json(const SystemReport& report);

}  // namespace tclens::profiling
