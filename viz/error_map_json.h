#pragma once
// JSON of an error map (viz/error_map.h), both ways: how `tclens worker` sends the map of a
// failed verification to its client (docs/worker-protocol.md), which draws it.
//
//   {"rows": 256, "cols": 256, "cell_rows": 1, "cell_cols": 1, "granularity": "element",
//    "grid_rows": 256, "grid_cols": 256, "wrong": 12, "nan": 0, "tolerance": 1.5e-2,
//    "first_wrong": {"row": 0, "col": 1, "expected": 1.5, "got": -0.25} or null,
//    "cells": [[elements, wrong, nan], ...]}     grid_rows x grid_cols cells, row-major
// A NaN "got" is written as null (JSON has no NaN) and read back as NaN.

#include <nlohmann/json.hpp>
#include <string>

#include "viz/error_map.h"

namespace tclens::viz {

nlohmann::json error_map_json(const ErrorMap& map);

// False, with `error` one line naming the first bad key, unless `json` is what error_map_json
// writes and consistent: a grid of at most 1024 x 1024 cells that covers rows x cols with
// cells of cell_rows x cell_cols, per-cell counts with nan <= wrong <= elements, totals that
// are the cells' sums, a first wrong element inside C.
bool error_map_from_json(const nlohmann::json& json, ErrorMap& map, std::string& error);

}  // namespace tclens::viz
