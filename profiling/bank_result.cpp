#include "profiling/bank_result.h"

namespace tclens::profiling {

double model_wavefronts_per_request(const viz::BankReport& report) {
    if (report.requests.empty()) {
        return 0;
    }
    return static_cast<double>(report.total_wavefronts) /
           static_cast<double>(report.requests.size());
}

}  // namespace tclens::profiling
