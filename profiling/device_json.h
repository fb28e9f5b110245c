#pragma once
// JSON form of the system report (`tclens device --json`, and the device part of recordings).

#include <nlohmann/json.hpp>
#include <string>

#include "profiling/device_info.h"

namespace tclens::profiling {

// Keys are the DeviceFacts / SystemReport field names; "gpu_found" is has_gpu(), and each
// device adds "peak_dram_bandwidth_bytes_per_s".
nlohmann::json to_json(const SystemReport& report);

// Reads what to_json wrote ("gpu_found" and the derived bandwidth are ignored: they follow from
// the facts). False, with `error` naming the first missing or mistyped key ("devices[0]: missing
// key 'sm_count'"), when `json` is not such a document.
bool system_report_from_json(const nlohmann::json& json, SystemReport& report, std::string& error);

}  // namespace tclens::profiling
