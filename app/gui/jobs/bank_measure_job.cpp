#include "app/gui/jobs/bank_measure_job.h"

#include "app/gui/jobs/app_context.h"
#include "profiling/bank_measure.h"

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

JobHandle request_bank_measurement(AppContext& context, std::vector<viz::BankReport> reports) {
    return context.jobs.post("Measure banks", [&context, reports](JobProgress& progress) {
        progress.report(0.1f, "profiling the bank probe");
        auto result = std::make_shared<BankMeasurements>();
        const auto system = context.system.latest();
        if (system && system->has_gpu()) result->device = system->devices.front().name;
        const std::vector<profiling::BankMeasurement> measured =
            profiling::measure_bank_reports(reports);
        if (progress.cancelled()) return;
        for (size_t i = 0; i < reports.size(); ++i) {
            BankCaseMeasurement entry;
            entry.which = bank_case(reports[i]);
            entry.model = profiling::model_wavefronts_per_request(reports[i]);
            if (measured[i].error.ok()) {
                entry.measured = measured[i].wavefronts_per_request;
            } else {
                entry.error = measured[i].error.message;
            }
            result->cases.push_back(std::move(entry));
        }
        context.bank_measurements.publish(std::move(result));
    });
}

}  // namespace tclens::gui
