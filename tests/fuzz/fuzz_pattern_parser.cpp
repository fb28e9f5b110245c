// libFuzzer harness for viz/access_pattern.h (parse_pattern, validate_tile, lane_access) and the
// bank model that prices a parsed pattern (viz/bank_model.h, bank_requests).
//
// Input: "PATTERN\nSWIZZLE\nROWS ROW_BYTES" (swizzle and tile optional: "none" and the
// pattern's default tile for that swizzle).
// Invariants:
//   - a name parses to the listed pattern of that name, or gives an error that shows it in
//     double quotes (an empty name as "");
//   - on a tile validate_tile accepts, every lane's access lies inside the tile, aligned to
//     the access width, in phase lane / (128 / access_bytes);
//   - a priced request touches, per lane, the access_bytes / 4 consecutive banks of its
//     physical address; each phase needs at least one and at most one wavefront per lane;
//     totals add up and the conflicts are the wavefronts above the ideal.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"
#include "viz/access_pattern.h"
#include "viz/bank_model.h"
#include "viz/swizzle.h"

namespace tclens::fuzz {
namespace {

void check_lanes(const viz::Pattern& pattern, const viz::Tile& tile) {
    const std::vector<viz::Request> requests = viz::pattern_requests(pattern, tile);
    TCLENS_FUZZ_CHECK(!requests.empty(), pattern.name);
    for (const viz::Request& request : requests) {
        TCLENS_FUZZ_CHECK(request.access_bytes == pattern.access_bytes, pattern.name);
        TCLENS_FUZZ_CHECK(static_cast<int>(request.lanes.size()) == pattern.active_lanes,
                          pattern.name);
        for (const viz::LaneAccess& lane : request.lanes) {
            const std::string where = pattern.name + " lane " + std::to_string(lane.lane) +
                                      " -> (" + std::to_string(lane.row) + ", " +
                                      std::to_string(lane.byte_col) + ")";
            TCLENS_FUZZ_CHECK(lane.row >= 0 && lane.row < tile.rows, where);
            TCLENS_FUZZ_CHECK(
                lane.byte_col >= 0 && lane.byte_col + pattern.access_bytes <= tile.row_bytes,
                where);
            TCLENS_FUZZ_CHECK(lane.byte_col % pattern.access_bytes == 0, where);
            TCLENS_FUZZ_CHECK(lane.phase == lane.lane / (viz::kPhaseBytes / pattern.access_bytes),
                              where + " phase " + std::to_string(lane.phase));
            const viz::LaneAccess alone = viz::lane_access(pattern, tile, lane.lane);
            TCLENS_FUZZ_CHECK(alone.row == lane.row && alone.byte_col == lane.byte_col, where);
        }
    }
}

void check_report(const viz::BankReport& report) {
    const int words = report.pattern.access_bytes / viz::kBankBytes;
    int total = 0;
    int ideal = 0;
    for (const viz::RequestReport& request : report.requests) {
        for (const viz::LaneBanks& lane : request.lanes) {
            const std::string where = report.pattern.name + " under " + report.swizzle.spec +
                                      ", lane " + std::to_string(lane.lane);
            TCLENS_FUZZ_CHECK(lane.byte_addr == viz::physical_address(report.swizzle, report.tile,
                                                                      lane.row, lane.byte_col),
                              where);
            TCLENS_FUZZ_CHECK(static_cast<int>(lane.banks.size()) == words, where);
            for (int word = 0; word < words; ++word) {
                TCLENS_FUZZ_CHECK(
                    lane.banks[word] == (lane.byte_addr / viz::kBankBytes + word) % viz::kBankCount,
                    where + " word " + std::to_string(word));
            }
        }
        int wavefronts = 0;
        for (const viz::PhaseReport& phase : request.phases) {
            const int lanes = static_cast<int>(phase.lanes.size());
            TCLENS_FUZZ_CHECK(lanes > 0 && phase.wavefronts >= 1 && phase.wavefronts <= lanes,
                              report.pattern.name + " under " + report.swizzle.spec + ": phase " +
                                  std::to_string(phase.index) + " has " +
                                  std::to_string(phase.wavefronts) + " wavefronts for " +
                                  std::to_string(lanes) + " lanes");
            wavefronts += phase.wavefronts;
        }
        TCLENS_FUZZ_CHECK(request.wavefronts == wavefronts, report.pattern.name);
        TCLENS_FUZZ_CHECK(request.ideal_wavefronts == static_cast<int>(request.phases.size()),
                          report.pattern.name);
        total += request.wavefronts;
        ideal += request.ideal_wavefronts;
    }
    TCLENS_FUZZ_CHECK(report.total_wavefronts == total && report.ideal_wavefronts == ideal,
                      report.pattern.name);
    TCLENS_FUZZ_CHECK(
        report.conflict_wavefronts == total - ideal && report.conflict_wavefronts >= 0,
        report.pattern.name + " under " + report.swizzle.spec);
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::vector<std::string> fields = fuzz::split_fields(data, size, 3);
    const std::string& name = fields[0];

    const viz::Expected<viz::Pattern> parsed = viz::parse_pattern(name);
    if (!parsed) {
        TCLENS_FUZZ_CHECK(fuzz::names_quoted(parsed.error(), name, '"'), parsed.error());
        return 0;
    }
    const viz::Pattern& pattern = parsed.value();
    TCLENS_FUZZ_CHECK(pattern.name == name, name + " parsed as " + pattern.name);
    bool listed = false;
    for (const viz::Pattern& known : viz::list_patterns()) listed = listed || known.name == name;
    TCLENS_FUZZ_CHECK(listed, name + " parses but is not in list_patterns()");

    const viz::Expected<viz::Swizzle> swizzle =
        viz::parse_swizzle(fields[1].empty() ? "none" : fields[1]);
    if (!swizzle) return 0;
    viz::Tile tile = viz::default_tile(pattern, swizzle.value());
    if (const auto tile_size = fuzz::int_pair(fields[2])) {
        tile = viz::Tile{tile_size->first, tile_size->second};
    }

    const std::string tile_error = viz::validate_tile(pattern, tile);
    if (tile_error.empty()) fuzz::check_lanes(pattern, tile);

    const viz::Expected<viz::BankReport> report =
        viz::bank_requests(swizzle.value(), pattern, tile);
    TCLENS_FUZZ_CHECK(report.ok() == (tile_error.empty() &&
                                      viz::validate_swizzle(swizzle.value(), tile,
                                                            pattern.access_bytes, pattern.name)
                                          .empty()),
                      report.error());
    if (report) fuzz::check_report(report.value());
    return 0;
}
