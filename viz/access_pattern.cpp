#include "viz/access_pattern.h"

#include <utility>

#include "common/text.h"

namespace tclens::viz {

namespace {

constexpr Tile kLsuDefaultTile{32, 128};  // a 32 x 32 fp32 tile: one 128-byte row per bank sweep

Pattern ldmatrix(int matrices, bool transposed) {
    Pattern pattern;
    pattern.name = "ldmatrix.x" + std::to_string(matrices) + (transposed ? ".trans" : "");
    const std::string last_lane = std::to_string(8 * matrices - 1);
    pattern.summary =
        matrices == 4
            ? "4 8x8 b16 matrices of a 16 x 32-byte block: lanes 0-15 give rows 0-15 at byte 0, "
              "lanes 16-31 the same rows at byte 16"
            : std::to_string(matrices) + " 8x8 b16 matri" + (matrices == 1 ? "x" : "ces") +
                  ": lanes 0-" + last_lane + " give rows 0-" + last_lane + " at byte 0";
    if (transposed) {
        pattern.summary += " (.trans transposes in registers: same banks)";
    }
    pattern.mapping = LaneMapping::kLdmatrix;
    pattern.access_bytes = 16;
    pattern.active_lanes = 8 * matrices;
    pattern.min_rows = matrices == 1 ? 8 : 16;
    pattern.min_row_bytes = matrices == 4 ? 32 : 16;
    pattern.default_tile = Tile{pattern.min_rows, pattern.min_row_bytes};
    return pattern;
}

Pattern lsu_pattern(std::string name, std::string summary, LaneMapping mapping, int access_bytes,
                    bool is_store) {
    Pattern pattern;
    pattern.name = std::move(name);
    pattern.summary = std::move(summary);
    pattern.mapping = mapping;
    pattern.access_bytes = access_bytes;
    pattern.is_store = is_store;
    pattern.default_tile = kLsuDefaultTile;
    return pattern;
}

std::vector<Pattern> build_patterns() {
    std::vector<Pattern> patterns;
    for (bool transposed : {false, true}) {
        for (int matrices : {1, 2, 4}) {
            patterns.push_back(ldmatrix(matrices, transposed));
        }
    }

    Pattern cp_async =
        lsu_pattern("cp.async.16",
                    "cp.async 16-byte copies into shared memory: lane l writes the l-th "
                    "16-byte chunk of the tile, row-major",
                    LaneMapping::kLinear, 16, true);
    cp_async.min_tile_bytes = kWarpLanes * 16;
    patterns.push_back(cp_async);

    Pattern lds128 =
        lsu_pattern("lds.128.row",
                    "16-byte loads (float4): lane l reads the l-th 16-byte chunk of the tile, "
                    "row-major",
                    LaneMapping::kLinear, 16, false);
    lds128.min_tile_bytes = kWarpLanes * 16;
    patterns.push_back(lds128);

    Pattern lds64 =
        lsu_pattern("lds.64.row",
                    "8-byte loads (float2): lane l reads bytes 8l..8l+7, continuing on the next "
                    "row when the row is shorter",
                    LaneMapping::kLinear, 8, false);
    lds64.min_tile_bytes = kWarpLanes * 8;
    patterns.push_back(lds64);

    Pattern lds32_row =
        lsu_pattern("lds.32.row", "4-byte loads along a row: lane l reads bytes 4l..4l+3 of row 0",
                    LaneMapping::kLinear, 4, false);
    lds32_row.min_row_bytes = kWarpLanes * 4;
    patterns.push_back(lds32_row);

    Pattern lds32_col =
        lsu_pattern("lds.32.col", "4-byte loads down a column: lane l reads bytes 0..3 of row l",
                    LaneMapping::kColumn, 4, false);
    lds32_col.min_rows = kWarpLanes;
    patterns.push_back(lds32_col);

    Pattern lds32_same =
        lsu_pattern("lds.32.bcast",
                    "4-byte loads of one word: every lane reads bytes 0..3 of row 0 "
                    "(a broadcast)",
                    LaneMapping::kSameWord, 4, false);
    lds32_same.min_row_bytes = 4;
    patterns.push_back(lds32_same);

    Pattern sts32_col =
        lsu_pattern("sts.32.col", "4-byte stores down a column: lane l writes bytes 0..3 of row l",
                    LaneMapping::kColumn, 4, true);
    sts32_col.min_rows = kWarpLanes;
    patterns.push_back(sts32_col);
    return patterns;
}

std::string allowed_names() {
    return common::join(list_patterns(), ", ",
                        [](const Pattern& pattern) -> const std::string& { return pattern.name; });
}

}  // namespace

const std::vector<Pattern>& list_patterns() {
    static const std::vector<Pattern> patterns = build_patterns();
    return patterns;
}

common::Expected<Pattern> parse_pattern(const std::string& name) {
    for (const Pattern& pattern : list_patterns()) {
        if (pattern.name == name) {
            return common::Expected<Pattern>::success(pattern);
        }
    }
    return common::Expected<Pattern>::failure("unknown pattern \"" + name +
                                              "\"; allowed: " + allowed_names());
}

std::string validate_tile(const Pattern& pattern, const Tile& tile) {
    const std::string shape =
        "tile " + std::to_string(tile.rows) + " x " + std::to_string(tile.row_bytes) + " bytes";
    if (tile.rows < 1 || tile.row_bytes < 1) {
        return shape + ": rows and row_bytes must both be at least 1";
    }
    if (tile_bytes(tile) > kMaxTileBytes) {
        return shape + " is " + std::to_string(tile_bytes(tile)) + " bytes; at most " +
               std::to_string(kMaxTileBytes) + " (256 KiB) is allowed";
    }
    if (tile.row_bytes % pattern.access_bytes != 0) {
        return "row_bytes " + std::to_string(tile.row_bytes) + " is not a multiple of " +
               std::to_string(pattern.access_bytes) + ", the access width of " + pattern.name;
    }
    if (tile.rows < pattern.min_rows || tile.row_bytes < pattern.min_row_bytes ||
        tile_bytes(tile) < pattern.min_tile_bytes) {
        std::string needs;
        if (pattern.min_tile_bytes > 1) {
            needs = std::to_string(pattern.min_tile_bytes) + " bytes (" +
                    std::to_string(pattern.active_lanes) + " lanes x " +
                    std::to_string(pattern.access_bytes) + ")";
        } else if (pattern.min_rows > 1) {
            needs = std::to_string(pattern.min_rows) + " rows";
            if (pattern.min_row_bytes > pattern.access_bytes) {
                needs += " of " + std::to_string(pattern.min_row_bytes) + " bytes";
            }
        } else {
            needs = "rows of " + std::to_string(pattern.min_row_bytes) + " bytes";
        }
        return shape + " is too small for " + pattern.name + ": it needs at least " + needs;
    }
    return "";
}

// lane -> (row, byte_col). Worked example: ldmatrix.x4, lane 21 -> (5, 16).
LaneAccess lane_access(const Pattern& pattern, const Tile& tile, int lane) {
    LaneAccess access;
    access.lane = lane;
    access.phase = lane / (kPhaseBytes / pattern.access_bytes);
    switch (pattern.mapping) {
        case LaneMapping::kLdmatrix:
            access.row = lane % 16;
            access.byte_col = 16 * (lane / 16);
            break;
        case LaneMapping::kLinear: {
            const int offset = lane * pattern.access_bytes;
            access.row = offset / tile.row_bytes;
            access.byte_col = offset % tile.row_bytes;
            break;
        }
        case LaneMapping::kColumn:
            access.row = lane;
            access.byte_col = 0;
            break;
        case LaneMapping::kSameWord:
            access.row = 0;
            access.byte_col = 0;
            break;
    }
    return access;
}

std::vector<Request> pattern_requests(const Pattern& pattern, const Tile& tile) {
    Request request;
    request.index = 0;
    request.access_bytes = pattern.access_bytes;
    request.is_store = pattern.is_store;
    const int lanes_per_phase = kPhaseBytes / pattern.access_bytes;
    request.phase_count = (pattern.active_lanes + lanes_per_phase - 1) / lanes_per_phase;
    for (int lane = 0; lane < pattern.active_lanes; ++lane) {
        request.lanes.push_back(lane_access(pattern, tile, lane));
    }
    return {request};
}

}  // namespace tclens::viz
