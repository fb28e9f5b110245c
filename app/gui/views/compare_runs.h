#pragma once
// The Compare panel's data, no ImGui: the runs one source offers (the open recording, or this
// session's live bench and profile), the roofs of that source's device, and chosen runs turned
// into the viz models of the metrics table (viz/compare_table.h) and the roofline
// (viz/roofline.h). Pure functions, tested on the CPU.
//
// Several sources side by side: runs of several open recordings (one GPU at two times, or two
// GPUs) are compared in one table and one roofline; each run knows its source, a column names it
// by GPU and date when the runs come from more than one, and each source's runs sit under that
// source's own measured roofs (viz/roofline.h's devices).
//
// A run is one kernel on one size: its bench row and its profile, joined by kernel id and size.
// Its TFLOP/s is the bench's (median of the timed runs) when that row counts
// (RunResult::counts: verified and timed), else 2MNK over the profile's gpu__time_duration.sum
// when the profile was verified; no number without a check.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/gui/jobs/bench_job.h"
#include "app/gui/jobs/profile_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "kernels/bench_result.h"
#include "profiling/device_info.h"
#include "profiling/profile_result.h"
#include "profiling/recording.h"
#include "viz/compare_table.h"
#include "viz/roofline.h"

namespace tclens::gui {

enum class CompareSourceKind { kRecording, kLive };

// "recording" or "live".
const char* compare_source_name(CompareSourceKind kind);

struct CompareRun {
    std::string id;            // compare_run_id(kernel_id, problem), unique in its source
    std::string source_key;    // its source's CompareSource::key
    std::string source_label;  // its source's CompareSource::label
    // The GPU it ran on, profiling::worker_gpu_text ("host: NVIDIA H200 (0000:19:00.0)"): its
    // bench row's worker's, else its source's own GPU; "" when unknown.
    std::string gpu;
    std::string kernel_id;
    kernels::Precision precision = kernels::Precision::kF32;
    kernels::GemmProblem problem;
    std::optional<kernels::BenchRow> bench;           // the first bench row of this id
    std::optional<profiling::KernelProfile> profile;  // the first profile of this id
    double tflops = 0;  // achieved (see the header comment); 0: no number
    bool tflops_from_profile = false;
    std::string status;  // "" when the run has something to compare, else why not (one line)

