#pragma once
// The host half of kernels/trace.cuh: device trace records, copied back, become a warp timeline
// (viz/warp_trace.h). Pure C++, no CUDA calls, so the decoding is tested on any machine.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/trace_sink.h"
#include "viz/warp_trace.h"

namespace tclens::kernels {

// Decodes `records` and `counts`, laid out as kernels/trace_sink.h says for `layout` (its
// pointers are not read), into trace.phases (normalised: sorted, earliest start at 0) and
// trace.dropped (phases past a warp's records_per_warp). Other fields of `trace` are left as
// they are. Clock-only records (kernels/trace_sink.h) get their global times from the full
// records of their block (any warp: one SM, one %clock): linear in the clock between the two
// full records' readings around them, and past the block's first or last reading at the rate of
// its first to last. Returns "" or one line naming the first record that cannot be a phase
// (unknown phase id, end before start), a block whose clock-only records have not two full
// readings to be placed by, or a size mismatch.
// Example: layout {blocks 1, warps 1, records 2}, counts {3} -> 2 phases, dropped 1.
std::string decode_trace(const std::vector<TraceRecord>& records,
                         const std::vector<std::uint32_t>& counts, const TraceSink& layout,
                         viz::WarpTrace& trace);

}  // namespace tclens::kernels
