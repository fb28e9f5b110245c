// Tests for the pure part of profiling/launch_facts.*: the occupancy limits of a launch on an
// SM, as the CUDA occupancy calculator computes them, and the launch__* metric values.

#include "profiling/launch_facts.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

// cudaDeviceProp of an H100 SXM: 2048 threads, 32 blocks, 64 Ki registers, 228 KiB shared
// memory per SM, 1 KiB reserved per block.
SmLimits h100() {
    DeviceFacts device;
    device.max_threads_per_sm = 2048;
    device.max_blocks_per_sm = 32;
    device.regs_per_sm = 65536;
    device.smem_per_sm = 233472;
    device.reserved_smem_per_block = 1024;
    device.warp_size = 32;
    return sm_limits(device);
}

KernelLaunch launch(int threads, int registers, int static_smem, int dynamic_smem) {
    KernelLaunch l;
    l.block[0] = threads;
    l.block[1] = 1;
    l.block[2] = 1;
    l.grid[0] = 16;
    l.grid[1] = 8;
    l.grid[2] = 2;
    l.registers_per_thread = registers;
    l.static_shared_bytes = static_smem;
    l.dynamic_shared_bytes = dynamic_smem;
    return l;
}

TEST(LaunchFacts, SizesOfGridAndBlock) {
    const KernelLaunch l = launch(256, 32, 0, 0);
    EXPECT_EQ(l.grid_size(), 256);
    EXPECT_EQ(l.block_size(), 256);
}

TEST(LaunchFacts, WorkedExampleOfTheHeader) {
    const Occupancy o = theoretical_occupancy(launch(256, 128, 0, 49152), h100());
    EXPECT_EQ(o.limit_registers, 2);   // 4096 registers per warp: 4 warps per sub-partition
    EXPECT_EQ(o.limit_shared_mem, 4);  // 50176 bytes per block
    EXPECT_EQ(o.limit_warps, 8);
    EXPECT_EQ(o.limit_blocks, 32);
    EXPECT_EQ(o.blocks_per_sm, 2);
    EXPECT_EQ(o.limiter, "registers");
    EXPECT_DOUBLE_EQ(o.theoretical_pct, 25.0);
}

TEST(LaunchFacts, RegistersAreAllocatedPerWarpInUnitsOf256) {
    // 40 registers x 32 lanes = 1280 per warp; 16384 / 1280 = 12 warps per sub-partition,
    // 48 per SM; 4-warp blocks -> 12.
    const Occupancy o = theoretical_occupancy(launch(128, 40, 0, 0), h100());
    EXPECT_EQ(o.limit_registers, 12);
    // 33 registers round up to 1280 per warp as well.
    EXPECT_EQ(theoretical_occupancy(launch(128, 33, 0, 0), h100()).limit_registers, 12);
    // 32 registers: 1024 per warp, 16 warps per sub-partition, 64 per SM -> warps limit too.
    const Occupancy small = theoretical_occupancy(launch(128, 32, 0, 0), h100());
    EXPECT_EQ(small.limit_registers, 16);
    EXPECT_EQ(small.limit_warps, 16);
    EXPECT_EQ(small.blocks_per_sm, 16);
    EXPECT_EQ(small.limiter, "registers");  // ties name registers first
    EXPECT_DOUBLE_EQ(small.theoretical_pct, 100.0);
}

TEST(LaunchFacts, SharedMemoryCountsTheReserveAndTheCarveout) {
    // 192 KiB dynamic + 1 KiB reserved: one block fits 228 KiB.
    const Occupancy big = theoretical_occupancy(launch(256, 168, 0, 196608), h100());
    EXPECT_EQ(big.limit_shared_mem, 1);
    EXPECT_EQ(big.blocks_per_sm, 1);
    EXPECT_EQ(big.limiter, "registers");  // 168 registers: also 1 block of 8 warps
    // 8 KiB static + 1 KiB reserved = 9216 bytes; at a 100 KiB carveout 11 blocks fit.
    KernelLaunch carved = launch(64, 32, 8192, 0);
    carved.shared_carveout_bytes = 102400;
    const Occupancy o = theoretical_occupancy(carved, h100());
    EXPECT_EQ(o.limit_shared_mem, 11);
    EXPECT_EQ(o.blocks_per_sm, 11);
    EXPECT_EQ(o.limiter, "shared memory");
    // No shared memory: no shared-memory limit below the block slots.
    EXPECT_EQ(theoretical_occupancy(launch(64, 32, 0, 0), h100()).limit_shared_mem, 32);
}

TEST(LaunchFacts, BlockSlotsLimitTinyBlocks) {
    const Occupancy o = theoretical_occupancy(launch(32, 16, 0, 0), h100());
    EXPECT_EQ(o.limit_warps, 64);
    EXPECT_EQ(o.blocks_per_sm, 32);
    EXPECT_EQ(o.limiter, "block slots");
    EXPECT_DOUBLE_EQ(o.theoretical_pct, 50.0);
}

TEST(LaunchFacts, PartialWarpsCountAsWholeWarps) {
    const Occupancy o = theoretical_occupancy(launch(96 + 1, 32, 0, 0), h100());  // 4 warps
    EXPECT_EQ(o.limit_warps, 16);
}

TEST(LaunchFacts, EmptyLaunchHasNoOccupancy) {
    const Occupancy o = theoretical_occupancy(KernelLaunch{}, h100());
    EXPECT_EQ(o.blocks_per_sm, 0);
    EXPECT_EQ(o.limiter, "");
}

TEST(LaunchFacts, LaunchMetricValues) {
    const KernelLaunch l = launch(256, 128, 1024, 49152);
    const Occupancy o = theoretical_occupancy(l, h100());
    double value = -1;
    ASSERT_TRUE(launch_metric_value("launch__registers_per_thread", l, o, value));
    EXPECT_EQ(value, 128);
    ASSERT_TRUE(launch_metric_value("launch__shared_mem_per_block_static", l, o, value));
    EXPECT_EQ(value, 1024);
    ASSERT_TRUE(launch_metric_value("launch__shared_mem_per_block_dynamic", l, o, value));
    EXPECT_EQ(value, 49152);
    ASSERT_TRUE(launch_metric_value("launch__block_size", l, o, value));
    EXPECT_EQ(value, 256);
    ASSERT_TRUE(launch_metric_value("launch__grid_size", l, o, value));
    EXPECT_EQ(value, 256);
    ASSERT_TRUE(launch_metric_value("launch__occupancy_limit_registers", l, o, value));
    EXPECT_EQ(value, o.limit_registers);
    ASSERT_TRUE(launch_metric_value("launch__occupancy_limit_shared_mem", l, o, value));
    EXPECT_EQ(value, o.limit_shared_mem);
    ASSERT_TRUE(launch_metric_value("launch__occupancy_limit_warps", l, o, value));
    EXPECT_EQ(value, o.limit_warps);
    ASSERT_TRUE(launch_metric_value("launch__occupancy_limit_blocks", l, o, value));
    EXPECT_EQ(value, o.limit_blocks);
    EXPECT_FALSE(launch_metric_value("launch__waves_per_multiprocessor", l, o, value));
}

TEST(LaunchFacts, MainLaunchIsTheLongest) {
    std::vector<KernelLaunch> launches(3);
    launches[0].duration_ns = 10;
    launches[1].duration_ns = 900;
    launches[2].duration_ns = 20;
    EXPECT_EQ(main_launch(launches), &launches[1]);
    EXPECT_EQ(main_launch({}), nullptr);
}

}  // namespace
}  // namespace tclens::profiling
