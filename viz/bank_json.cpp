#include "viz/bank_json.h"

namespace tclens::viz {

nlohmann::json bank_report_json(const BankReport& report) {
    nlohmann::json requests = nlohmann::json::array();
    for (const RequestReport& request : report.requests) {
        nlohmann::json lanes = nlohmann::json::array();
        for (const LaneBanks& lane : request.lanes) {
            lanes.push_back(
                {{"lane", lane.lane}, {"byte_addr", lane.byte_addr}, {"banks", lane.banks}});
        }
        requests.push_back({{"index", request.index},
                            {"access_bytes", request.access_bytes},
                            {"lanes", lanes},
                            {"wavefronts", request.wavefronts},
                            {"ideal_wavefronts", request.ideal_wavefronts}});
    }
    nlohmann::json measured = nullptr;
    if (report.measured_wavefronts) {
        measured = *report.measured_wavefronts;
    }
    return {{"swizzle", report.swizzle.spec},
            {"pattern", report.pattern.name},
            {"bank_count", kBankCount},
            {"bank_bytes", kBankBytes},
            {"requests", requests},
            {"total_wavefronts", report.total_wavefronts},
            {"ideal_wavefronts", report.ideal_wavefronts},
            {"conflict_wavefronts", report.conflict_wavefronts},
            {"measured", measured}};
}

}  // namespace tclens::viz
