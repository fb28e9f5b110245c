// WorkerSession::trace (session.h): the `trace` request (docs/worker-protocol.md). A registry
// kernel is traced as `tclens trace` always did (kernels/trace_capture.h); a loaded kernel of
// yours first gets its traced variant, built from the same source with -DTCLENS_TRACE
// (kernels/user_trace.cuh) and loaded beside the timed one, which the capture times untraced.
#include <algorithm>

#include "app/worker/gpu_turn_wait.h"
#include "app/worker/results.h"
#include "app/worker/session.h"
#include "kernels/runner.h"
#include "kernels/trace_capture.h"
#include "kernels/user/user_kernel.h"
#include "profiling/device_query.h"

namespace tclens::worker {
namespace {

// A rung's trace (no user code): its untraced and traced runs, each verified and timed, after one
// progress message; a large size or every block of a persistent rung may take longer than the
// client's time limit. A kernel of yours gets no allowance (docs/worker-protocol.md).
constexpr double kRungTraceAllowS = 120;

std::string no_trace_points(const std::string& id) {
    return id +
           " has no trace points: include \"kernels/user_trace.cuh\" and mark phases with "
           "TCLENS_TRACE_BEGIN/END, docs/your-kernel.md";
}

// A host launcher's grid and block are its own: the trace says what recorded, blocks 0 .. b - 1
// and warps 0 .. w - 1, and counts those blocks as the launch's.
void fit_to_recorded(viz::WarpTrace& trace) {
    int blocks = 1;
    int warps = 1;
    for (const viz::WarpPhase& phase : trace.phases) {
        blocks = std::max(blocks, phase.block + 1);
        warps = std::max(warps, phase.warp + 1);
    }
    trace.blocks_traced = std::min(trace.blocks_traced, blocks);
    trace.blocks_launched = trace.blocks_traced;
    trace.warps_per_block = warps;
}

}  // namespace

void WorkerSession::trace(const TraceRequest& request, Replier& reply) {
    const kernels::KernelDescriptor* kernel = find(request.kernel);
    if (kernel == nullptr) {
        reply.error(ErrorKind::kUsage, unknown_kernel(request.kernel));
        return;
    }
    const std::string what = run_text(*kernel, request.problem);
    const auto loaded = loaded_.find(request.kernel);
    const bool yours = loaded != loaded_.end();
    if (!yours && !kernel->traced.traceable()) {
        reply.error(ErrorKind::kUsage,
                    kernels::trace_blocks_error(*kernel, request.problem, request.blocks));
        return;
    }
    if (!can_run_here(*kernel, request.problem, reply)) return;
    // A rung's blocks are checked against its grid before the GPU is asked for (a bad --blocks is
    // a usage error on any machine); the persistent rungs' grid is this worker's GPU's.
    if (!yours) {
        if (const std::string bad =
                kernels::trace_blocks_error(*kernel, request.problem, request.blocks);
            !bad.empty()) {
            reply.error(ErrorKind::kUsage, bad);
            return;
        }
    }
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) {
        reply.error(ErrorKind::kNeedsResource,
                    "trace needs an NVIDIA GPU (" + system.no_gpu_reason + ")");
        return;
    }
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();
    if (!runner_->init_error().empty()) {
        reply.error(ErrorKind::kNeedsResource, runner_->init_error());
        return;
    }
    kernels::KernelDescriptor traced = *kernel;
    if (yours) {
        reply.progress(
            {"load", "compiling the traced variant of " + kernel->id, -1, -1, kCompileAllowS});
        const auto compiled = kernels::user::compile_traced(loaded->second->compiled);
        if (!compiled) {
            reply.error(ErrorKind::kUsage, compiled.error());
            return;
        }
        reply.progress(
            {"load", "loading the traced variant of " + kernel->id, -1, -1, kLoadAllowS});
        const auto variant = kernels::user::load_user_kernel(*compiled);
        if (!variant) {
            reply.error(ErrorKind::kFailed, variant.error());
            return;
        }
        if (!(*variant)->descriptor.traced.traceable()) {
            reply.error(ErrorKind::kUsage, no_trace_points(kernel->id));
            return;
        }
        traced.traced = (*variant)->descriptor.traced;  // holds the traced module or library
        if (const std::string bad =
                kernels::trace_blocks_error(traced, request.problem, request.blocks);
            !bad.empty()) {
            reply.error(ErrorKind::kUsage, bad);
            return;
        }
    }
    GpuTurn turn;  // this GPU's turn, held while the request times or profiles on it
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    reply.progress({"run", what + " traced and untraced", 0, 1, yours ? 0 : kRungTraceAllowS});
    kernels::RunOptions options;
    options.seed = request.seed;
    kernels::TraceCapture capture =
        kernels::capture_trace(*runner_, traced, request.problem, request.blocks, options);
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(ErrorKind::kFault, what + " faulted: " + lost + "; the CUDA context is lost",
                    true);
        return;
    }
    if (!capture.error.empty()) {
        reply.error(ErrorKind::kFailed, capture.error);
        return;
    }
    if (yours && capture.trace.phases.empty()) {
        reply.error(ErrorKind::kUsage, kernel->id + " recorded no phases in its first " +
                                           std::to_string(request.blocks) +
                                           " blocks: " + no_trace_points(kernel->id));
        return;
    }
    if (yours && loaded->second->form == kernels::user::KernelForm::kHostLauncher)
        fit_to_recorded(capture.trace);
    reply.result(to_json(TraceResult{std::move(capture.trace)}));
}

}  // namespace tclens::worker
