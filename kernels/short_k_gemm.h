#pragma once
// Rung 14's short-K GEMM, plain C++: for the shapes TMA cannot stride (N or K not a multiple of
// 8) with K at most kShortKMaxK (rung 14 keeps the padded path for many tiles of an N that rung
// 11 can store in place: kernels/dispatch_rules.cpp), where copying A or B into padded rows costs
// a launch as long as the GEMM itself (session 20: 12625x66x45 0.38x of cuBLAS, 6310x119x33
// 0.43x, 457x2419x16 0.42x). Each CTA's threads read their A and B tiles straight from global
// memory, two bytes at a time (any row length, any alignment; zeros past M, N and K), into the
// 128-byte-swizzled layout TMA would have written (rung 9's stage), and its two warpgroups
// multiply 64 rows each with wgmma m64n128k16; C goes through the stage to its place, a warp
// writing whole row segments (session 22: storing from registers wrote 0.6 TB/s where ldc is
// odd). K runs in tiles of 64, one after the other. The kernel and its launch:
// kernels/short_k_gemm.cu.

#include <string>

#include "kernels/block_order.h"
#include "kernels/gemm.h"
#include "kernels/hopper_shapes.h"
#include "kernels/host_device.h"
#include "kernels/tma_stage_layout.h"

namespace tclens::kernels {

// The short-K GEMM's shape, in the terms the TMA rungs' descriptors read (tma_rung_descriptor.h).
struct ShortKConfig : TmaStageLayout<128, 128> {
    static constexpr int kBlockM = 128;
    static constexpr int kBlockN = 128;
    static constexpr int kBlockK = hopper::kBoxElems;  // one swizzled row of A
    static constexpr int kWgmmaN = kBlockN;
    static constexpr int kStages = 1;
    static constexpr int kGroupM = 16;     // rung 9's raster bands
    static constexpr int kWarpgroups = 2;  // each loads its share and multiplies 64 rows
    static constexpr int kThreads = kWarpgroups * hopper::kWarpgroupThreads;
    static constexpr int kSmemBytes = ring_smem_bytes(kStages, 0);
    // Elements each thread reads per K tile, of A and of B alike (128 x 64 and 64 x 128).
    static constexpr int kLoadsPerThread = kBlockM * kBlockK / kThreads;
    // Thread t reads A element (row 4 i + t / 64, k t % 64) and B element (k 2 i + t / 128,
    // col t % 128) in its i-th read: consecutive threads, consecutive addresses.
    static constexpr int kARowsPerRead = kThreads / kBlockK;
    static constexpr int kBRowsPerRead = kThreads / kBlockN;
    static constexpr int kLoadBatch = 16;  // reads of A, or of B, in flight per thread
    // C leaves through the stage in halves of 64 columns: 128 x 64 floats fill it exactly.
    static constexpr int kCHalfCols = kBlockN / 2;
    // CTAs per SM: 256 threads of at most 128 registers (their 64 accumulators, a batch of
    // reads), 33 KiB of shared memory each.
    static constexpr int kBlocksPerSm = 2;

    // Block id -> (tile row, tile col) of C, as rung 9: bands of kGroupM tile rows, down a
    // band's column first (kernels/block_order.h).
    TCLENS_HOST_DEVICE static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroupM, tile_m, tile_n);
    }
};

static_assert(ShortKConfig::kThreads % ShortKConfig::kBlockK == 0 &&
                  ShortKConfig::kThreads % ShortKConfig::kBlockN == 0,
              "every read covers whole rows of A and of B");
static_assert(ShortKConfig::kBlockK * ShortKConfig::kBlockN / ShortKConfig::kThreads ==
                  ShortKConfig::kLoadsPerThread,
              "B takes as many reads a thread as A");
static_assert(ShortKConfig::kLoadsPerThread % ShortKConfig::kLoadBatch == 0, "whole batches");
static_assert(ShortKConfig::kWarpgroups * hopper::kWgmmaM == ShortKConfig::kBlockM,
              "each warpgroup multiplies 64 rows");
static_assert(ShortKConfig::kBlockM * ShortKConfig::kCHalfCols * 4 <= ShortKConfig::kStageBytes,
              "half of C's tile in floats fits the stage");
static_assert(ShortKConfig::kSmemBytes <= 48 * 1024, "launched without the shared-memory opt-in");

// The most K the short-K GEMM takes (eight K tiles). Rung 14 runs it over a shorter K
// (kernels/dispatch_rules.cpp); dispatch_candidates times it up to here.
constexpr std::int64_t kShortKMaxK = 8 * ShortKConfig::kBlockK;

// "" when the short-K GEMM computes `problem`, else one line why not: K at most kShortKMaxK, M,
// N and K at most 2^30, at most 2^31 - 1 tiles. Any N, any K up to that, any row strides.
std::string short_k_can_run(const GemmProblem& problem);

}  // namespace tclens::kernels
