#pragma once
// Split-K's sum inside rung 9's kernel (kernels/split_k_gemm.h): the K ranges of one C tile run
// as the CTAs of one cluster (1 x ranges, cluster rank = range = blockIdx.y), each holding its
// partial tile in the warpgroup's accumulators, and they add those through distributed shared
// memory: no workspace, no second kernel. Included only by .cu files; the function exists in the
// sm_90a device pass alone (kernels/hopper.cuh).
//
// Who sums what: a thread's accumulators as float4 groups, group j = floats 4 (j % G) .. + 3 of
// wgmma tile j / G (G = Accumulators / 4 a tile): one 8-column block, both its row halves
// (store_wgmma_tile's layout, kernels/wgmma_consumer.cuh). Group j belongs to cluster rank
// j % ranks, which sums it from every rank and stores it: the ranks share the tile's stores.
// The exchange, in each CTA's stage ring (free once the cluster is past its K loops), float4s
// a thread, thread-minor (a warp's 32 are 512 consecutive bytes, no bank conflicts):
//   own[j]                      this CTA's group j (every group, written from the registers);
//   inbox[z * per_rank + u]     group rank + u ranks of the CTA of rank z, sent by it,
// per_rank = ceil(groups / ranks). Only the copy from the registers is unrolled: the exchange
// and the sum are loops over groups, so the code stays small (fully unrolled, its cold
// instructions missed the instruction cache: 3.2x the time of the GEMM without them at 1024^3,
// tests/gpu/results/2026-12-01_h200_session29). The sum runs over z = 0, 1, ... in that order,
// as the second kernel's does (sum_split_ranges): the same floats, bit for bit.

#include <cstdint>

#include "kernels/hopper.cuh"
#include "kernels/host_device.h"
#include "kernels/wgmma_consumer.cuh"

namespace tclens::kernels {

// Bytes of the exchange for a warpgroup of `threads` with `groups` float4 groups a thread over
// `ranks` ranks: own, then the inbox of ranks x ceil(groups / ranks).
TCLENS_HOST_DEVICE constexpr int cluster_exchange_bytes(int groups, int ranks, int threads) {
    return (groups + ranks * ((groups + ranks - 1) / ranks)) * threads * 16;
}

#if defined(TCLENS_HOPPER_DEVICE)

// Sums the partial tiles of the cluster's CTAs and stores this CTA's groups of the sum into C
// (m x n, rows ldc floats apart) at rows row0 .., columns col0 ... `exchange`: this CTA's stage
// ring, at least cluster_exchange_bytes(TilesM * Accumulators / 4, cluster_ctas(), Threads)
// bytes. Every thread of every CTA of the cluster calls it, after its last wgmma completed.
template <int Threads, int TilesM, int Accumulators>
__device__ __forceinline__ void sum_ranges_in_cluster(const float (&acc)[TilesM][Accumulators],
                                                      unsigned char* exchange, float* c, int m,
                                                      int n, std::int64_t ldc, int row0, int col0) {
    constexpr int kGroupsPerTile = Accumulators / 4;
    constexpr int kGroups = TilesM * kGroupsPerTile;
    const int rank = static_cast<int>(hopper::cluster_cta_rank());
    const int ranks = static_cast<int>(hopper::cluster_ctas());
    const int per_rank = (kGroups + ranks - 1) / ranks;
    const int thread = static_cast<int>(threadIdx.x) % Threads;
    float4* const own = reinterpret_cast<float4*>(exchange) + thread;
    float4* const inbox = own + kGroups * Threads;

    __syncthreads();  // every warp's wgmma are done with the ring
#pragma unroll
    for (int j = 0; j < kGroups; ++j) {
        const float* g = &acc[j / kGroupsPerTile][4 * (j % kGroupsPerTile)];
        own[j * Threads] = make_float4(g[0], g[1], g[2], g[3]);
    }
    hopper::cluster_sync();  // every CTA's ring is past its K loop and holds its own tile
#pragma unroll 1
    for (int u = 0; u < per_rank; ++u) {
#pragma unroll 1
        for (int owner = 0; owner < ranks; ++owner) {
            const int j = u * ranks + owner;
            if (owner == rank || j >= kGroups) continue;
            hopper::store_cluster_shared(
                hopper::cluster_shared_addr(inbox + (rank * per_rank + u) * Threads,
                                            static_cast<std::uint32_t>(owner)),
                own[j * Threads]);
        }
    }
    hopper::cluster_sync();  // every inbox is full

    const int warp = thread / 32;
    const int lane = thread % 32;
#pragma unroll 1
    for (int u = 0, j = rank; j < kGroups; ++u, j += ranks) {
        float4 sum = rank == 0 ? own[j * Threads] : inbox[u * Threads];
#pragma unroll 1
        for (int z = 1; z < ranks; ++z) {
            const float4 v = z == rank ? own[j * Threads] : inbox[(z * per_rank + u) * Threads];
            sum = make_float4(sum.x + v.x, sum.y + v.y, sum.z + v.z, sum.w + v.w);
        }
        // (j, lane) -> row, column as store_wgmma_tile maps them.
        const int row = row0 + hopper::kWgmmaM * (j / kGroupsPerTile) + 16 * warp + lane / 4;
        const int col = col0 + 8 * (j % kGroupsPerTile) + 2 * (lane % 4);
        store_c_pair(c, m, n, ldc, row, col, sum.x, sum.y);
        store_c_pair(c, m, n, ldc, row + 8, col, sum.z, sum.w);
    }
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels
