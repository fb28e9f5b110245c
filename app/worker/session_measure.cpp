// WorkerSession::bank_measure, layout_verify and clock_skew (session.h): the `bank_measure`,
// `layout_verify` and `clock_skew` requests (docs/worker-protocol.md). All run tclens's own probes
// (kernels/probes/), never a user's code: the bank model measured under CUPTI
// (profiling/bank_measure.h), a fragment layout's instruction run with self-describing inputs and
// compared with its model (kernels/probes/fragment_probe.h), and the SMs' %globaltimer readings
// of one instant (kernels/probes/clock_skew_probe.h).
#include "app/worker/gpu_turn_wait.h"
#include "app/worker/results.h"
#include "app/worker/session.h"
#include "kernels/probes/clock_skew_probe.h"
#include "kernels/probes/fragment_probe.h"
#include "kernels/runner.h"
#include "profiling/bank_measure.h"
#include "profiling/device_query.h"
#include "viz/access_pattern.h"
#include "viz/bank_model.h"
#include "viz/fragment_layout.h"
#include "viz/swizzle.h"

namespace tclens::worker {
namespace {

// A layout's probe: one experiment per register slot of A and B (a wgmma has thousands), each a
// launch and a copy back; tclens's own code, so it may take longer than the client's limit.
constexpr double kProbeAllowS = 120;

}  // namespace

void WorkerSession::bank_measure(const BankMeasureRequest& request, Replier& reply) {
    const auto swizzle = viz::parse_swizzle(request.swizzle);
    if (!swizzle) {
        reply.error(ErrorKind::kUsage, swizzle.error());
        return;
    }
    const auto pattern = viz::parse_pattern(request.pattern);
    if (!pattern) {
        reply.error(ErrorKind::kUsage, pattern.error());
        return;
    }
    const auto report =
        viz::bank_requests(*swizzle, *pattern, viz::Tile{request.rows, request.row_bytes});
    if (!report) {
        reply.error(ErrorKind::kUsage, report.error());
        return;
    }
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) {
        reply.error(ErrorKind::kNeedsResource, "measuring bank conflicts needs an NVIDIA GPU (" +
                                                   system.no_gpu_reason +
                                                   "); the model needs none");
        return;
    }
    GpuTurn turn;  // this GPU's turn, held while the request profiles on it
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    const std::string what = pattern->name + " under " + swizzle->spec;
    reply.progress({"profile", what, -1, -1, kCuptiAllowS});
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();  // for lost_context()
    BankMeasureResult result;
    result.measurement = profiling::measure_bank_report(*report, request.iterations);
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(
            ErrorKind::kFault,
            "the bank probe of " + what + " faulted: " + lost + "; the CUDA context is lost", true);
        return;
    }
    const profiling::ProfilerError& error = result.measurement.error;
    if (!error.ok()) {
        reply.error(kind_of(error), error.message);
        return;
    }
    result.device = system.devices.front().name;
    reply.result(to_json(result));
}

void WorkerSession::layout_verify(const LayoutVerifyRequest& request, Replier& reply) {
    const auto model = viz::fragment_layout(request.layout);
    if (!model) {
        reply.error(ErrorKind::kUsage, "unknown layout '" + request.layout +
                                           "' (valid: " + viz::fragment_layout_ids_text() + ")");
        return;
    }
    if (!model->verifiable) {
        reply.error(
            ErrorKind::kNeedsResource,
            "cannot verify " + model->id + ": " + viz::kModelOnlyNote + " (" + model->source + ")");
        return;
    }
    if (!kernels::has_layout_probe(model->id)) {
        reply.error(ErrorKind::kFailed, model->id + " has no GPU probe");
        return;
    }
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) {
        reply.error(ErrorKind::kNeedsResource,
                    "verifying " + model->id + " needs a GPU (" + system.no_gpu_reason + ")");
        return;
    }
    GpuTurn turn;  // the probes' experiments take a turn like any timed work
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    const std::string& device = system.devices.front().name;
    reply.progress({"run", "probing " + model->id + " on " + device, 0, 1, kProbeAllowS});
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();  // for lost_context()
    const kernels::LayoutProbeResult measured = kernels::measure_fragment_layout(*model);
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(
            ErrorKind::kFault,
            "the probe of " + model->id + " faulted: " + lost + "; the CUDA context is lost", true);
        return;
    }
    if (!measured.skipped_reason.empty()) {
        reply.error(ErrorKind::kNeedsResource, "cannot verify " + model->id + " on " + device +
                                                   ": " + measured.skipped_reason);
        return;
    }
    if (!measured.error.empty()) {
        reply.error(ErrorKind::kFailed, measured.error);
        return;
    }
    reply.result(
        to_json(LayoutVerifyResult{model->id, device, kernels::compare_layouts(*model, measured)}));
}

void WorkerSession::clock_skew(const ClockSkewRequest& request, Replier& reply) {
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) {
        reply.error(ErrorKind::kNeedsResource,
                    "measuring the clock skew needs an NVIDIA GPU (" + system.no_gpu_reason + ")");
        return;
    }
    GpuTurn turn;  // one block on every SM: nothing else may run beside it
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    const std::string& device = system.devices.front().name;
    reply.progress({"run",
                    "clock skew probe, " + std::to_string(request.rounds) + " rounds on " + device,
                    0, 1, kProbeAllowS});
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();  // for lost_context()
    ClockSkewResult result;
    result.device = device;
    const std::string error = kernels::measure_clock_skew(request.rounds, result.summary);
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(ErrorKind::kFault,
                    "the clock skew probe faulted: " + lost + "; the CUDA context is lost", true);
        return;
    }
    if (!error.empty()) {
        reply.error(ErrorKind::kFailed, error);
        return;
    }
    reply.result(to_json(result));
}

}  // namespace tclens::worker
