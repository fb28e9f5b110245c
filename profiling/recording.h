#pragma once
// A recording: everything one `tclens record` run learned on a GPU, so that every panel can
// show real data later on a machine without one (DESIGN.md, "Contract: recording JSON").
//
// JSON (schema_version 2; written by `tclens record` and the GUI's File > Save recording as):
//   {"schema_version": 2, "tclens_version", "created_utc": "2026-11-22T10:00:00Z",
//    "command": the command line that made it,
//    "system": device JSON (device_json.h),
//    "peaks": [{"precision", "instruction", "tflops"}], "peak_error",
//    "dram_bandwidth": {"bytes_per_s", "method"} or null,
//    "bench": [bench rows (bench_json.h)],
//    "profiles": [profile JSON (profile_json.h)],
//    "timelines": [timeline JSON (profile_json.h)],
//    "instruction_mixes": [each kernel's SASS instruction mix (recorded_mix.h)],
//    "instruction_mixes_missing": why there are none, or ""}
// Version 2 added "instruction_mixes" and "instruction_mixes_missing". Readers take versions 1
// and 2: a version 1 document opens without mixes, instruction_mixes_missing saying it predates
// them, and is version 2 once read (saved again, it keeps that note). Any other version is
// refused with one line naming the version found and the ones this build reads. Unknown extra
// keys are ignored.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/peak_probe.h"
#include "profiling/device_info.h"
#include "profiling/kernel_profile.h"
#include "profiling/recorded_mix.h"

namespace tclens::profiling {

inline constexpr int kRecordingSchemaVersion = 2;
// The oldest version readers still open (without what later versions added).
inline constexpr int kOldestRecordingSchemaVersion = 1;
// Files larger than this are refused before parsing (a recording of the full ladder with
// timelines is a few MB).
inline constexpr std::uintmax_t kMaxRecordingBytes = 64ull << 20;

struct DramBandwidth {
    double bytes_per_s = 0;  // measured; 0: not measured
    std::string method;      // what was timed, one line
};

struct Recording {
    int schema_version = kRecordingSchemaVersion;
    std::string tclens_version;
    std::string created_utc;  // ISO 8601, UTC
    std::string command;      // the command line that made it
    SystemReport system;
    std::vector<kernels::PeakMeasurement> peaks;
    std::string peak_error;
    DramBandwidth dram_bandwidth;
    std::vector<kernels::BenchRow> bench;  // verified, unverified and skipped rows alike
    std::vector<KernelProfile> profiles;
    std::vector<KernelTimeline> timelines;
    std::vector<RecordedInstructionMix> instruction_mixes;  // per ladder kernel of `bench`
    std::string instruction_mixes_missing;                  // why there are none, or ""
};

// The current time as Recording::created_utc writes it: "2026-11-22T10:00:00Z".
std::string utc_now();

nlohmann::json to_json(const Recording& recording);
// False, with `error` one line naming the first bad key, prefixed with where it is (e.g.
// "profiles[3]: key 'value' has the wrong type", "system: devices[0]: missing key 'name'") or
// the unsupported version ("schema_version 3 is newer than this build reads (1 to 2); ...").
bool recording_from_json(const nlohmann::json& json, Recording& recording, std::string& error);

// Writes `recording` to `path` atomically (viz/atomic_file.h). Returns "" or one line.
std::string save_recording(const std::string& path, const Recording& recording);
// Reads and checks a recording file. False, with `error` one line naming the path and what is
// wrong (missing, a directory, empty, too large, not JSON at byte N, a bad key, a version).
bool load_recording(const std::string& path, Recording& recording, std::string& error);

}  // namespace tclens::profiling
