#include "app/worker/gpu_calls.h"

namespace tclens::worker {

BankMeasureRequest bank_measure_request(const viz::BankReport& report, int iterations) {
    BankMeasureRequest request;
    request.swizzle = report.swizzle.spec;
    request.pattern = report.pattern.name;
    request.rows = report.tile.rows;
    request.row_bytes = report.tile.row_bytes;
    request.iterations = iterations;
    return request;
}

Reply measure_bank(WorkerClient& client, const viz::BankReport& report, int iterations,
                   BankMeasureResult& result, const ProgressHandler& progress,
                   const std::atomic<bool>* cancel) {
    Reply reply = client.call(bank_measure_request(report, iterations), progress, cancel);
    read_result(reply, "bank_measure", bank_measure_from_json, result);
    return reply;
}

Reply verify_layout(WorkerClient& client, const std::string& layout, LayoutVerifyResult& result,
                    const ProgressHandler& progress, const std::atomic<bool>* cancel) {
    Reply reply = client.call(LayoutVerifyRequest{layout}, progress, cancel);
    read_result(reply, "layout_verify", layout_verify_from_json, result);
    return reply;
}

Reply take_source_profile(WorkerClient& client, const WorkerSourceRequest& request,
                          SourceResult& result, const ProgressHandler& progress,
                          const std::atomic<bool>* cancel) {
    Reply reply = client.call(request, progress, cancel);
    read_result(reply, "source", source_from_json, result);
    return reply;
}

Reply take_trace(WorkerClient& client, const TraceRequest& request, TraceResult& result,
                 const ProgressHandler& progress, const std::atomic<bool>* cancel) {
    Reply reply = client.call(request, progress, cancel);
    read_result(reply, "trace", trace_from_json, result);
    return reply;
}

Reply profile_live(WorkerClient& client, const LiveProfileRequest& request,
                   const std::function<void(const LiveUpdate&)>& on_update,
                   const StopPoll& stop_wanted, LiveProfileResult& result,
                   const ProgressHandler& progress, const std::atomic<bool>* cancel) {
    const UpdateHandler read_update = [&](const nlohmann::json& json) {
        LiveUpdate update;
        std::string error;
        if (!live_update_from_json(json, update, error)) return error;
        if (update.kind != LiveUpdate::Kind::kSamples &&
            update.kernel >= static_cast<int>(request.kernels.size())) {
            return "an update of kernel " + std::to_string(update.kernel) + " of " +
                   std::to_string(request.kernels.size());
        }
        on_update(update);
        return std::string();
    };
    Reply reply = client.stream(request, read_update, stop_wanted, progress, cancel);
    read_result(reply, "live_profile", live_result_from_json, result);
    return reply;
}

Reply measure_clock_skew(WorkerClient& client, int rounds, ClockSkewResult& result,
                         const ProgressHandler& progress, const std::atomic<bool>* cancel) {
    Reply reply = client.call(ClockSkewRequest{rounds}, progress, cancel);
    read_result(reply, "clock_skew", clock_skew_from_json, result);
    return reply;
}

}  // namespace tclens::worker
