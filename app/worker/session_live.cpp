// WorkerSession::live_profile (session.h): the streaming `live_profile` request
// (docs/worker-protocol.md), the GUI's Profile panel "Live". Each kernel is verified under the
// client's time limit, then prepared (profiling/kernel_profile.h): in metrics mode every
// KernelProfiler takes turns on one CUPTI range profiler, so its session is set up once, and the
// kernels are profiled in turn, each profile an update, until the client's stop, max_updates or a
// failure; in timeline mode the one kernel runs under PM sampling and each batch of samples is an
// update. Between updates the worker looks at its input for the stop without waiting
// (Replier::stop_asked).
#include <memory>
#include <vector>

#include "app/worker/gpu_turn_wait.h"
#include "app/worker/live_updates.h"
#include "app/worker/session.h"
#include "kernels/fault_injection.h"
#include "kernels/problem_text.h"
#include "profiling/device_query.h"
#include "profiling/kernel_profile.h"
#include "profiling/range_profiler.h"

namespace tclens::worker {
namespace {

void send_kernel_error(Replier& reply, int index, ErrorKind kind, const std::string& message) {
    LiveUpdate update;
    update.kind = LiveUpdate::Kind::kKernelError;
    update.kernel = index;
    update.error_kind = kind;
    update.error = message;
    reply.update(to_json(update));
}

}  // namespace

void WorkerSession::live_profile(const LiveProfileRequest& request, Replier& reply) {
    std::vector<const kernels::KernelDescriptor*> chosen;
    for (const std::string& id : request.kernels) {
        const kernels::KernelDescriptor* kernel = find(id);
        if (kernel == nullptr) return reply.error(ErrorKind::kUsage, unknown_kernel(id));
        chosen.push_back(kernel);
    }
    // As `tclens profile`: an injected CUPTI fault is reported by the profiler, GPU or not.
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu() && !kernels::is_cupti_fault(kernels::injected_fault())) {
        return reply.error(ErrorKind::kNeedsResource,
                           "live_profile needs an NVIDIA GPU (" + system.no_gpu_reason + ")");
    }
    GpuTurn turn;  // this GPU's turn, held while the request profiles on it
    if (!wait_for_gpu_turn(system, reply, turn)) return;

    // Prepare every kernel; one that cannot run the size or fails its check says so in an update
    // while the others go on.
    const auto range = std::make_shared<profiling::RangeProfiler>(0);
    std::vector<std::unique_ptr<profiling::KernelProfiler>> profilers(chosen.size());
    std::vector<std::pair<ErrorKind, std::string>> failures;
    const int count = static_cast<int>(chosen.size());
    for (int i = 0; i < count; ++i) {
        const kernels::KernelDescriptor& kernel = *chosen[std::size_t(i)];
        if (const std::string cannot = cannot_run_text(kernel, request.problem); !cannot.empty()) {
            failures.emplace_back(ErrorKind::kUsage, cannot);
            send_kernel_error(reply, i, failures.back().first, failures.back().second);
            continue;
        }
        if (system.has_gpu() &&
            !ran_once_before_cupti(kernel, request.problem, request.seed, i, count, reply)) {
            return;
        }
        reply.progress(
            {"profile", "preparing " + run_text(kernel, request.problem), i, count, kCuptiAllowS});
        auto profiler = request.timeline ? std::make_unique<profiling::KernelProfiler>(0)
                                         : std::make_unique<profiling::KernelProfiler>(0, range);
        const profiling::ProfilerError prepared =
            profiler->prepare(kernel, request.problem, request.seed);
        if (!prepared.ok()) {
            failures.emplace_back(kind_of(prepared), prepared.message);
            send_kernel_error(reply, i, failures.back().first, failures.back().second);
            continue;
        }
        profilers[std::size_t(i)] = std::move(profiler);
    }
    if (failures.size() == chosen.size()) {
        // One reason for all (no permission, busy counters) is said once.
        bool same = true;
        for (const auto& failure : failures) same = same && failure == failures.front();
        if (same) return reply.error(failures.front().first, failures.front().second);
        return reply.error(ErrorKind::kFailed, "none of the chosen kernels could be profiled");
    }

    LiveProfileResult result;
    const auto enough = [&] {
        return request.max_updates > 0 && result.updates >= request.max_updates;
    };
    if (request.timeline) {
        profiling::TimelineOptions options;
        options.metrics = request.timeline->metrics;
        options.interval_ns = request.timeline->interval_ns;
        options.duration_ms = request.timeline->duration_ms;
        reply.progress(
            {"timeline", run_text(*chosen.front(), request.problem), -1, -1, kCuptiAllowS});
        result.timeline =
            profilers.front()->timeline(options, [&](const profiling::PmSnapshot& newest) {
                if (!newest.samples.empty()) {
                    LiveUpdate update;
                    update.kind = LiveUpdate::Kind::kSamples;
                    update.metrics = newest.metrics;
                    update.samples = newest.samples;
                    reply.update(to_json(update));
                    ++result.updates;
                }
                if (enough()) return false;
                result.stopped = reply.stop_asked();
                return !result.stopped;
            });
        if (!result.timeline->ok())
            return reply.error(kind_of(result.timeline->error), result.timeline->error.message);
    } else {
        reply.progress({"profile",
                        "profiling " + std::to_string(count - failures.size()) + " kernel(s) at " +
                            kernels::problem_text(request.problem),
                        -1, -1, kCuptiAllowS});
        profiling::ProfileOptions options;
        options.drop_unavailable = true;
        // The prepared kernels in turn until stopped or enough. A profile that failed is
        // answered here, unless the context was lost: that is said below, as a fault.
        const auto stream = [&] {
            for (;;) {
                for (int i = 0; i < count; ++i) {
                    if (!profilers[std::size_t(i)]) continue;
                    if (enough()) return;
                    result.stopped = reply.stop_asked();
                    if (result.stopped) return;
                    LiveUpdate update;
                    update.kernel = i;
                    update.profile = profilers[std::size_t(i)]->profile(request.metrics, options);
                    if (!update.profile.ok()) {
                        if (lost_context().empty()) {
                            reply.error(kind_of(update.profile.error),
                                        request.kernels[std::size_t(i)] + ": " +
                                            update.profile.error.message);
                        }
                        return;
                    }
                    reply.update(to_json(update));
                    ++result.updates;
                }
            }
        };
        stream();
    }
    if (const std::string lost = lost_context(); !lost.empty()) {
        return reply.error(
            ErrorKind::kFault,
            "a kernel faulted while profiled live: " + lost + "; the CUDA context is lost", true);
    }
    reply.result(to_json(result));
}

}  // namespace tclens::worker
