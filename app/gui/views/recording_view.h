#pragma once
// What panels show of the open recording where they have no live data, and what File > Save
// recording as writes. Plain data, no ImGui: the recording's parts turned into the snapshots the
// panels already draw (BenchResults for Kernels, LiveProfile for Profile), so a recorded result
// looks exactly like a live one. Pure functions, tested on the CPU.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/jobs/bench_job.h"
#include "app/gui/jobs/profile_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/worker/results.h"
#include "kernels/sass_census/instruction_counts.h"
#include "profiling/device_info.h"
#include "profiling/recording.h"

namespace tclens::gui {

// "2026-11-22 10:00 UTC": created_utc with the 'T', the seconds and the 'Z' replaced; "unknown
// date" when it has none.
std::string recording_date(const profiling::Recording& recording);

// "NVIDIA H100 80GB HBM3, 2026-11-22 10:00 UTC" (the first GPU and recording_date; "no GPU"
// where it has none).
std::string recording_caption(const profiling::Recording& recording);

// Which recording is open and where and when it was made, for the Device panel: its file name
// (not the folder) and the caption, with the driver, CUDA runtime and tclens that made it, e.g.
// "h100.json: recorded on NVIDIA H100 80GB HBM3, 2026-11-22 16:31 UTC (driver 580.159.04, CUDA
// runtime 13.0, tclens 0.1.0)"; parts the recording lacks are left out. Not the command line
// that made it: its paths are the other machine's.
std::string recording_origin(const std::string& path, const profiling::Recording& recording);

// The status bar's note that the panels show a recording, not this machine's GPU: "showing
// h200.json.gz: NVIDIA H200, 2026-11-29 19:16 UTC (recorded, not live)".
std::string recording_status(const std::string& path, const profiling::Recording& recording);

// The recorded bench as the Kernels panel's results: the rows and peaks in recording order,
// `device` "<caption>, recorded", request.problems the distinct sizes in order of first use.
std::shared_ptr<const BenchResults> recorded_bench(const profiling::Recording& recording);

// The ids of the kernels with a recorded profile or timeline, in recording order, each once.
std::vector<std::string> recorded_profile_kernels(const profiling::Recording& recording);

// The recorded profiles of `kernel_ids` and a timeline as the Profile panel's snapshot, not
// running: one KernelLive per id with a recorded profile (its first; one history value per
// metric), in the given order; the timeline (the first recorded of the first id that has one)
// with its metric names, every sample's values (history = the sample count) and `timeline`;
// `error` the single profile's (else the timeline's) error; `device` "<caption>, recorded".
// nullptr when the recording has neither for any of the ids.
std::shared_ptr<const LiveProfile> recorded_profile(const profiling::Recording& recording,
                                                    const std::vector<std::string>& kernel_ids);

// What File > Save recording as writes. With live results (a bench that ran, or profiles or a
// timeline of the Profile panel: every kernel's newest good profile, or versions of kernels of
// yours: their rows, same-run cuBLAS rows and profiles as user_kernel_results names them,
// "yours.matmul_3.v2") on a GPU: a new recording of them, made now (`created_utc`), with the
// live device report and no DRAM bandwidth (the GUI does not measure it); it never mixes live
// results with a recording made elsewhere. Without live results: the open recording as it is.
// nullopt when there is neither. Versions of kernels of yours add their PM timelines too. A new
// recording carries the instruction mix of each built-in kernel it holds, from the census of the
// build of the worker whose hello is `hello` (this build's for the live GPU when it sends none
// or `hello` is nullptr: worker::worker_mixes), and of each version of yours, the one the worker
// read from its cubin.
// The device report is this machine's: a worker on another host (ssh) would be recorded under
// this machine's GPU.
std::optional<profiling::Recording> session_recording(
    const profiling::Recording* open, const profiling::SystemReport* system,
    const BenchResults* bench, const LiveProfile* live, const std::string& created_utc,
    const UserKernels* yours = nullptr, const worker::HelloResult* hello = nullptr);
// Whether session_recording would return a recording, without copying one.
bool session_has_recording(const profiling::Recording* open, const profiling::SystemReport* system,
                           const BenchResults* bench, const LiveProfile* live,
                           const UserKernels* yours = nullptr);

// The instruction mix shown for `kernel_id` (the Profile panel's "Instruction mix" and its
// tensor-core check): the one `recording` carries (nullptr: none is shown), made on the GPU that
// recorded it, else the one of the build of the worker whose hello is `hello` (nullptr: none
// answered), else this build's census for a GPU of compute capability `sm`
// (worker::worker_mix). `line` is "SASS of K (sm_90a, recorded): HMMA 64, ..." for a recorded
// mix, else worker::worker_mix's; `mix` nullopt when there is none (the line says why).
struct ShownMix {
    std::optional<kernels::InstructionMix> mix;
    std::string line;
};
ShownMix shown_instruction_mix(const profiling::Recording* recording,
                               const worker::HelloResult* hello, const std::string& kernel_id,
                               int sm);

}  // namespace tclens::gui
