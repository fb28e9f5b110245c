#pragma once
// Split-K's sum inside rung 9's kernel (kernels/split_k_gemm.h): the K ranges of one C tile run
// as the CTAs of one cluster (1 x ranges, cluster rank = range = blockIdx.y), each holding its
// partial tile in the warpgroup's accumulators, and they add those through distributed shared
// memory: no workspace, no second kernel. Included only by .cu files; the function exists in the
// sm_90a device pass alone (kernels/hopper.cuh).
//
// Who sums what: the accumulators of a thread as float4 groups, group j = floats 4 (j % G) ..
// + 3 of wgmma tile j / G (G = Accumulators / 4 a tile): one 8-column block, both its row halves
// (kernels/wgmma_consumer.cuh, store_wgmma_tile's layout). Group j belongs to cluster rank
// j % ranks, which sums it from every rank and stores it; the ranks share a tile's stores.
// The exchange (in the receiving CTA's stage ring, free once every CTA of the cluster is past
// its K loop): the group u = j / ranks of rank r's share sent by rank z is float4
// (z * per_rank + u) * Threads + thread: a warp's 32 stores are 512 consecutive bytes, no bank
// conflicts. The sum runs over z = 0, 1, ... in that order, as the second kernel's does
// (sum_split_ranges): the same floats, bit for bit.

#include <cstdint>

#include "kernels/hopper.cuh"
#include "kernels/host_device.h"

namespace tclens::kernels {

// Bytes of the exchange for a warpgroup of `threads` with `groups` float4 groups a thread over
// `ranks` ranks: ranks x ceil(groups / ranks) groups a thread.
TCLENS_HOST_DEVICE constexpr int cluster_exchange_bytes(int groups, int ranks, int threads) {
    return ranks * ((groups + ranks - 1) / ranks) * threads * 16;
}

#if defined(TCLENS_HOPPER_DEVICE)

// Which float4 groups of the accumulators this CTA sums and stores.
struct ClusterShare {
    int rank = 0;
    int ranks = 1;
    __device__ bool owns(int group) const { return group % ranks == rank; }
};

// Sums the partial tiles of the cluster's CTAs into the groups this CTA owns (acc's other
// groups are left as they were) and returns the share. `exchange`: this CTA's stage ring, at
// least cluster_exchange_bytes(TilesM * Accumulators / 4, cluster_ctas(), Threads) bytes.
// Every thread of every CTA of the cluster calls it, after its last wgmma completed.
template <int Threads, int TilesM, int Accumulators>
__device__ __forceinline__ ClusterShare sum_ranges_in_cluster(float (&acc)[TilesM][Accumulators],
                                                              unsigned char* exchange) {
    constexpr int kGroupsPerTile = Accumulators / 4;
    constexpr int kGroups = TilesM * kGroupsPerTile;
    const ClusterShare share{static_cast<int>(hopper::cluster_cta_rank()),
                             static_cast<int>(hopper::cluster_ctas())};
    const int per_rank = (kGroups + share.ranks - 1) / share.ranks;
    const int thread = static_cast<int>(threadIdx.x) % Threads;
    float4* const slots = reinterpret_cast<float4*>(exchange);
    const auto slot = [&](int sender, int group) {
        return slots + (sender * per_rank + group / share.ranks) * Threads + thread;
    };

    hopper::cluster_sync();  // every CTA's wgmma have read their stages: the ring takes slots
#pragma unroll
    for (int j = 0; j < kGroups; ++j) {
        const int owner = j % share.ranks;
        if (owner == share.rank) continue;
        const float* g = &acc[j / kGroupsPerTile][4 * (j % kGroupsPerTile)];
        hopper::store_cluster_shared(
            hopper::cluster_shared_addr(slot(share.rank, j), static_cast<std::uint32_t>(owner)),
            make_float4(g[0], g[1], g[2], g[3]));
    }
    hopper::cluster_sync();  // every slot has landed

#pragma unroll
    for (int j = 0; j < kGroups; ++j) {
        if (!share.owns(j)) continue;
        float* g = &acc[j / kGroupsPerTile][4 * (j % kGroupsPerTile)];
        const float4 own = make_float4(g[0], g[1], g[2], g[3]);
        float4 sum = share.rank == 0 ? own : *slot(0, j);
        for (int z = 1; z < share.ranks; ++z) {
            const float4 v = z == share.rank ? own : *slot(z, j);
            sum = make_float4(sum.x + v.x, sum.y + v.y, sum.z + v.z, sum.w + v.w);
        }
        g[0] = sum.x;
        g[1] = sum.y;
        g[2] = sum.z;
        g[3] = sum.w;
    }
    return share;
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels
