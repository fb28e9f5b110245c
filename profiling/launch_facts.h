#pragma once
// Launch facts of the kernels a workload runs: grid, block, registers per thread, static and
// dynamic shared memory per block, and the blocks per SM those allow. Plain C++
// (tclens_profiling_model); the records come from CUPTI's Activity API (launch_capture.h).
//
// Why the Activity API: kernels/ hands out launch functions, not kernel symbols, and cuBLAS picks
// its kernels itself, so cudaFuncGetAttributes has nothing to ask. CUPTI's kernel activity
// records carry the launch configuration of every kernel the driver ran, whoever launched it.
// Nsight Compute reports these as launch__* metrics; the Range Profiler has no such counters.
// The occupancy limits are computed from the record and the device's limits
// (theoretical_occupancy, a pure function).

#include <cstdint>
#include <string>
#include <vector>

#include "profiling/device_info.h"

namespace tclens::profiling {

// One kernel launch as a CUPTI activity record saw it.
struct KernelLaunch {
    std::string name;  // demangled function name
    int grid[3] = {0, 0, 0};
    int block[3] = {0, 0, 0};
    int registers_per_thread = 0;
    int static_shared_bytes = 0;
    int dynamic_shared_bytes = 0;
    int local_bytes_per_thread = 0;  // spills and local arrays
    int shared_carveout_bytes = 0;   // shared memory the SM was configured with; 0 if unknown
    double duration_ns = 0;

    std::int64_t grid_size() const;
    int block_size() const;
};

// What one SM offers resident blocks (cudaDeviceProp).
struct SmLimits {
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int regs_per_sm = 0;
    int smem_per_sm = 0;              // bytes blocks may use in all, at the largest carveout
    int reserved_smem_per_block = 0;  // bytes the driver keeps per block (1 KiB from sm_80)
    int warp_size = 32;
};

SmLimits sm_limits(const DeviceFacts& device);

// How many blocks of one launch fit on an SM, limit by limit (the CUDA occupancy calculator's
// rules for sm_70 and newer: registers allocated per warp in units of 256 and split over 4 SM
// sub-partitions; shared memory per block = static + dynamic + the driver's reserve, in units of
// 128 bytes, against the launch's carveout when the record has it).
struct Occupancy {
    int limit_registers = 0;
    int limit_shared_mem = 0;
    int limit_warps = 0;
    int limit_blocks = 0;
    int blocks_per_sm = 0;       // the smallest limit
    std::string limiter;         // "registers", "shared memory", "warps" or "block slots"
    double theoretical_pct = 0;  // resident warps as a share of the SM's maximum, in %
};

// (launch, limits) -> blocks per SM. Example: 256 threads, 128 registers, 0 + 49152 bytes of
// shared memory on an H100 (2048 threads, 32 blocks, 65536 registers, 233472 bytes, 1024
// reserved): registers 2 (4 sub-partitions x 4 warps of 4096 registers / 8 warps), shared
// memory 4, warps 8, blocks 32 -> 2 blocks/SM, limited by registers, 25% occupancy.
Occupancy theoretical_occupancy(const KernelLaunch& launch, const SmLimits& limits);

// The value of a launch__* catalogue metric (metric_catalogue.h, source kLaunch) for `launch`;
// false when `name` is not one of them.
bool launch_metric_value(const std::string& name, const KernelLaunch& launch,
                         const Occupancy& occupancy, double& value);

// The launch that stands for a workload: the longest-running one (cuBLAS may add small helper
// kernels); nullptr when there is none.
const KernelLaunch* main_launch(const std::vector<KernelLaunch>& launches);

}  // namespace tclens::profiling
