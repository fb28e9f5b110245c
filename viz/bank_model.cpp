#include "viz/bank_model.h"

#include <algorithm>
#include <set>

namespace tclens::viz {

// (byte_addrs, access_bytes) -> wavefronts. Example: {0, 0, 128} x 4 bytes -> 2.
PhaseCost phase_cost(const std::vector<std::int64_t>& byte_addrs, int access_bytes) {
    std::array<std::set<std::int64_t>, kBankCount> words_per_bank;
    for (std::int64_t byte_addr : byte_addrs) {
        const std::int64_t first = byte_addr / kBankBytes;
        const std::int64_t last = (byte_addr + access_bytes - 1) / kBankBytes;
        for (std::int64_t word = first; word <= last; ++word) {
            words_per_bank[word % kBankCount].insert(word);
        }
    }
    PhaseCost cost;
    for (int bank = 0; bank < kBankCount; ++bank) {
        cost.bank_words[bank] = static_cast<int>(words_per_bank[bank].size());
        cost.wavefronts = std::max(cost.wavefronts, cost.bank_words[bank]);
    }
    return cost;
}

Tile default_tile(const Pattern& pattern, const Swizzle& swizzle) {
    Tile tile = pattern.default_tile;
    if (swizzle.kind != SwizzleKind::kCute || swizzle.bits == 0) {
        return tile;
    }
    const int row_span = 1 << (swizzle.base + swizzle.shift);
    const std::int64_t span = std::int64_t{1} << (swizzle.bits + swizzle.base + swizzle.shift);
    tile.row_bytes = std::max(tile.row_bytes, row_span);
    tile.rows = std::max(tile.rows, static_cast<int>((span + tile.row_bytes - 1) / tile.row_bytes));
    return tile;
}

namespace {

RequestReport price_request(const Swizzle& swizzle, const Tile& tile, const Request& request) {
    RequestReport report;
    report.index = request.index;
    report.access_bytes = request.access_bytes;
    report.is_store = request.is_store;
    report.ideal_wavefronts = request.phase_count;
    report.phases.resize(request.phase_count);

    std::vector<std::vector<std::int64_t>> phase_addrs(request.phase_count);
    for (const LaneAccess& access : request.lanes) {
        LaneBanks lane;
        lane.lane = access.lane;
        lane.phase = access.phase;
        lane.row = access.row;
        lane.byte_col = access.byte_col;
        lane.byte_addr = physical_address(swizzle, tile, access.row, access.byte_col);
        for (int offset = 0; offset < request.access_bytes; offset += kBankBytes) {
            lane.banks.push_back(bank_of(lane.byte_addr + offset));
        }
        PhaseReport& phase = report.phases[access.phase];
        phase.lanes.push_back(access.lane);
        for (int bank : lane.banks) {
            phase.bank_lanes[bank].push_back(access.lane);
        }
        phase_addrs[access.phase].push_back(lane.byte_addr);
        report.lanes.push_back(std::move(lane));
    }
    for (int index = 0; index < request.phase_count; ++index) {
        const PhaseCost cost = phase_cost(phase_addrs[index], request.access_bytes);
        PhaseReport& phase = report.phases[index];
        phase.index = index;
        phase.wavefronts = cost.wavefronts;
        phase.bank_words = cost.bank_words;
        report.wavefronts += cost.wavefronts;
    }
    return report;
}

}  // namespace

common::Expected<BankReport> bank_requests(const Swizzle& swizzle, const Pattern& pattern,
                                           const Tile& tile) {
    std::string error = validate_tile(pattern, tile);
    if (error.empty()) {
        error = validate_swizzle(swizzle, tile, pattern.access_bytes, pattern.name);
    }
    if (!error.empty()) {
        return common::Expected<BankReport>::failure(error);
    }
    BankReport report;
    report.swizzle = swizzle;
    report.pattern = pattern;
    report.tile = tile;
    for (const Request& request : pattern_requests(pattern, tile)) {
        report.requests.push_back(price_request(swizzle, tile, request));
        report.total_wavefronts += report.requests.back().wavefronts;
        report.ideal_wavefronts += report.requests.back().ideal_wavefronts;
    }
    report.conflict_wavefronts = report.total_wavefronts - report.ideal_wavefronts;
    return common::Expected<BankReport>::success(std::move(report));
}

}  // namespace tclens::viz
