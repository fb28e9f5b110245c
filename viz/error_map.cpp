#include "viz/error_map.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

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
            if (!is_wrong_element(value, want, tolerance)) continue;
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

namespace {

// A region counts as wrong when at least this share of its elements is (a wrong value can match
// the right one within the tolerance by chance), and as right when none is.
constexpr double kMostly = 0.75;

bool mostly(std::int64_t wrong, std::int64_t elements) {
    return elements > 0 && static_cast<double>(wrong) >= kMostly * static_cast<double>(elements);
}

// Wrong elements and elements of cells [r0, r1) x [c0, c1).
std::pair<std::int64_t, std::int64_t> region(const ErrorMap& map, int r0, int r1, int c0, int c1) {
    std::int64_t wrong = 0;
    std::int64_t elements = 0;
    for (int r = r0; r < r1; ++r) {
        for (int c = c0; c < c1; ++c) {
            wrong += map.cell(r, c).wrong;
            elements += map.cell(r, c).elements;
        }
    }
    return {wrong, elements};
}

}  // namespace

std::string error_pattern_hint(const ErrorMap& map) {
    if (map.wrong == 0 || map.cells.empty()) return "";
    const std::int64_t total = map.rows * map.cols;
    if (map.nan == map.wrong) return std::to_string(map.nan) + " elements never written (NaN)";
    const bool element_map = map.cell_rows == 1 && map.cell_cols == 1;
    // Tiles: 16x8 for element maps whose sides are whole tiles, else the map's cells.
    const bool tiled = element_map && map.rows % 16 == 0 && map.cols % 8 == 0;
    const int tile_rows = tiled ? 16 : 1;
    const int tile_cols = tiled ? 8 : 1;
    const std::string tile_name = tiled ? "16x8 tile" : map.granularity;
    int tiles = 0;
    int wrong_tiles = 0;
    int right_tiles = 0;
    int touched_tiles = 0;
    if (tiled || !element_map) {
        for (int r = 0; r < map.grid_rows; r += tile_rows) {
            for (int c = 0; c < map.grid_cols; c += tile_cols) {
                const auto [wrong, elements] = region(map, r, r + tile_rows, c, c + tile_cols);
                ++tiles;
                if (wrong == 0) ++right_tiles;
                if (mostly(wrong, elements)) ++wrong_tiles;
                if (static_cast<double>(wrong) >= 0.25 * static_cast<double>(elements))
                    ++touched_tiles;
            }
        }
    }
    if (2 * map.wrong >= total && (tiles == 0 || touched_tiles == tiles)) {
        return "wrong everywhere (" + std::to_string(100 * map.wrong / total) +
               "% of the elements): the whole sum is off (the K loop: a missed K tail or a "
               "wrong K stride), or the inputs are read in the wrong layout";
    }
    if (element_map) {
        // Only the last rows (or columns), each mostly wrong, the others all right.
        int first_row = map.grid_rows;
        int first_col = map.grid_cols;
        for (int r = 0; r < map.grid_rows; ++r) {
            for (int c = 0; c < map.grid_cols; ++c) {
                if (map.cell(r, c).wrong == 0) continue;
                first_row = std::min(first_row, r);
                first_col = std::min(first_col, c);
            }
        }
        bool rows_edge = first_row > 0;
        for (int r = first_row; r < map.grid_rows && rows_edge; ++r) {
            const auto [wrong, elements] = region(map, r, r + 1, 0, map.grid_cols);
            rows_edge = mostly(wrong, elements);
        }
        if (rows_edge) {
            return "only the last " + std::to_string(map.rows - first_row) +
                   " rows are wrong: the M edge (rows beyond the last full tile)";
        }
        bool cols_edge = first_col > 0;
        for (int c = first_col; c < map.grid_cols && cols_edge; ++c) {
            const auto [wrong, elements] = region(map, 0, map.grid_rows, c, c + 1);
            cols_edge = mostly(wrong, elements);
        }
        if (cols_edge) {
            return "only the last " + std::to_string(map.cols - first_col) +
                   " columns are wrong: the N edge (columns beyond the last full tile)";
        }
        // The same places of every 16x8 tile: each place mostly wrong or never wrong.
        if (tiled && tiles > 1) {
            int places = 0;
            bool clean = true;
            for (int pr = 0; pr < 16 && clean; ++pr) {
                for (int pc = 0; pc < 8 && clean; ++pc) {
                    int wrong = 0;
                    for (int r = pr; r < map.grid_rows; r += 16) {
                        for (int c = pc; c < map.grid_cols; c += 8) {
                            if (map.cell(r, c).wrong > 0) ++wrong;
                        }
                    }
                    if (mostly(wrong, tiles)) {
                        ++places;
                    } else if (wrong > 0) {
                        clean = false;
                    }
                }
            }
            if (clean && places > 0 && places < 128) {
                return "the same " + std::to_string(places) +
                       " of 128 places in every 16x8 tile are wrong: a fragment index mapping";
            }
        }
    }
    if (tiles > 1 && wrong_tiles > 0 && right_tiles > 0 && wrong_tiles + right_tiles == tiles) {
        return std::to_string(wrong_tiles) + " of " + std::to_string(tiles) + " tiles (" +
               tile_name + ") wrong, the others all right: a block's offset or its tile bounds";
    }
    return "";
}

std::vector<std::string> error_map_notes(const ErrorMap& map) {
    std::vector<std::string> notes;
    if (std::string hint = error_pattern_hint(map); !hint.empty()) notes.push_back(std::move(hint));
    if (!map.bug.empty()) notes.push_back(map.bug);
    return notes;
}

}  // namespace tclens::viz
