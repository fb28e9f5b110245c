#include "profiling/launch_facts.h"

#include <algorithm>

namespace tclens::profiling {
namespace {

constexpr int kSubPartitions = 4;        // register file split per SM, sm_70 and newer
constexpr int kRegisterAllocUnit = 256;  // registers per warp are allocated in these units
constexpr int kSharedAllocUnit = 128;    // bytes

int round_up(int value, int unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

std::int64_t KernelLaunch::grid_size() const {
    return static_cast<std::int64_t>(grid[0]) * grid[1] * grid[2];
}

int KernelLaunch::block_size() const { return block[0] * block[1] * block[2]; }

SmLimits sm_limits(const DeviceFacts& device) {
    SmLimits limits;
    limits.max_threads_per_sm = device.max_threads_per_sm;
    limits.max_blocks_per_sm = device.max_blocks_per_sm;
    limits.regs_per_sm = device.regs_per_sm;
    limits.smem_per_sm = static_cast<int>(device.smem_per_sm);
    limits.reserved_smem_per_block = static_cast<int>(device.reserved_smem_per_block);
    limits.warp_size = device.warp_size > 0 ? device.warp_size : 32;
    return limits;
}

Occupancy theoretical_occupancy(const KernelLaunch& launch, const SmLimits& limits) {
    Occupancy occupancy;
    const int threads = launch.block_size();
    const int warp_size = limits.warp_size > 0 ? limits.warp_size : 32;
    if (threads <= 0) {
        return occupancy;
    }
    const int warps_per_block = (threads + warp_size - 1) / warp_size;
    const int max_warps = limits.max_threads_per_sm / warp_size;

    occupancy.limit_blocks = limits.max_blocks_per_sm;
    occupancy.limit_warps = max_warps / warps_per_block;
    occupancy.limit_registers = limits.max_blocks_per_sm;
    if (launch.registers_per_thread > 0) {
        const int regs_per_warp =
            round_up(launch.registers_per_thread * warp_size, kRegisterAllocUnit);
        const int warps_per_partition = limits.regs_per_sm / kSubPartitions / regs_per_warp;
        occupancy.limit_registers = warps_per_partition * kSubPartitions / warps_per_block;
    }
    occupancy.limit_shared_mem = limits.max_blocks_per_sm;
    const int shared = launch.static_shared_bytes + launch.dynamic_shared_bytes;
    if (shared > 0) {
        const int per_block = round_up(shared + limits.reserved_smem_per_block, kSharedAllocUnit);
        const int available =
            launch.shared_carveout_bytes > 0 ? launch.shared_carveout_bytes : limits.smem_per_sm;
        occupancy.limit_shared_mem = available / per_block;
    }

    // The smallest limit; on a tie, the first of these the launch really uses (a kernel without
    // shared memory is not "limited by shared memory"), in the order a kernel writer changes
    // them most easily.
    struct Limit {
        int blocks;
        bool used;
        const char* name;
    };
    const Limit limits_in_order[] = {
        {occupancy.limit_registers, launch.registers_per_thread > 0, "registers"},
        {occupancy.limit_shared_mem, shared > 0, "shared memory"},
        {occupancy.limit_warps, true, "warps"},
        {occupancy.limit_blocks, true, "block slots"},
    };
    occupancy.blocks_per_sm = occupancy.limit_blocks;
    for (const Limit& limit : limits_in_order) {
        occupancy.blocks_per_sm = std::min(occupancy.blocks_per_sm, limit.blocks);
    }
    for (const Limit& limit : limits_in_order) {
        if (limit.used && limit.blocks == occupancy.blocks_per_sm) {
            occupancy.limiter = limit.name;
            break;
        }
    }
    occupancy.theoretical_pct =
        max_warps > 0 ? 100.0 * occupancy.blocks_per_sm * warps_per_block / max_warps : 0.0;
    return occupancy;
}

bool launch_metric_value(const std::string& name, const KernelLaunch& launch,
                         const Occupancy& occupancy, double& value) {
    const std::pair<const char*, double> values[] = {
        {"launch__registers_per_thread", launch.registers_per_thread},
        {"launch__shared_mem_per_block_static", launch.static_shared_bytes},
        {"launch__shared_mem_per_block_dynamic", launch.dynamic_shared_bytes},
        {"launch__block_size", launch.block_size()},
        {"launch__grid_size", static_cast<double>(launch.grid_size())},
        {"launch__occupancy_limit_registers", occupancy.limit_registers},
        {"launch__occupancy_limit_shared_mem", occupancy.limit_shared_mem},
        {"launch__occupancy_limit_warps", occupancy.limit_warps},
        {"launch__occupancy_limit_blocks", occupancy.limit_blocks},
    };
    for (const auto& [metric, metric_value] : values) {
        if (name == metric) {
            value = metric_value;
            return true;
        }
    }
    return false;
}

const KernelLaunch* main_launch(const std::vector<KernelLaunch>& launches) {
    const KernelLaunch* longest = nullptr;
    for (const KernelLaunch& launch : launches) {
        if (longest == nullptr || launch.duration_ns > longest->duration_ns) longest = &launch;
    }
    return longest;
}

}  // namespace tclens::profiling
