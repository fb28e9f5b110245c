#pragma once
// The error map of a failed GEMM verification: where in C the wrong elements are. Pure C++.
//
// An element of C is wrong when it is NaN (or infinite) or |got - expected| > tolerance. The
// runner uses element_tolerance below: kErrorMapSlack x the verification bound x RMS(reference),
// and never less than kMinElementTolerance x RMS(reference). A correct kernel's rounding errors
// stay below it (their RMS is below bound x RMS(reference)), a wrong index leaves errors of the
// size of the values themselves.
//
// C (rows x cols) is cut into cells of cell_rows x cell_cols elements, the first granularity of
// this list whose grid fits kMaxErrorMapSide cells a side:
//   1 x 1 ("element"), 16 x 8 ("16x8 tile", one mma.sync C fragment), the kernel's block tile
//   ("block tile 128x256"; skipped when unknown), then that (or 16 x 8) doubled on both sides
//   until it fits ("block tile 128x256 x4" is 512 x 1024 elements).
// Each cell counts its elements, the wrong ones and, of those, the NaN ones. Edge cells may be
// smaller than the others (rows % cell_rows).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tclens::viz {

inline constexpr int kMaxErrorMapSide = 128;
inline constexpr double kErrorMapSlack = 4.0;
// The least tolerance, as a share of RMS(reference). FP32 rungs that sum all of K in one
// accumulator (rungs 1-3) differ from cuBLAS's blocked sums with heavy tails: 427 of the 9.4 M
// elements of a correct naive_fma.f32 at 3072^3 lay beyond 4 x its bound (2e-6) x RMS on an
// H200 (session 20), its rel. RMS error 1.0e-6. A wrong element is off by a sizeable share of
// its value (one missing K tile of 48: about 0.14 of RMS), far above this floor.
inline constexpr double kMinElementTolerance = 1e-3;

// How far an element of C may be from the reference whose RMS is `reference_rms`, under the
// verification `bound` (a relative RMS error).
inline double element_tolerance(double bound, double reference_rms) {
    return std::max(kErrorMapSlack * bound, kMinElementTolerance) * reference_rms;
}

// The one test of an element of C: wrong when not finite or farther than `tolerance` from the
// expected value.
inline bool is_wrong_element(double got, double expected, double tolerance) {
    return !std::isfinite(got) || std::fabs(got - expected) > tolerance;
}

// The wrong elements of every whole instruction tile of C, folded onto one tile (fragment_bug.h:
// fold_errors).
struct FoldedErrors {
    std::string layout_id;  // the instruction, e.g. "mma.m16n8k16.f16"
    int rows = 0;           // the C tile: 16 x 8 for mma.m16n8k*
    int cols = 0;
    std::vector<std::int64_t> wrong;  // rows x cols, row-major: how many tiles had that place wrong
    std::int64_t tiles = 0;           // whole tiles folded (a ragged edge is left out)
    std::int64_t wrong_tiles = 0;     // of those, the tiles with a wrong element
};

struct ErrorCell {
    std::int64_t elements = 0;
    std::int64_t wrong = 0;  // NaN ones included
    std::int64_t nan = 0;
};

struct WrongElement {
    std::int64_t row = 0;
    std::int64_t col = 0;
    double expected = 0;
    double got = 0;  // may be NaN
};

struct ErrorMap {
    std::int64_t rows = 0;  // C is rows x cols (M x N)
    std::int64_t cols = 0;
    int cell_rows = 1;
    int cell_cols = 1;
    std::string granularity;  // "element", "16x8 tile", "block tile 128x256", "... x4"
    int grid_rows = 0;        // ceil(rows / cell_rows)
    int grid_cols = 0;
    std::vector<ErrorCell> cells;  // grid_rows x grid_cols, row-major
    std::int64_t wrong = 0;        // over all of C, NaN included
    std::int64_t nan = 0;
    double tolerance = 0;
    std::optional<WrongElement> first_wrong;  // in row-major order
    // The bug the wrong values name (fragment_bug.h: name_fragment_bug), "" when none fits or it
    // was not asked for.
    std::string bug;
    // The wrong elements folded onto one C tile of the kernel's instruction (fold_errors);
    // folded.rows == 0 when not folded (no instruction known).
    FoldedErrors folded;

    const ErrorCell& cell(int grid_row, int grid_col) const {
        return cells[static_cast<std::size_t>(grid_row) * grid_cols + grid_col];
    }
};

struct ErrorCellShape {
    int rows = 1;
    int cols = 1;
    std::string granularity;
};

// The cell shape for a rows x cols C (see the top). block_rows/block_cols = 0: no block tile.
// 64 x 64 -> 1 x 1 "element"; 1024 x 512 -> 16 x 8; 4096 x 4096 with a 128 x 128 block ->
// 128 x 128 "block tile 128x128"; 65536 x 65536 with it -> 512 x 512 "block tile 128x128 x4".
ErrorCellShape error_cell_shape(std::int64_t rows, std::int64_t cols, int block_rows,
                                int block_cols);

// The map of `got` against `expected` (both rows x cols, row-major).
ErrorMap build_error_map(const float* got, const double* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const ErrorCellShape& shape);
ErrorMap build_error_map(const float* got, const float* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const ErrorCellShape& shape);

// "12 of 4096 elements wrong (3 NaN), per element; first C[0][1]: expected 1.5, got -0.25".
std::string error_map_summary(const ErrorMap& map);

// One line about the shape of the wrong set, for the tell-tale patterns (tested on them). A
// region counts as wrong when at least 3/4 of its elements are (a wrong value can fall within
// the tolerance of the right one by chance) and as right when none is. In this order:
//   "12 elements never written (NaN)" (every wrong element is NaN)
//   "wrong everywhere (84% of the elements): the whole sum is off (the K loop: a missed K tail
//    or a wrong K stride), or the inputs are read in the wrong layout" (half of C or more, and
//    at least a quarter of every tile)
//   "only the last 5 rows are wrong: the M edge (rows beyond the last full tile)"
//   "only the last 7 columns are wrong: the N edge (columns beyond the last full tile)"
//   "the same 4 of 128 places in every 16x8 tile are wrong: a fragment index mapping"
//   "3 of 16 tiles (block tile 128x128) wrong, the others all right: a block's offset or its
//    tile bounds"
// (rows, columns and places need an element map; tiles are 16x8 in an element map whose sides
// are whole tiles, else the map's cells); "" when no rule fits or nothing is wrong.
std::string error_pattern_hint(const ErrorMap& map);

// What the map says beyond its summary, one line each: the pattern hint, then the named bug
// (map.bug); those that are not empty.
std::vector<std::string> error_map_notes(const ErrorMap& map);

}  // namespace tclens::viz