    // Has a number or a verified profile to compare.
    bool comparable() const { return status.empty(); }
    // "h100.json:wmma.f16@4096x4096x4096": the run among every source's.
    std::string key() const { return source_key + ":" + id; }
};

struct CompareSource {
    CompareSourceKind kind = CompareSourceKind::kLive;
    std::string caption;  // "h100.json: NVIDIA H100 80GB HBM3, 2026-11-22 10:00 UTC" / "live: ..."
    std::string key;      // names it in run keys: the recording's file name ("h100.json"), "live"
    std::string label;    // GPU and date: "NVIDIA H100 80GB HBM3, 2026-11-22 10:00 UTC"
    std::vector<CompareRun> runs;  // bench rows in order, then runs with only a profile
    std::vector<kernels::PeakMeasurement> peaks;  // measured compute peaks
    std::string peak_error;                       // why there are none, or ""
    double dram_bytes_per_s = 0;                  // 0: unknown
    std::string dram_origin;                      // "measured" or "theoretical"
    std::string dram_method;  // what was timed, or how the theoretical value is computed
};

// "wmma.f16@4096x4096x4096".
std::string compare_run_id(const std::string& kernel_id, const kernels::GemmProblem& problem);

// "" when `text` has the shape KERNEL@MxNxK (a non-empty kernel id without blanks, a size
// kernels::parse_problem accepts), else one line naming it and the expected shape.
std::string check_compare_run_id(std::string_view text);

// "a.f16@64x64x64, b.f16@64x64x64" -> the ids in order, each once (blanks around the commas
// ignored). On a bad id returns {} and sets `error` to check_compare_run_id's line.
std::vector<std::string> parse_compare_run_ids(std::string_view text, std::string& error);

// The runs and roofs of a recording: its bench rows (each run's GPU its row's worker's) and
// profiles (a run with only a profile: the recording's own GPU), its measured peaks, its
// measured DRAM bandwidth, else the theoretical one of its first GPU. `path` names it in the
// caption; its file name is the key, unless `key` gives another (two open recordings of one
// file name: "h100.json#2"); the label is recording_caption's.
CompareSource recording_compare_source(const profiling::Recording& recording,
                                       const std::string& path, const std::string& key = "");

// One source per recording, in order, keyed by file name; a name that repeats gets "#2", "#3".
std::vector<CompareSource> recording_compare_sources(
    const std::vector<std::pair<std::string, const profiling::Recording*>>& recordings);

// The runs and roofs of this session: the last bench (nullptr: none; each run's GPU its row's
// worker's, else the GUI worker's), the Profile panel's
// newest profile (nullptr or no `latest`: none), then the kernels of yours (nullptr: none): each
// built version's row and profile as "yours.x.v2" and its same-run cuBLAS row
// (user_kernel_runs.h; a run id the bench already has keeps the bench's), the bench's measured
// peaks, and the theoretical DRAM bandwidth of the live GPU (`system`'s first; the GUI does not
// measure it).
CompareSource live_compare_source(const BenchResults* bench, const LiveProfile* live,
                                  const profiling::SystemReport* system,
                                  const UserKernels* yours = nullptr);

// The run of `source` with this id, or nullptr.
const CompareRun* find_compare_run(const CompareSource& source, const std::string& id);

// What a chosen entry (a `runs=` item, or a tick) stands for among several sources: "KEY:ID"
// (KEY a source's key, ID a run id) is that source's run; a bare "ID" is the run of the first
// source that has it. `run` is nullptr when no source has it or it cannot be compared; `missing`
// then says why ("wmma.f16@64x64x64: not in the recording runs", or the run's status).
struct ResolvedRun {
    std::string entry;
    const CompareRun* run = nullptr;
    std::string missing;
};
std::vector<ResolvedRun> resolve_compare_runs(const std::vector<CompareSource>& sources,
                                              const std::vector<std::string>& entries);

// What Compare shows before anything is ticked: at the first size of the first source that has
// a counted ladder rung, the best counted rung (most TFLOP/s) of each precision followed by its
// same-run cuBLAS, precisions in the order f16, bf16, tf32, f32 (those present). With several
// sources, only the fastest of those rungs and its cuBLAS, then the same two run ids from every
// other source that has them (before and after, side by side). Entries are run ids with one
// source, "KEY:ID" keys with several. Empty when no source has a counted rung.
std::vector<std::string> default_compare_runs(const std::vector<CompareSource>& sources);

struct RunIntensity {
    double flop_per_byte = 0;  // 0: unknown
    double bytes = 0;          // the DRAM bytes it is computed from
    bool estimated = false;    // from compulsory traffic, not from the profile's DRAM counters
};

// 2MNK over the profile's dram__bytes_read.sum + dram__bytes_write.sum when it has both (and
// they add up to more than 0), else over viz::compulsory_bytes with the precision's storage
// bytes in and 4-byte f32 out, marked estimated. Example: wmma.f16 4096^3 without a profile ->
// 2 x 4096^3 / 128 MiB = 1024 FLOP/B, estimated.
RunIntensity run_intensity(const CompareRun& run);

// The GPUs `runs` ran on (CompareRun::gpu), each once, in order of first appearance.
std::vector<std::string> compare_gpus(const std::vector<const CompareRun*>& runs);

// `runs` grouped by GPU: the runs of compare_gpus' first GPU in their order, then the second's,
// ... (the baseline stays first). Runs of one GPU come back as they are.
std::vector<const CompareRun*> group_by_gpu(const std::vector<const CompareRun*>& runs);

// One column per run, in order: title the kernel id, subtitle the size, category its index;
// source the run's source label when the runs come from more than one source, else ""; when the
// runs of one source came from more than one GPU (a bench over several workers), the run's GPU
// first ("gpu-a: NVIDIA H200 (0000:19:00.0)", then " | " and the label with several sources).
std::vector<viz::CompareColumn> compare_columns(const std::vector<const CompareRun*>& runs);

// The metrics table's rows for `runs` (the first is the baseline), in this order: time (ms),
// TFLOP/s, % of cuBLAS, % of peak, rel. error, intensity (FLOP/B), then every profile metric any
// run has, in order of first appearance ("label (unit)", the catalogue's formatting without the
// unit the label names: "1,048,576", "45.6", but "230 kB"). A run
// without a value shows "-" (NaN); rows no run has a value for are left out. The better
// direction is the metric's meaning: less time, error, DRAM traffic and bank conflicts, more
// TFLOP/s, tensor pipe and L2 hits are better; the rest (occupancy, launch facts, DRAM %) has
// no better direction.
std::vector<viz::CompareRow> compare_rows(const std::vector<const CompareRun*>& runs);

// The roofline of `runs` under their sources' roofs: per source a run comes from (a device, in
// order of first appearance in `runs`, labelled with the source's label), a compute roof per
// measured peak ("f32 FMA", "tf32 tensor", ...) and the DRAM roof; a point per run (label
// "kernel MxNxK", plus " (profiled)" when its TFLOP/s come from the profile, plus " on <source
// label>" with several devices; its precision, run_intensity, its TFLOP/s, category its index in
// `runs`, device its source's). With no run, the roofs of `sources`' first.
viz::Roofline compare_roofline(const std::vector<CompareSource>& sources,
                               const std::vector<const CompareRun*>& runs);

}  // namespace tclens::gui
