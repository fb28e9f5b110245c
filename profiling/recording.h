#pragma once
// A recording: everything one `tclens record` run learned on a GPU, so that every panel can
// show real data later on a machine without one (docs/json-formats.md).
//
// JSON (schema_version 5; written by `tclens record` and the GUI's File > Save recording as):
//   {"schema_version": 5, "tclens_version", "created_utc": "2026-11-22T10:00:00Z",
//    "command": the command line that made it,
//    "system": device JSON (device_json.h) of the GPU the profiles, timelines, sources and
//              traces were taken on,
//    "workers": [{"worker": 1, "host", "device": device JSON}]: every worker the bench was
//               spread over (docs/many-gpus.md), the GPU each named by its device's first,
//    "notes": [one line per worker lost mid-record],
//    "peaks": [{"precision", "instruction", "tflops"}], "peak_error",
//    "dram_bandwidth": {"bytes_per_s", "method"} or null,
//    "bench": [bench rows (bench_json.h), each with "worker": its number in "workers"],
//    "profiles": [profile JSON (profile_json.h)],
//    "timelines": [timeline JSON (profile_json.h)],
//    "sources": [source profile JSON (source/source_profile_json.h)],
//    "sources_missing": why there are none, or "",
//    "instruction_mixes": [each kernel's SASS instruction mix (recorded_mix.h)],
//    "instruction_mixes_missing": why there are none, or "",
//    "traces": [warp timelines of the traced rungs (viz/warp_trace_json.h)],
//    "traces_missing": why there are none, or ""}
// Version 2 added "sources" and "sources_missing"; version 3 "instruction_mixes" and
// "instruction_mixes_missing", the one home of the mix a recording shows (the Profile panel's
// Instruction mix and its tensor-core check); version 4 "traces" and "traces_missing" (the
// Timeline panel); version 5 "workers", "notes" and each bench row's "worker" (a bench over
// several GPUs). Readers take versions 1 to 5: a document older than 5 opens with one worker,
// its "system" on no host named, running every row; older than 4 opens without traces,
// traces_missing saying it predates them; a version 2 document
// gets its mixes from its source profiles' SASS (recorded_mix.h, mixes_from_sources); a version 1
// document opens with neither, the *_missing notes saying it predates them. Once read it is
// version 5 (written back, it keeps those notes). Any other version is refused with one line
// naming the version found and the ones this build reads. Unknown extra keys are ignored.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/bench_result.h"
#include "kernels/peak_measurement.h"
#include "profiling/device_info.h"
#include "profiling/profile_result.h"
#include "profiling/recorded_mix.h"
#include "profiling/source/source_profile.h"
#include "viz/warp_trace.h"

