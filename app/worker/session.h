#pragma once
// What `tclens worker` does for each request (docs/worker-protocol.md): the state one worker
// keeps between requests (a GEMM runner, the users' kernels it loaded) and the work of each
// request type, on kernels/ (the runner, the bench), kernels/user (compile, load, exercise) and
// profiling/ (profiles, timelines). This is the only place user code runs.
//
// A kernel that faults (illegal address, misaligned access, trap) leaves the CUDA context dead:
// every later CUDA call fails. After each request that ran kernels the session checks the
// context; when it is lost it answers an error of kind "fault" naming the kernel and size that
// faulted, and the server ends the worker (the client starts a fresh one).

#include <map>
#include <memory>
#include <string>

#include "app/worker/results.h"
#include "app/worker/server.h"
#include "kernels/gemm.h"
#include "kernels/peak_probe.h"
#include "profiling/profiler_error.h"

namespace tclens::kernels {
class GemmRunner;
namespace user {
struct LoadedKernel;
}
}  // namespace tclens::kernels

namespace tclens::worker {

// A step that runs no user code but may take long: how long the worker may stay silent.
inline constexpr double kCompileAllowS = 300;  // nvcc on a large launcher
inline constexpr double kLoadAllowS = 60;      // dlopen / cuModuleLoadData of what was compiled
inline constexpr double kPeaksAllowS = 120;    // measuring every instruction's peak
inline constexpr double kCuptiAllowS = 120;    // CUPTI set-up and passes of a verified kernel
// One run of a ladder rung or a cuBLAS reference (tclens's own code, not a user's): verifying
// and timing it at the largest sizes (the naive rung at 8192^3 takes tens of seconds).
inline constexpr double kRungRunAllowS = 600;

// The error kind of a profiler's refusal: a bad metric or request kUsage, a failure kFailed,
// anything the machine lacks (GPU, permission, free counters, support) kNeedsResource.
ErrorKind kind_of(const profiling::ProfilerError& error);

// "yours.matmul 4096x4096x4096": a kernel at a size, as progress and errors name it.
std::string run_text(const kernels::KernelDescriptor& kernel, const kernels::GemmProblem& problem);

class WorkerSession : public RequestHandler {
  public:
    WorkerSession();
    ~WorkerSession() override;
    void handle(const Request& request, Replier& reply) override;

  private:
    void hello(const HelloRequest& request, Replier& reply);
    void load(const LoadRequest& request, Replier& reply);
    void bench(const BenchRequest& request, Replier& reply);
    // A bench request's checks and measurements before its runs (check_counters, dram), into
    // `result`; false when it was refused (the reply holds why).
    bool before_bench(const BenchRequest& request, const profiling::SystemReport& system,
                      Replier& reply, BenchResult& result);
    void profile(const WorkerProfileRequest& request, Replier& reply);
    void exercise(const ExerciseRequest& request, Replier& reply);
    void source(const WorkerSourceRequest& request, Replier& reply);
    void trace(const TraceRequest& request, Replier& reply);  // session_trace.cpp
    // session_measure.cpp: tclens's own probes, no user code.
    void bank_measure(const BankMeasureRequest& request, Replier& reply);
    void layout_verify(const LayoutVerifyRequest& request, Replier& reply);
    // session_live.cpp: the streaming request of the GUI's Profile panel "Live".
    void live_profile(const LiveProfileRequest& request, Replier& reply);
    void clock_skew(const ClockSkewRequest& request, Replier& reply);

    // The kernel `id` (registry or loaded) when it can run `problem`; else answers the usage
    // error ("unknown kernel ...", "<id> cannot run <MxNxK>: <why>") and returns nullptr.
    const kernels::KernelDescriptor* runnable(const std::string& id,
                                              const kernels::GemmProblem& problem,
                                              Replier& reply) const;
    // True when `kernel` can run `problem`; else answers cannot_run_text's usage error.
    static bool can_run_here(const kernels::KernelDescriptor& kernel,
                             const kernels::GemmProblem& problem, Replier& reply);
    // "" when `kernel` can run `problem`, else "<id> cannot run <MxNxK>: <why>".
    static std::string cannot_run_text(const kernels::KernelDescriptor& kernel,
                                       const kernels::GemmProblem& problem);
    // Runs `kernel` once on the GPU (verified, not timed) under the client's time limit before
    // CUPTI's long set-up, so that a kernel that hangs or faults is caught within the limit; its
    // progress is step `index` of `total`. False, after answering the fault, when it killed the
    // CUDA context.
    bool ran_once_before_cupti(const kernels::KernelDescriptor& kernel,
                               const kernels::GemmProblem& problem, std::uint64_t seed, int index,
                               int total, Replier& reply);
    // A kernel of the GPU registry (with its launch) or a loaded one; nullptr when `id` is
    // neither.
    const kernels::KernelDescriptor* find(const std::string& id) const;
    // "unknown kernel 'x' (valid: registry ids; loaded: yours.a, yours.b)".
    std::string unknown_kernel(const std::string& id) const;
    // "" when the CUDA context works; else the sticky error's text.
    std::string lost_context() const;

    std::unique_ptr<kernels::GemmRunner> runner_;
    std::map<std::string, std::shared_ptr<kernels::user::LoadedKernel>> loaded_;
    // This GPU's instruction peaks, measured by the first bench that asked: later benches (a
    // sweep sends one per size) reuse them.
    std::vector<kernels::PeakMeasurement> instruction_peaks_;
    // For each loaded id, its user's file by the path its line info names -> the text compiled,
    // so a source profile shows the lines that were built (a remote worker may have no copy).
    std::map<std::string, std::map<std::string, std::string>> loaded_sources_;
};

}  // namespace tclens::worker
