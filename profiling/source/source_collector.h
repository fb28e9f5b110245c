#pragma once
// Taking a source profile of one ladder kernel (or cuBLAS reference, or a user's kernel the worker
// loaded) on one GEMM size, for the worker's source request (`tclens source`) and the GUI's source
// job. Plain result struct out (source_profile.h).
//
// In order, on one device, each CUPTI owner alone on it while it works:
//   1. PC sampling is enabled (pc_sampler.h) before the kernel's first launch, so CUPTI sees its
//      module load;
//   2. the kernel is verified and fresh inputs filled (KernelProfiler::prepare: no number without
//      a check);
//   3. one launch is timed and the sampling period chosen to give about `target_samples`
//      samples; one launch is sampled (stall reasons per PC); PC sampling is disabled;
//   4. one launch runs under SASS metrics (sass_metrics.h): per-instruction counts;
//   5. one launch runs under the Range Profiler (kernel_profile.h) for the kernel totals the
//      counts must add up to;
//   6. the kernel's cubin is disassembled (disassembler.h) and the source files read (a user's
//      kernel: the cubin it was built into, with its line info, disassembled meanwhile);
//   7. join_source_profile.
// Steps 3-5 launch the same verified kernel on the same inputs; a GEMM's instruction and
// shared-memory counts do not depend on the values, so each launch does the same work (a kernel
// that spins on an mbarrier runs its wait loop a varying number of times: its instruction totals
// can differ by those few instructions, and the check says by how many).
// Refusals that would stop every step (no GPU, permission, busy counters, another tool) fail the
// profile with that error; a collector that is unsupported or fails alone leaves its part empty
// and says why in the profile's notes.

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "kernels/gemm.h"
#include "profiling/source/source_profile.h"

namespace tclens::profiling {

// The steps a caller may want to announce (a worker's time limits): kSetUp before PC sampling is
// enabled, kVerify before the kernel's first launch (its verification), kCollect before the
// launches under CUPTI that follow a passed verification.
enum class SourceStep { kSetUp, kVerify, kCollect };

struct SourceRequest {
    std::string kernel_id;
    // A kernel outside the registry (a user's kernel the worker loaded), used instead of
    // kernel_id; it must outlive the call.
    const kernels::KernelDescriptor* kernel = nullptr;
    // The cubin `kernel` was built into (kernels/user/user_kernel.h: cubin_path, compiled with
    // line info): its SASS is read from there instead of from tclens's own binary.
    std::string cubin_path;
    // Texts of source files by the path the line info names (a user's file as it was compiled),
    // used before the file on disk.
    std::map<std::string, std::string> sources;
    // Called on the calling thread at each SourceStep; may be empty.
    std::function<void(SourceStep step)> on_step;
    kernels::GemmProblem problem;
    std::uint64_t seed = 1;
    int device = 0;
    std::uint64_t target_samples = 500'000;  // PC samples aimed at (the period is a power of 2)
    int period_log2 = 0;                     // 5..31 to fix the period; 0: chosen from the time
};

SourceProfile collect_source_profile(const SourceRequest& request);

// Reads a source file for the profile (at most 4 MiB); false when it cannot.
bool read_source_file(const std::string& path, std::string& text);

}  // namespace tclens::profiling
