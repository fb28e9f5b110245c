#pragma once
// "Measure on GPU" for the Banks panel: runs the bank probe (profiling/bank_measure.h) for the
// panel's bank models on the job runner and publishes the measured wavefronts next to the
// model's.

#include <optional>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "viz/bank_model.h"

namespace tclens::gui {

struct AppContext;

// What a BankReport models: a measurement belongs to the report with the same case.
struct BankCase {
    std::string pattern;  // Pattern::name
    std::string swizzle;  // Swizzle::spec
    viz::Tile tile;
};

bool operator==(const BankCase& a, const BankCase& b);

BankCase bank_case(const viz::BankReport& report);

struct BankCaseMeasurement {
    BankCase which;
    double model = 0;                // the model's wavefronts per instruction
    std::optional<double> measured;  // the GPU's, per instruction; empty when `error` says why
    std::string error;               // one line; "" when measured
};

struct BankMeasurements {
    std::string device;                      // GPU name
    std::vector<BankCaseMeasurement> cases;  // in the order the reports were posted

    // The measurement of `which`, or nullptr.
    const BankCaseMeasurement* find(const BankCase& which) const;
};

// Posts one job ("Measure banks") measuring every report in one profiling session; the result
// replaces context.bank_measurements. Reports are copied: the panel may change meanwhile.
JobHandle request_bank_measurement(AppContext& context, std::vector<viz::BankReport> reports);

}  // namespace tclens::gui
