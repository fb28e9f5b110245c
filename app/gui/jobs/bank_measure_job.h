#pragma once
// "Measure on GPU" for the Banks panel: each of the panel's bank models measured in the worker
// (a `bank_measure` request: the bank probe under CUPTI there, profiling/bank_measure.h, never in
// this process), published next to the model's wavefronts. A case the worker refuses (no GPU
// where it runs, cp.async) or a worker that is lost is that case's one-line error.

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
    std::string device;                      // the worker's GPU name; "" when it has none
    std::vector<BankCaseMeasurement> cases;  // in the order the reports were posted

    // The measurement of `which`, or nullptr.
    const BankCaseMeasurement* find(const BankCase& which) const;
};

// Posts one job ("Measure banks") measuring every report, one request each; the result
// replaces context.bank_measurements (nothing is published when cancelled). Reports are copied:
// the panel may change meanwhile. Once no worker answers, the cases left get that line unasked.
JobHandle request_bank_measurement(AppContext& context, std::vector<viz::BankReport> reports);

}  // namespace tclens::gui
