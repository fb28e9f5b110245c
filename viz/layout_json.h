// Layout JSON, as docs/json-formats.md fixes it (`tclens layout ID --json`):
//
//   { "id": ..., "ptx": ..., "threads": ...,
//     "address_lanes": [...],                       (ldmatrix only)
//     "operands": { "A": { "rows": ..., "cols": ..., "elem_bits": ...,
//                          "elements": [ {"lane", "reg", "sub", "row", "col"}, ... ] },
//                   ... } }
//
// Keys are written in this order; operands in A, B, C, D order, only those the layout has.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "viz/fragment_layout.h"

namespace tclens::viz {

nlohmann::ordered_json layout_to_json(const FragmentLayout& layout);

// Inverse of layout_to_json. OperandLayout::regs_per_thread is not in the contract; it is read
// back as one more than the highest `reg` of the operand's elements, which is exact for the
// dense layouts of fragment_layout(). Throws nlohmann::json::exception for a missing key or a
// value of the wrong type, std::invalid_argument for an operand key other than "A".."D".
FragmentLayout layout_from_json(const nlohmann::ordered_json& json);

}  // namespace tclens::viz
