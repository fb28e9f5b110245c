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
