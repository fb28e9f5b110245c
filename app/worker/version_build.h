#pragma once
// One version of a user's kernel built and run through a worker: load (compile, load, ask
// whether it can run the size; the load also reads the SASS instruction mix of its cubin), bench
// next to its same-run cuBLAS reference, then (optionally) profile with the default metric set
// and (optionally) sample its PM timeline with the 'timeline' set. `tclens watch` and the GUI's
// "yours" kernels build every version with this, so both see the same steps, times and one-line
// errors.
//
// Outcomes:
//   kBuilt          `version` says what happened: good (verified and timed), not verified (its
//                   row carries the error map), or `version.error` one line (a compile error
//                   "file.cu:12: error: ...", a size the kernel cannot run, a worker that
//                   crashed, hung or faulted, which ends with "; a fresh worker starts at the next
//                   save" since the client starts another at its next call)
//   kCancelled      *cancel was set: the worker was killed, nothing more to say
//   kNeedsResource  no GPU or no profiling permission on the worker's machine: `stop` is the
//                   reply, so the caller can say so once and stop watching

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "app/worker/client.h"
#include "app/worker/watch_versions.h"

namespace tclens::worker {

struct VersionBuildOptions {
    std::string ref;  // path.cu[:NAME][:TYPE]
    kernels::GemmProblem problem;
    int runs = 30;
    int warmup = 5;
    bool profile = true;
    bool timeline = false;  // after the profile: a PM-sampling timeline of the 'timeline' set
    std::uint64_t timeline_interval_ns = 1'000'000;
    int timeline_duration_ms = 500;
};

struct VersionBuild {
    enum class End { kBuilt, kCancelled, kNeedsResource };
    End end = End::kBuilt;
    WatchVersion version;
    LoadResult loaded;  // the load's result when it came (id, form, warnings, descriptor)
    Reply stop;         // kNeedsResource: the reply that ended it
};

// Builds version `number` of options.ref. `benched` (may be empty) is called with the version as
// soon as its bench row is in, before the profile: the TFLOP/s line need not wait for it (and
// the caller may stamp the version, e.g. its save_to_result_s).
VersionBuild build_version(WorkerClient& client, int number, const VersionBuildOptions& options,
                           const ProgressHandler& progress, const std::atomic<bool>* cancel,
                           const std::function<void(WatchVersion&)>& benched = {});

}  // namespace tclens::worker
