#pragma once
// DRAM probe: the bandwidth this GPU's memory really delivers to a streaming kernel, the slope
// of the roofline next to the arithmetic peaks of peak_probe.h.
//
// What is timed: a copy kernel reading one buffer and writing another, both far larger than
// the L2 cache (16 x L2 each, at least 256 MiB, at most a quarter of the free memory each), so
// almost every byte crosses the DRAM interface. 16-byte loads and stores (int4), a grid-stride
// loop, as many 256-thread blocks as fit on every SM. Bytes moved per copy = 2 x buffer size
// (every byte read once and written once; full 32-byte sectors are written, so no write
// allocates a read).
//
// How it is timed, as the peak probe does: one launch that loads the module and touches both
// buffers, 2 warm-up copies, then the median of 11 copies, each timed with its own pair of CUDA
// events on a private stream. Bandwidth = bytes moved by one copy / median time. The clocks are
// whatever the board runs at under that load.

#include <cstddef>
#include <string>

namespace tclens::kernels {

struct DramMeasurement {
    double bytes_per_s = 0;        // read + written bytes per second of one copy
    std::size_t buffer_bytes = 0;  // size of each of the two buffers
    double median_ms = 0;          // of one copy
    std::string method;            // one line: what was timed, e.g. "int4 copy of 2 x 800 MiB
                                   // buffers (16 x L2), read + write, median of 11 CUDA-event
                                   // timed copies"
};

// Runs the copy above on the current CUDA device (~0.2 s). Returns "" or one line naming the
// CUDA error (or too little free memory); `out` is left empty on failure.
std::string measure_dram_bandwidth(DramMeasurement& out);

}  // namespace tclens::kernels
