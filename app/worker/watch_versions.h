#pragma once
// The versions `tclens watch` keeps of a kernel as it is edited (v1, v2, ...): what each build
// and run gave, in lines for the terminal and JSON for scripts, and what an edit changed against
// the previous good version. Pure: no CUDA, no worker.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kernels/bench_result.h"
#include "profiling/profile_result.h"
#include "profiling/recorded_mix.h"

namespace tclens::worker {

struct WatchVersion {
    int number = 0;                // 1, 2, ...
    std::string error;             // why the version has no result (compile error ...); "" if none
    double compile_s = 0;          // the worker's compile (nvcc or NVRTC)
    double load_s = 0;             // dlopen / module load
    double verify_s = 0;           // the run's verification (inputs, run, reference, check)
    double time_s = 0;             // warm-up and timed launches
    double profile_s = 0;          // the profile request, wall time (0: not profiled)
    double save_to_result_s = -1;  // from the file's modification time to the TFLOP/s line; -1
                                   // when unknown
    std::optional<kernels::BenchRow> row;        // the kernel's bench row
    std::optional<kernels::BenchRow> reference;  // its same-run cuBLAS row
    std::optional<profiling::KernelProfile> profile;
    std::string profile_error;  // why `profile` is missing when it was asked for
    // Its PM-sampling timeline (profiling/pm_sampler.h), when the build asked for one
    // (VersionBuildOptions::timeline), else why it is missing.
    std::optional<profiling::KernelTimeline> timeline;
    std::string timeline_error;
    // The SASS instruction mix of the cubin it was built into, as the worker's load read it
    // (kernel_id the kernel's id, not the version's), else why it is missing.
    std::optional<profiling::RecordedInstructionMix> mix;
    std::string mix_missing;

    // Verified and timed.
    bool good() const { return error.empty() && row && row->result.counts(); }
};

// "v3  yours.matmul 4096x4096x4096: 612.3 TFLOP/s, 82.1 % of cublas.bf16 (745.8), 0.224 ms,
// rel. err 3.1e-06" for a good version; "v3  NOT VERIFIED: ..." (run_status) for a run that
// failed; "v3  <error>" for one that did not build.
std::string version_result_text(const WatchVersion& version);

// "times: compile 1.21 s, load 0.05 s, verify 0.31 s, time 0.12 s, profile 1.52 s; saved ->
// TFLOP/s 1.72 s" (parts that did not happen are left out; "" when no step ran).
std::string version_times_text(const WatchVersion& version);

// What changed from `before` to `after` (both good): "vs v2: TFLOP/s 581.4 -> 612.3 (+5.3 %);
// Tensor pipe active 78.2 % -> 82.0 % (+4.9 %), ...": the profile metrics both have that moved
// by at least `min_change_pct`, largest change first, at most `max_metrics` of them.
std::string version_change_text(const WatchVersion& before, const WatchVersion& after,
                                double min_change_pct = 2.0, int max_metrics = 6);

// {"version", "ok", "error", "times": {"compile_s", "load_s", "verify_s", "time_s",
//  "profile_s", "save_to_result_s"}, "result": bench row JSON or null, "reference": bench row
//  JSON or null, "profile": profile JSON or null, "profile_error"}
nlohmann::json to_json(const WatchVersion& version);

}  // namespace tclens::worker
