#pragma once
// `tclens trace`'s work: run a kernel's traced variant (gemm.h, TracedLaunch) through the runner
// (verified against the reference first, then timed, like every run), read back the records of
// its last timed launch and decode them (kernels/trace_decode.h); run the untraced kernel the
// same way for the overhead. Its sizes and refusals need no GPU: kernels/trace_limits.h.
#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/runner.h"
#include "kernels/trace_limits.h"
#include "viz/warp_trace.h"

namespace tclens::kernels {

struct TraceCapture {
    RunResult traced;    // the traced variant's run: verified, then timed
    RunResult untraced;  // the kernel as the ladder times it
    viz::WarpTrace trace;
    std::string error;  // "" or why there is no trace (the runs' errors, a failed read-back)
};

// Precondition: trace_blocks_error(kernel, problem, blocks) == "".
TraceCapture capture_trace(GemmRunner& runner, const KernelDescriptor& kernel,
                           const GemmProblem& problem, int blocks, const RunOptions& options);

}  // namespace tclens::kernels
