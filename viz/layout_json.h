// Layout JSON, as docs/json-formats.md fixes it (`tclens layout ID --json`):
//
//   { "id": ..., "ptx": ..., "threads": ...,
//     "verified": false, "source": ..., "note": kModelOnlyNote,  (models only: tcgen05)
//     "slots": "tmem",                              (tcgen05 accumulators and scale factors)
//     "address_lanes": [...],                       (ldmatrix and stmatrix only)
//     "operands": { "A": { "rows": ..., "cols": ..., "elem_bits": ...,
//                          "description": "...",
//                          "elements": [ {"lane", "reg", "sub", "row", "col"}, ... ] },
//                   ... },
//     "shared_memory": { "A": { "rows", "cols", "elem_bits", "major": "K" | "MN",
//                               "swizzle_bytes", "leading_byte_offset", "stride_byte_offset",
//                               "descriptor": "0x...", "description": "...",
//                               "elements": [ {"row", "col", "byte", "core_matrix"
//                                              [, "bit" for b1]}, ... ] }, ... } }
//                                                   (wgmma shared-memory views only)
//
// Keys are written in this order; operands in A, B, C, D, E order, only those the layout has.
// The description is describe_operand's (viz/layout_description.h).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "viz/fragment_layout.h"

namespace tclens::viz {

nlohmann::ordered_json layout_to_json(const FragmentLayout& layout);

// Inverse of layout_to_json. OperandLayout::regs_per_thread is not in the contract; it is read
// back as one more than the highest `reg` of the operand's elements, which is exact for every
// layout of fragment_layout(). Descriptions are not read back (they are derived); the note of
// an operand is not in the JSON either. Throws nlohmann::json::exception for a missing key or a
// value of the wrong type, std::invalid_argument for an operand key other than "A".."E".
FragmentLayout layout_from_json(const nlohmann::ordered_json& json);

}  // namespace tclens::viz
