#include "viz/error_map_json.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace tclens::viz {
namespace {

constexpr std::int64_t kMaxMatrixSide = std::int64_t{1} << 20;  // elements of C a side
constexpr std::int64_t kMaxGridSide = 1024;                     // cells a side

// Reads object[key] as a whole number in [min, max]; false (with `error`) otherwise.
bool whole(const nlohmann::json& object, const char* key, std::int64_t min, std::int64_t max,
           std::int64_t& out, std::string& error) {
    if (!object.contains(key)) {
        error = std::string("missing key '") + key + "'";
        return false;
    }
    const nlohmann::json& value = object.at(key);
    const bool integer = value.is_number_integer() &&
                         (!value.is_number_unsigned() ||
                          value.get<std::uint64_t>() <= static_cast<std::uint64_t>(max));
    if (!integer || value.get<std::int64_t>() < min || value.get<std::int64_t>() > max) {
        error = std::string("key '") + key + "' must be a whole number from " +
                std::to_string(min) + " to " + std::to_string(max);
        return false;
    }
    out = value.get<std::int64_t>();
    return true;
}

// A number, or null for NaN when `null_is_nan`.
bool real(const nlohmann::json& object, const char* key, bool null_is_nan, double& out,
          std::string& error) {
    if (!object.contains(key)) {
        error = std::string("missing key '") + key + "'";
        return false;
    }
    const nlohmann::json& value = object.at(key);
    if (value.is_null() && null_is_nan) {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (!value.is_number()) {
        error = std::string("key '") + key + "' must be a number";
        return false;
    }
    out = value.get<double>();
    return true;
}

// The folded tile: null when not folded, else {"layout", "rows", "cols", "tiles",
// "wrong_tiles", "wrong": rows x cols counts, row-major}.
nlohmann::json folded_json(const FoldedErrors& folded) {
    if (folded.rows == 0) return nullptr;
    return {{"layout", folded.layout_id},
            {"rows", folded.rows},
            {"cols", folded.cols},
            {"tiles", folded.tiles},
            {"wrong_tiles", folded.wrong_tiles},
            {"wrong", folded.wrong}};
}

// Reads folded_json's object (null: not folded). Counts must add up: 0 <= wrong <= wrong_tiles
// <= tiles at every place, a tile of at most 64 x 64.
bool folded_from_json(const nlohmann::json& json, FoldedErrors& folded, std::string& error) {
    folded = {};
    if (json.is_null()) return true;
    std::int64_t rows = 0, cols = 0;
    if (!json.is_object() || !json.contains("layout") || !json.at("layout").is_string() ||
        json.at("layout").get<std::string>().size() > 64) {
        error = "key 'folded' must be null or an object with 'layout' a short text";
        return false;
    }
    if (!whole(json, "rows", 1, 64, rows, error) || !whole(json, "cols", 1, 64, cols, error) ||
        !whole(json, "tiles", 0, kMaxMatrixSide * kMaxMatrixSide, folded.tiles, error) ||
        !whole(json, "wrong_tiles", 0, folded.tiles, folded.wrong_tiles, error)) {
        return false;
    }
    const nlohmann::json& wrong = json.contains("wrong") ? json.at("wrong") : nlohmann::json();
    if (!wrong.is_array() || wrong.size() != static_cast<std::size_t>(rows * cols)) {
        error = "folded 'wrong' must be an array of rows x cols = " + std::to_string(rows * cols) +
                " counts";
        return false;
    }
    for (const nlohmann::json& count : wrong) {
        if (!count.is_number_integer() || count.get<std::int64_t>() < 0 ||
            count.get<std::int64_t>() > folded.wrong_tiles) {
            error = "folded 'wrong' counts must be whole numbers in 0.." +
                    std::to_string(folded.wrong_tiles);
            return false;
        }
        folded.wrong.push_back(count.get<std::int64_t>());
    }
    folded.layout_id = json.at("layout").get<std::string>();
    folded.rows = static_cast<int>(rows);
    folded.cols = static_cast<int>(cols);
    return true;
}

}  // namespace

nlohmann::json error_map_json(const ErrorMap& map) {
    nlohmann::json cells = nlohmann::json::array();
    for (const ErrorCell& cell : map.cells) cells.push_back({cell.elements, cell.wrong, cell.nan});
    nlohmann::json first = nullptr;
    if (map.first_wrong) {
        const WrongElement& w = *map.first_wrong;
        first = {{"row", w.row},
                 {"col", w.col},
                 {"expected", w.expected},
                 {"got", std::isnan(w.got) ? nlohmann::json() : nlohmann::json(w.got)}};
    }
    return {{"rows", map.rows},
            {"cols", map.cols},
            {"cell_rows", map.cell_rows},
            {"cell_cols", map.cell_cols},
            {"granularity", map.granularity},
            {"grid_rows", map.grid_rows},
            {"grid_cols", map.grid_cols},
            {"wrong", map.wrong},
            {"nan", map.nan},
            {"tolerance", map.tolerance},
            {"first_wrong", first},
            {"bug", map.bug},
            {"folded", folded_json(map.folded)},
            {"cells", cells}};
}

bool error_map_from_json(const nlohmann::json& json, ErrorMap& map, std::string& error) {
    error.clear();
    if (!json.is_object()) {
        error = "an error map must be a JSON object";
        return false;
    }
    ErrorMap out;
    std::int64_t cell_rows = 0, cell_cols = 0, grid_rows = 0, grid_cols = 0;
    if (!whole(json, "rows", 1, kMaxMatrixSide, out.rows, error) ||
        !whole(json, "cols", 1, kMaxMatrixSide, out.cols, error) ||
        !whole(json, "cell_rows", 1, kMaxMatrixSide, cell_rows, error) ||
        !whole(json, "cell_cols", 1, kMaxMatrixSide, cell_cols, error) ||
        !whole(json, "grid_rows", 1, kMaxGridSide, grid_rows, error) ||
        !whole(json, "grid_cols", 1, kMaxGridSide, grid_cols, error) ||
        !whole(json, "wrong", 0, out.rows * out.cols, out.wrong, error) ||
        !whole(json, "nan", 0, out.wrong, out.nan, error) ||
        !real(json, "tolerance", false, out.tolerance, error)) {
        return false;
    }
    out.cell_rows = static_cast<int>(cell_rows);
    out.cell_cols = static_cast<int>(cell_cols);
    out.grid_rows = static_cast<int>(grid_rows);
    out.grid_cols = static_cast<int>(grid_cols);
    if ((out.rows + cell_rows - 1) / cell_rows != grid_rows ||
        (out.cols + cell_cols - 1) / cell_cols != grid_cols) {
        error = "the grid of " + std::to_string(grid_rows) + " x " + std::to_string(grid_cols) +
                " cells of " + std::to_string(cell_rows) + " x " + std::to_string(cell_cols) +
                " does not cover C of " + std::to_string(out.rows) + " x " +
                std::to_string(out.cols);
        return false;
    }
    if (!json.contains("granularity") || !json.at("granularity").is_string()) {
        error = "key 'granularity' must be a text";
        return false;
    }
    out.granularity = json.at("granularity").get<std::string>();
    if (json.contains("bug")) {  // absent in error maps written before it existed
        if (!json.at("bug").is_string() || json.at("bug").get<std::string>().size() > 1000) {
            error = "key 'bug' must be a text of at most 1000 bytes";
            return false;
        }
        out.bug = json.at("bug").get<std::string>();
    }
    if (json.contains("folded") && !folded_from_json(json.at("folded"), out.folded, error)) {
        return false;
    }
    if (!json.contains("cells") || !json.at("cells").is_array() ||
        json.at("cells").size() != static_cast<std::size_t>(grid_rows * grid_cols)) {
        error = "key 'cells' must be an array of grid_rows x grid_cols = " +
                std::to_string(grid_rows * grid_cols) + " cells";
        return false;
    }
    std::int64_t wrong = 0, nan = 0;
    for (const nlohmann::json& cell : json.at("cells")) {
        const bool triple = cell.is_array() && cell.size() == 3 && cell[0].is_number_integer() &&
                            cell[1].is_number_integer() && cell[2].is_number_integer();
        ErrorCell c;
        if (triple) {
            c = {cell[0].get<std::int64_t>(), cell[1].get<std::int64_t>(),
                 cell[2].get<std::int64_t>()};
        }
        if (!triple || c.nan < 0 || c.nan > c.wrong || c.wrong > c.elements ||
            c.elements > cell_rows * cell_cols) {
            error = "cells[" + std::to_string(out.cells.size()) +
                    "] must be [elements, wrong, nan] with 0 <= nan <= wrong <= elements <= " +
                    std::to_string(cell_rows * cell_cols);
            return false;
        }
        wrong += c.wrong;
        nan += c.nan;
        out.cells.push_back(c);
    }
    if (wrong != out.wrong || nan != out.nan) {
        error = "keys 'wrong' and 'nan' must be the sums of the cells' (" + std::to_string(wrong) +
                " and " + std::to_string(nan) + ")";
        return false;
    }
    if (!json.contains("first_wrong")) {
        error = "missing key 'first_wrong'";
        return false;
    }
    const nlohmann::json& first = json.at("first_wrong");
    if (!first.is_null()) {
        if (!first.is_object()) {
            error = "key 'first_wrong' must be an object or null";
            return false;
        }
        WrongElement w;
        std::string inner;
        if (!whole(first, "row", 0, out.rows - 1, w.row, inner) ||
            !whole(first, "col", 0, out.cols - 1, w.col, inner) ||
            !real(first, "expected", true, w.expected, inner) ||
            !real(first, "got", true, w.got, inner)) {
            error = "first_wrong: " + inner;
            return false;
        }
        out.first_wrong = w;
    }
    map = std::move(out);
    return true;
}

}  // namespace tclens::viz