namespace tclens::profiling {

inline constexpr int kRecordingSchemaVersion = 5;
// The oldest version readers still open (without what later versions added).
inline constexpr int kOldestRecordingSchemaVersion = 1;
// Files larger than this, or gzipped files whose JSON is, are refused before parsing (the full
// ladder at four sizes with source profiles and warp traces: 56 MB of JSON, 4 MB gzipped).
inline constexpr std::uintmax_t kMaxRecordingBytes = 64ull << 20;

struct DramBandwidth {
    double bytes_per_s = 0;  // measured; 0: not measured
    std::string method;      // what was timed, one line
};

// A worker the bench of a recording ran on: its host (its hostname; "" in a recording from before
// schema_version 5) and its device report, whose first GPU ran its rows.
struct RecordingWorker {
    std::string host;
    SystemReport system;
};

class RecordingBulk;

struct Recording {
    int schema_version = kRecordingSchemaVersion;
    std::string tclens_version;
    std::string created_utc;  // ISO 8601, UTC
    std::string command;      // the command line that made it
    SystemReport system;
    std::vector<kernels::PeakMeasurement> peaks;
    std::string peak_error;
    DramBandwidth dram_bandwidth;
    // At least one when `bench` has rows (to_json writes `system` as the one worker when empty).
    std::vector<RecordingWorker> workers;
    std::vector<std::string> notes;        // one line per worker lost mid-record
    std::vector<kernels::BenchRow> bench;  // verified, unverified and skipped rows alike
    std::vector<int> bench_worker;         // one per bench row: its index in `workers`
    std::vector<KernelProfile> profiles;
    std::vector<KernelTimeline> timelines;
    std::vector<SourceProfile> sources;  // per kernel at the first size (tclens record)
    std::string sources_missing;         // why `sources` is empty (an older recording), or ""
    std::vector<RecordedInstructionMix> instruction_mixes;  // per kernel it holds
    std::string instruction_mixes_missing;                  // why there are none, or ""
    std::vector<viz::WarpTrace> traces;  // per traced rung at the first size (tclens record)
    std::string traces_missing;          // why `traces` is empty, or ""
    // Set by load_recording_deferring_bulk: `sources` and `traces` are empty and this holds them,
    // read when first asked for (sources_of, traces_of). Copies of the recording share it.
    std::shared_ptr<const RecordingBulk> bulk;
};

// The source profiles and warp traces of a recording file, most of its bytes (the shipped
// recordings: about 35 of 37 MB, and 90 % of the time to read one), kept as their JSON text and
// read on the first call of sources() or traces() from any thread, once. A part that turns out
// damaged reads as empty, and error() says why in one line ("sources[3]: key 'pc' has the wrong
// type").
class RecordingBulk {
  public:
    // Where in a text a part's JSON array is: [begin, end); an empty span stands for "[]".
    struct Span {
        std::size_t begin = 0;
        std::size_t end = 0;
    };
    // The recording's whole text, kept as it is (not the parts copied out of it: a lecture
    // screenshot of the shipped recording touched 35 MB more memory for them), and where its
    // two parts are in it.
    RecordingBulk(std::string text, Span sources, Span traces);
    const std::vector<SourceProfile>& sources() const;
    const std::vector<viz::WarpTrace>& traces() const;
    const std::string& error() const;
    // Whether the first read has finished (any thread): until then sources(), traces() and
    // error() block while it runs, the GUI's frames included (app/gui/jobs/bulk_read.h).
    bool is_read() const;

  private:
    void read() const;

    mutable std::once_flag once_;
    mutable std::string text_;  // released once read
    Span sources_span_, traces_span_;
    mutable std::vector<SourceProfile> sources_;
    mutable std::vector<viz::WarpTrace> traces_;
    mutable std::string error_;
    mutable std::atomic<bool> read_{false};
};

// The recording's source profiles and warp traces, from its bulk when it has one.
const std::vector<SourceProfile>& sources_of(const Recording& recording);
const std::vector<viz::WarpTrace>& traces_of(const Recording& recording);

// "host: NVIDIA H200 (0000:19:00.0)" for a worker's first GPU ("host: no GPU"; without a host,
// the GPU alone): how reports and panels name the GPU a row ran on.
std::string worker_gpu_text(const std::string& host, const SystemReport& system);

// The GPU bench row `row` of `recording` ran on, as worker_gpu_text names it; "" when the row
// names no worker.
std::string row_gpu_text(const Recording& recording, std::size_t row);

// The current time as Recording::created_utc writes it: "2026-11-22T10:00:00Z".
std::string utc_now();

nlohmann::json to_json(const Recording& recording);
// False, with `error` one line naming the first bad key, prefixed with where it is (e.g.
// "profiles[3]: key 'value' has the wrong type", "system: devices[0]: missing key 'name'") or
// the unsupported version ("schema_version 3 is newer than this build reads (1 to 3); ...").
bool recording_from_json(const nlohmann::json& json, Recording& recording, std::string& error);

// Writes `recording` to `path` atomically (common/atomic_file.h): gzipped compact JSON when the
// path ends in ".gz", else indented JSON. Returns "" or one line.
std::string save_recording(const std::string& path, const Recording& recording);
// Reads and checks a recording file, plain or gzipped (told apart by its first bytes). False,
// with `error` one line naming the path and what is wrong (missing, a directory, empty, too
// large, bad gzip data, not JSON at byte N, a bad key, a version). With `cancel`, the load stops
// within milliseconds of it turning true and fails with "cancelled" (a shipped recording takes
// about a second: the app quitting meanwhile does not wait for it).
bool load_recording(const std::string& path, Recording& recording, std::string& error,
                    const std::atomic<bool>* cancel = nullptr);
// load_recording, but a recording of schema_version 4 or later keeps its "sources" and "traces"
// unread in recording.bulk (a shipped recording opens in a tenth of the time). What is read is
// checked as load_recording checks it; the bulk when it is first asked for.
bool load_recording_deferring_bulk(const std::string& path, Recording& recording,
                                   std::string& error, const std::atomic<bool>* cancel = nullptr);

}  // namespace tclens::profiling
