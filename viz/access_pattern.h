#pragma once
// Warp-wide shared-memory access patterns: which logical byte of a tile each lane touches.
//
// A pattern is one warp instruction (ldmatrix, LDS, STS, cp.async) described on the logical
// tile (row, byte_col); the swizzle (viz/swizzle.h) later turns that into a physical address.
// Lanes are split into phases, the groups the shared-memory pipeline serves together:
// 128 bytes' worth of lanes, i.e. 32 lanes of 4-byte, 16 of 8-byte and 8 of 16-byte accesses;
// for ldmatrix each 8 x 16-byte matrix (8 lanes) is one phase.

#include <string>
#include <vector>

#include "common/expected.h"
#include "viz/swizzle.h"
#include "viz/warp.h"

namespace tclens::viz {

constexpr int kPhaseBytes = 128;  // 32 banks x 4 bytes

// How a pattern's lanes pick their logical bytes; see lane_access().
enum class LaneMapping {
    kLdmatrix,  // lane l < active_lanes -> (l mod 16, 16 * (l / 16))
    kLinear,    // lane l -> the l-th access_bytes piece of the tile, row-major
    kColumn,    // lane l -> (l, 0)
    kSameWord,  // every lane -> (0, 0)
};

struct Pattern {
    std::string name;     // e.g. "ldmatrix.x4"
    std::string summary;  // one line for --list
    LaneMapping mapping = LaneMapping::kLinear;
    int access_bytes = 4;           // bytes per lane: 4, 8 or 16
    int active_lanes = kWarpLanes;  // lanes 0 .. active_lanes-1 take part
    bool is_store = false;          // writes shared memory (sts, cp.async)
    Tile default_tile;              // used when the user gives no rows / row_bytes
    int min_rows = 1;               // smallest tile the pattern fits in
    int min_row_bytes = 1;
    int min_tile_bytes = 1;
};

// The logical byte a lane accesses first; it touches [byte_col, byte_col + access_bytes).
struct LaneAccess {
    int lane = 0;
    int row = 0;
    int byte_col = 0;
    int phase = 0;  // lane / (kPhaseBytes / access_bytes)
};

// One warp-wide instruction: the participating lanes in lane order.
struct Request {
    int index = 0;
    int access_bytes = 4;
    bool is_store = false;
    int phase_count = 1;  // number of phases = the ideal wavefront count
    std::vector<LaneAccess> lanes;
};

// Looks a pattern up by name. On error: one line naming the value and every allowed name.
common::Expected<Pattern> parse_pattern(const std::string& name);

// All patterns in a stable order, for `tclens banks --list`.
const std::vector<Pattern>& list_patterns();

// Checks `tile` for `pattern`: positive sizes, at most kMaxTileBytes, row_bytes a multiple of
// the access width, and large enough for every lane. Returns "" when fine, else one line
// naming the value and what is allowed.
std::string validate_tile(const Pattern& pattern, const Tile& tile);

// lane -> (row, byte_col): the logical byte where `lane` starts its access.
// Precondition: validate_tile(pattern, tile) == "" and 0 <= lane < pattern.active_lanes.
// Worked examples: ldmatrix.x4, lane 21 -> (5, 16) (row 5 of the right 16 x 8 b16 half);
// lds.64.row on a 32 x 64 tile, lane 9 -> offset 72 -> (1, 8); lds.32.col, lane 7 -> (7, 0).
LaneAccess lane_access(const Pattern& pattern, const Tile& tile, int lane);

// The warp instructions of `pattern` over `tile` (every built-in pattern is one request).
// Precondition: validate_tile(pattern, tile) == "".
std::vector<Request> pattern_requests(const Pattern& pattern, const Tile& tile);

}  // namespace tclens::viz
