#include "viz/error_map.h"

#include <cmath>
#include <cstdio>

namespace tclens::viz {
namespace {

bool fits(std::int64_t rows, std::int64_t cols, std::int64_t cell_rows, std::int64_t cell_cols) {
    return (rows + cell_rows - 1) / cell_rows <= kMaxErrorMapSide &&
           (cols + cell_cols - 1) / cell_cols <= kMaxErrorMapSide;
}

template <typename Expected>
ErrorMap build(const float* got, const Expected* expected, std::int64_t rows, std::int64_t cols,
               double tolerance, const ErrorCellShape& shape) {
    ErrorMap map;
    map.rows = rows;
    map.cols = cols;
    map.cell_rows = shape.rows;
    map.cell_cols = shape.cols;
    map.granularity = shape.granularity;
    map.tolerance = tolerance;
    map.grid_rows = static_cast<int>((rows + shape.rows - 1) / shape.rows);
    map.grid_cols = static_cast<int>((cols + shape.cols - 1) / shape.cols);
    map.cells.assign(static_cast<std::size_t>(map.grid_rows) * map.grid_cols, ErrorCell{});
    for (std::int64_t r = 0; r < rows; ++r) {
        ErrorCell* row_cells = &map.cells[static_cast<std::size_t>(r / shape.rows) * map.grid_cols];
        const float* g = got + r * cols;
        const Expected* e = expected + r * cols;
        for (std::int64_t c = 0; c < cols; ++c) {
            ErrorCell& cell = row_cells[c / shape.cols];
            ++cell.elements;
            const double value = g[c];
            const double want = static_cast<double>(e[c]);
            const bool not_finite = !std::isfinite(value);
            if (!not_finite && std::fabs(value - want) <= tolerance) continue;
            ++cell.wrong;
            ++map.wrong;
            if (std::isnan(value)) {
                ++cell.nan;
                ++map.nan;
            }
            if (!map.first_wrong) map.first_wrong = WrongElement{r, c, want, value};
        }
    }
    return map;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

}  // namespace

ErrorCellShape error_cell_shape(std::int64_t rows, std::int64_t cols, int block_rows,
                                int block_cols) {
    if (fits(rows, cols, 1, 1)) return {1, 1, "element"};
    if (fits(rows, cols, 16, 8)) return {16, 8, "16x8 tile"};
    const bool block = block_rows > 0 && block_cols > 0;
    const int base_rows = block ? block_rows : 16;
    const int base_cols = block ? block_cols : 8;
    const std::string base =
        block ? "block tile " + std::to_string(block_rows) + "x" + std::to_string(block_cols)
              : "16x8 tile";
    std::int64_t scale = 1;
    while (!fits(rows, cols, base_rows * scale, base_cols * scale)) scale *= 2;
    return {static_cast<int>(base_rows * scale), static_cast<int>(base_cols * scale),
            scale == 1 ? base : base + " x" + std::to_string(scale)};
}

ErrorMap build_error_map(const float* got, const double* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const ErrorCellShape& shape) {
    return build(got, expected, rows, cols, tolerance, shape);
}

ErrorMap build_error_map(const float* got, const float* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const ErrorCellShape& shape) {
    return build(got, expected, rows, cols, tolerance, shape);
}

std::string error_map_summary(const ErrorMap& map) {
    std::string text = std::to_string(map.wrong) + " of " + std::to_string(map.rows * map.cols) +
                       " elements wrong";
    if (map.nan > 0) text += " (" + std::to_string(map.nan) + " NaN)";
    text += ", per " + map.granularity;
    if (map.first_wrong) {
        const WrongElement& w = *map.first_wrong;
        text += "; first C[" + std::to_string(w.row) + "][" + std::to_string(w.col) +
                "]: expected " + number(w.expected) + ", got " + number(w.got);
    }
    return text;
}

std::string error_pattern_hint(const ErrorMap& map) {
    if (map.wrong == 0 || map.cells.empty()) return "";
    const std::int64_t total = map.rows * map.cols;
    if (map.nan == map.wrong) {
        return std::to_string(map.nan) + " elements never written (NaN)";
    }
    if (map.wrong == total) {
        return "every element is wrong: the whole sum is off (the K loop: a missed K tail or a "
               "wrong K stride), or the inputs are read in the wrong layout";
    }
    // Only the last rows or the last columns.
    std::int64_t first_bad_row = map.rows;
    std::int64_t first_bad_col = map.cols;
    bool rows_only_at_edge = true;
    bool cols_only_at_edge = true;
    for (int gr = 0; gr < map.grid_rows; ++gr) {
        for (int gc = 0; gc < map.grid_cols; ++gc) {
            const ErrorCell& cell = map.cell(gr, gc);
            if (cell.wrong == 0) continue;
            first_bad_row = std::min<std::int64_t>(first_bad_row,
                                                   static_cast<std::int64_t>(gr) * map.cell_rows);
            first_bad_col = std::min<std::int64_t>(first_bad_col,
                                                   static_cast<std::int64_t>(gc) * map.cell_cols);
        }
    }
    // Per-element maps can say exactly: all wrong ones at rows >= R, and every element of those
    // rows wrong (or the same for columns).
    if (map.cell_rows == 1 && map.cell_cols == 1) {
        for (int gr = 0; gr < map.grid_rows; ++gr) {
            for (int gc = 0; gc < map.grid_cols; ++gc) {
                const bool wrong = map.cell(gr, gc).wrong > 0;
                if (wrong != (gr >= first_bad_row)) rows_only_at_edge = false;
                if (wrong != (gc >= first_bad_col)) cols_only_at_edge = false;
            }
        }
        if (rows_only_at_edge && first_bad_row > 0) {
            return "only the last " + std::to_string(map.rows - first_bad_row) +
                   " rows are wrong: the M edge (rows beyond the last full tile)";
        }
        if (cols_only_at_edge && first_bad_col > 0) {
            return "only the last " + std::to_string(map.cols - first_bad_col) +
                   " columns are wrong: the N edge (columns beyond the last full tile)";
        }
        // The same positions wrong in every whole 16x8 tile.
        if (map.rows % 16 == 0 && map.cols % 8 == 0 && map.rows * map.cols > 128) {
            std::vector<bool> pattern(128, false);
            for (int r = 0; r < 16; ++r) {
                for (int c = 0; c < 8; ++c) pattern[r * 8 + c] = map.cell(r, c).wrong > 0;
            }
            bool same = true;
            int count = 0;
            for (bool p : pattern) count += p ? 1 : 0;
            for (int gr = 0; gr < map.grid_rows && same; ++gr) {
                for (int gc = 0; gc < map.grid_cols && same; ++gc) {
                    same = (map.cell(gr, gc).wrong > 0) == pattern[(gr % 16) * 8 + gc % 8];
                }
            }
            if (same && count > 0 && count < 128) {
                return "the same " + std::to_string(count) +
                       " of 128 places in every 16x8 tile are wrong: a fragment index mapping";
            }
        }
    }
    // Whole tiles wrong and the others right: per cell for tile maps, per 16x8 tile for element
    // maps whose sides are whole tiles.
    const bool element_map = map.cell_rows == 1 && map.cell_cols == 1;
    const int tile_rows = element_map ? 16 : 1;
    const int tile_cols = element_map ? 8 : 1;
    if (map.grid_rows % tile_rows == 0 && map.grid_cols % tile_cols == 0 &&
        (!element_map || map.rows * map.cols > 128)) {
        int wrong_tiles = 0;
        int tiles = 0;
        bool whole = true;
        for (int tr = 0; tr < map.grid_rows; tr += tile_rows) {
            for (int tc = 0; tc < map.grid_cols; tc += tile_cols) {
                std::int64_t elements = 0;
                std::int64_t wrong = 0;
                for (int r = tr; r < tr + tile_rows; ++r) {
                    for (int c = tc; c < tc + tile_cols; ++c) {
                        elements += map.cell(r, c).elements;
                        wrong += map.cell(r, c).wrong;
                    }
                }
                ++tiles;
                if (wrong > 0) ++wrong_tiles;
                if (wrong != 0 && wrong != elements) whole = false;
            }
        }
        if (whole && wrong_tiles < tiles) {
            const std::string tile = element_map ? "16x8 tile" : map.granularity;
            return std::to_string(wrong_tiles) + " of " + std::to_string(tiles) + " tiles (" +
                   tile + ") wholly wrong, the others right: a block's offset or its tile bounds";
        }
    }
    return "";
}

}  // namespace tclens::viz
