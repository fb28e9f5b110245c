#include "app/gui/jobs/bank_measure_job.h"

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/gui_worker.h"
#include "app/worker/gpu_calls.h"
#include "profiling/bank_result.h"

namespace tclens::gui {

bool operator==(const BankCase& a, const BankCase& b) {
    return a.pattern == b.pattern && a.swizzle == b.swizzle && a.tile == b.tile;
}

BankCase bank_case(const viz::BankReport& report) {
    return {report.pattern.name, report.swizzle.spec, report.tile};
}

const BankCaseMeasurement* BankMeasurements::find(const BankCase& which) const {
    for (const BankCaseMeasurement& measurement : cases) {
        if (measurement.which == which) return &measurement;
    }
    return nullptr;
}

namespace {

// The case of `report` with the model's wavefronts, the worker's answer not yet asked.
BankCaseMeasurement modelled_case(const viz::BankReport& report) {
    BankCaseMeasurement entry;
    entry.which = bank_case(report);
    entry.model = profiling::model_wavefronts_per_request(report);
    return entry;
}

}  // namespace

JobHandle request_bank_measurement(AppContext& context, std::vector<viz::BankReport> reports) {
    return context.jobs.post("Measure banks", [&context, reports](JobProgress& progress) {
        auto result = std::make_shared<BankMeasurements>();
        worker::WorkerClient& client = worker_client(context);
        // Once no worker answers (none starts, or it was lost), the rest is not asked: one line.
        std::string unreachable;
        for (std::size_t i = 0; i < reports.size(); ++i) {
            BankCaseMeasurement entry = modelled_case(reports[i]);
            progress.report(float(i) / float(reports.size()),
                            "measuring " + entry.which.pattern + " under " + entry.which.swizzle);
            if (!unreachable.empty()) {
                entry.error = unreachable;
                result->cases.push_back(std::move(entry));
                continue;
            }
            worker::BankMeasureResult measured;
            const worker::Reply reply =
                worker::measure_bank(client, reports[i], profiling::kDefaultBankIterations,
                                     measured, job_progress(progress), &progress.cancel_flag());
            if (reply.outcome == worker::Reply::Outcome::kCancelled) return;
            if (reply.ok()) {
                entry.measured = measured.measurement.wavefronts_per_request;
                result->device = measured.device;
            } else {
                entry.error = failure_line(reply);
                if (reply.worker_lost() || reply.outcome == worker::Reply::Outcome::kCannotStart)
                    unreachable = entry.error;
            }
            result->cases.push_back(std::move(entry));
        }
        if (result->device.empty()) result->device = worker_gpu_name(client);
        context.bank_measurements.publish(std::move(result));
    });
}

}  // namespace tclens::gui
