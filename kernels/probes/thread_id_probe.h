#pragma once
// The smallest probe: every thread of a small grid reports the ids the hardware gave it.
// Used as the first GPU smoke test and as the pattern later probes follow
// (launch, read every lane back, compare with the model on the host).

#include <string>
#include <vector>

namespace tclens::kernels {

struct ThreadIdRecord {
    int block = 0;   // blockIdx.x
    int thread = 0;  // threadIdx.x
    int lane = 0;    // %laneid
    int warp = 0;    // %warpid (hardware warp slot; not threadIdx.x / 32 in general)
    int sm = 0;      // %smid
};

struct ThreadIdProbeResult {
    std::string error;                    // "" on success, else the CUDA error in one line
    std::vector<ThreadIdRecord> records;  // blocks * threads_per_block, in (block, thread) order
};

// Launches `blocks` x `threads_per_block` threads (1 <= threads_per_block <= 1024) and copies
// each thread's ids back.
ThreadIdProbeResult run_thread_id_probe(int blocks, int threads_per_block);

}  // namespace tclens::kernels
