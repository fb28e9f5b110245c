#pragma once
// Rung 11's persistent, clustered kernel (the idea: kernels/11_wgmma_persistent.cu) for any
// input type the wgmma rungs take: f16 and bf16 (rung 11) and FP8 e4m3 (rung 13,
// kernels/13_wgmma_fp8.cu). Included only by those two .cu files; each instantiates it for its
// own inputs and attaches its launch. Its numbers (Config) and the descriptor fields both rungs
// share are plain C++: kernels/persistent_gemm.h.
//
// What differs with the input type, and what does not (WgmmaInputs, kernels/wgmma_inputs.h): a
// K tile is one 128-byte swizzled row of every operand row either way, 64 16-bit elements or 128
// e4m3 ones, so the stages, the A box, the B boxes' bytes (64 rows of 128 bytes each), the
// barriers and their byte counts, the multicast and the whole f32 C path are the same bytes.
// What changes: the elements per K tile (kBlockK), the instruction (m64nNk16 .f16/.bf16 vs
// m64nNk32 .e4m3: 4 steps per K tile either way), and how B sits in global and shared memory:
// the 16-bit B is K x N (N contiguous), loaded as boxes of 64 n x 64 k rows and read MN-major
// (transpose flag); e4m3's is stored as B^T, N x K (K contiguous, kernels/gemm.h), loaded as
// boxes of 128 k x 64 n rows, which makes the stage's B part 256 contiguous K-major rows read
// like A.
//
// Threads: warpgroup 0 is the producer (one thread issues TMA), warpgroups 1 and 2 the consumers
// (64 rows x BN of C each, one m64nBN wgmma per step, setmaxnreg 40 / 232).
//
// Shared memory: 1 KiB alignment slack; stages (A box kBlockM rows, kBBoxes B boxes, "tma128");
// epilogue buffers (store group q, buffer b at kStoreBytes x (kStoreBuffers q + b));
// full[stages]; empty[stages].
//
// Pipeline: K tile it (counted over every tile this CTA computes) sits in slot it % stages; the
// producer waits for empty[s] with parity (it / stages + 1) % 2 (a fresh barrier passes parity 1
// at once), arms full[s] with kStageBytes (its own A box plus every B box, those its peer CTAs
// multicast included) and issues its A box and its share of the B boxes (kBoxesPerCta, the last
// rank fewer where kClusterM does not divide kBBoxes: 3 boxes of a 128 x 192 tile are 2 + 1) to
// every CTA of the cluster. Consumers wait for full[s] with parity (it / stages) % 2 and release
// slot it - 1 once the wgmma of slot it have been issued and those of it - 1 have completed
// (wait_group 1), arriving on empty[s] of every CTA of the cluster (kEmptyArrivals in all).
//
// Edges: everything past M, N and K is TMA's: loads read zeros there (so K tails add nothing
// and a cluster's second CTA past M computes a zero tile), C stores are clipped. The row strides
// TMA needs (multiples of 16 bytes) are each rung's can_run: K and N multiples of 8 for 16-bit
// inputs; K a multiple of 16 and N of 4 (C's f32 rows) for e4m3.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/gemm.h"
#include "kernels/hopper.cuh"
#include "kernels/persistent_gemm.h"
#include "kernels/smem_opt_in.h"
#include "kernels/tensor_map.h"
#include "kernels/tma_gemm.h"
#include "kernels/tma_producer.cuh"
#include "kernels/tma_rung.cuh"
#include "kernels/tma_stage_layout.cuh"
#include "kernels/trace.cuh"
#include "kernels/wgmma_consumer.cuh"

namespace tclens::kernels {

// The kernel's Config: the PersistentShape (kernels/persistent_gemm.h) of Element's width, with
// Element. What the input type changes is Inputs (WgmmaInputs of the width).
template <typename Element, int BlockN, int Stages, int ClusterM, int Group, int StoreRows,
          int StoreBuffers, bool ReleasePerWarpgroup, bool RasterAlongN = false>
struct PersistentConfig
    : PersistentShape<static_cast<int>(sizeof(Element)), BlockN, Stages, ClusterM, Group, StoreRows,
                      StoreBuffers, ReleasePerWarpgroup, RasterAlongN> {
    using Input = Element;
    static_assert(sizeof(Element) == 2 || std::is_same_v<Element, __nv_fp8_e4m3>,
                  "the 8-bit kernel issues wgmma .e4m3");
};

// The Config of Element with Shape's numbers (a PersistentShape of sizeof(Element) bytes).
template <typename Element, typename Shape>
using PersistentConfigOf =
    PersistentConfig<Element, Shape::kBlockN, Shape::kStages, Shape::kClusterM, Shape::kGroup,
                     Shape::kStoreRows, Shape::kStoreBuffers, Shape::kReleasePerWarpgroup,
                     Shape::kRasterAlongN>;

// ChosenPersistentShape (kernels/persistent_gemm.h) for Element: rungs 11 and 13 both launch it.
template <typename Element>
using ChosenPersistentConfig =
    PersistentConfigOf<Element, ChosenPersistentShape<static_cast<int>(sizeof(Element))>>;

#if defined(TCLENS_HOPPER_DEVICE)
// This CTA's share of K tile kt's B boxes (rank's run, Config::issues_b_box), each written to
// box j of `stage` in every CTA of the cluster (one CTA: a plain load) and counted on `full`
// there. Box j holds B columns block_n + 64 j .. + 63 of K tile kt: (column, row) of B^T (N x K)
// or of B (K x N).
template <typename Config>
__device__ __forceinline__ void load_b_share(unsigned char* stage, std::uint64_t* full,
                                             const CUtensorMap* b_map, int rank, int kt,
                                             int block_n) {
    using C = Config;
#pragma unroll
    for (int i = 0; i < C::kBoxesPerCta; ++i) {
        if (!C::issues_b_box(rank, i)) {
            break;
        }
        const int j = rank * C::kBoxesPerCta + i;
        unsigned char* box = stage + C::kABytes + j * C::kBBoxBytes;
        const int2 origin = b_box_origin<C>(kt, block_n + j * C::kBoxN);
        if constexpr (C::kClusterM > 1) {
            hopper::tma_load_2d_multicast(box, b_map, full, origin.x, origin.y,
                                          (std::uint16_t{1} << C::kClusterM) - 1);
        } else {
            hopper::tma_load_2d(box, b_map, full, origin.x, origin.y);
        }
    }
}
#endif  // TCLENS_HOPPER_DEVICE

// Element repeats Config::Input so that the function's name starts with its input type, which
// is how kernels/instruction_mix.cpp tells the instantiations apart.
// kTraced: the traced variant (kernels/trace.cuh); false is the timed kernel, with no trace code.
// Per output tile, thread 0 of the producer and every consumer warp record the tile boundary
// (kTileSchedule: the tile's coordinates worked out), then per K tile the producer's kEmptyWait
// (its wait and its loads' issue) and the consumers' kFullWait and kWgmma, in the last warp of
// each consumer warpgroup only, held in its lanes and stored 32 K tiles at a time (HeldKTileLog:
// every CTA is traced, and two records per K tile in all eight warps cost rung 11 11.4 % on an
// H200; all of them clock-only records, timed by the SM clock alone between the tiles' full
// records), and every consumer warp the tile's kEpilogue (last group drained, slot released)
// and kStore (C through shared memory and TMA stores). K tiles are numbered within their output
// tile.
template <typename Element, typename Config, bool kTraced = false>
__global__ void __launch_bounds__(Config::kThreads, 1)
    persistent_gemm(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map,
                    const __grid_constant__ CUtensorMap c_map, int m, int n, int k, int tiles_m,
                    int tiles_n) {
    static_assert(std::is_same_v<Element, typename Config::Input>, "one input type");
    static_assert(Config::b_boxes_loaded_once(), "every B box is loaded by exactly one CTA");
#if defined(TCLENS_HOPPER_DEVICE)
    using C = Config;
    using In = typename C::Inputs;
    namespace hp = hopper;
    constexpr int kSteps = C::kBlockK / In::kWgmmaK;
    constexpr int kAccumulators = C::kWgmmaN / 2;
    extern __shared__ unsigned char smem_raw[];
    // tma_ring's layout with the epilogue buffers as its extra bytes, spelled out: built through
    // tma_ring, the timed kernel's addresses come out in another order (PTX compared).
    unsigned char* smem = hp::align_1024(smem_raw);
    unsigned char* epilogue = smem + C::kStages * C::kStageBytes;
    std::uint64_t* full = reinterpret_cast<std::uint64_t*>(epilogue + C::kEpilogueBytes);
    std::uint64_t* empty = full + C::kStages;
    const TmaRing ring = {smem, epilogue, full, empty};

    const int tid = threadIdx.x;
    const int warpgroup = tid / hp::kWarpgroupThreads;
    const int rank = C::kClusterM > 1 ? static_cast<int>(hp::cluster_cta_rank()) : 0;
    const int cluster = blockIdx.x / C::kClusterM;
    const int clusters = gridDim.x / C::kClusterM;
    const int tiles_mc = (tiles_m + C::kClusterM - 1) / C::kClusterM;  // cluster rows
    const int cluster_tiles = tiles_mc * tiles_n;
    const int k_tiles = (k + C::kBlockK - 1) / C::kBlockK;
    using viz::TracePhase;
    WarpTracer<kTraced> tracer;
    // Cluster tile `tile` -> this CTA's first (row, column) of C, traced as kTileSchedule.
    const auto schedule_tile = [&](int tile) {
        const auto scheduling = tracer.begin();
        int tile_mc = 0;
        int tile_n = 0;
        C::cluster_tile(tile, tiles_mc, tiles_n, tile_mc, tile_n);
        const int2 origin = {(tile_mc * C::kClusterM + rank) * C::kBlockM, tile_n * C::kBlockN};
        tracer.end(scheduling, TracePhase::kTileSchedule, -1);
        return origin;
    };

    if (tid == 0) {
        init_tma_ring<C>(&a_map, &b_map, &c_map, ring, C::kEmptyArrivals);
    }
    // Every CTA's barriers exist before any CTA multicasts into it or arrives on them.
    if constexpr (C::kClusterM > 1) {
        hp::cluster_sync();
    } else {
        __syncthreads();
    }

    if (warpgroup == 0) {
        hp::setmaxnreg_decrease<hp::kProducerRegisters>();
        if (tid == 0) {
            int it = 0;  // K tiles issued so far, over all tiles: slot it % stages
            for (int tile = cluster; tile < cluster_tiles; tile += clusters) {
                const int2 origin = schedule_tile(tile);
                const int block_m = origin.x;
                const int block_n = origin.y;
                auto since = tracer.clock_lap();
                for (int kt = 0; kt < k_tiles; ++kt, ++it) {
                    since = produce_k_tile<C>(
                        ring, it, kt, tracer, since,
                        [&a_map, &b_map, kt, block_m, block_n, rank](unsigned char* stage,
                                                                     std::uint64_t* stage_full) {
                            arm_stage_and_load_a<C>(stage, stage_full, &a_map, kt, block_m);
                            load_b_share<C>(stage, stage_full, &b_map, rank, kt, block_n);
                        });
                }
            }
        }
    } else {
        hp::setmaxnreg_increase<hp::kConsumerRegisters>();
        const int consumer = warpgroup - 1;
        const int lane = tid % 32;
        const int warp = (tid / 32) % 4;
        const int g = lane / 4;
        const int t = lane % 4;
        // Store group of this warp: its first row within the consumer's 64 rows, its buffers,
        // its leader (the thread that waits for and issues the TMA stores).
        const int group_in_consumer = warp / C::kStoreGroupWarps;
        const int group_row0 = group_in_consumer * C::kStoreRows;
        const int row_in_group = (warp % C::kStoreGroupWarps) * 16;
        unsigned char* const buffers =
            epilogue + (consumer * (4 / C::kStoreGroupWarps) + group_in_consumer) *
                           C::kStoreBuffers * C::kStoreBytes;
        const bool leader = lane == 0 && warp % C::kStoreGroupWarps == 0;
        const auto store_group_sync = [&] {
            if constexpr (C::kStoreGroupWarps == 1) {
                __syncwarp();
            } else {
                hp::named_barrier_sync(1 + consumer, hp::kWarpgroupThreads);
            }
        };
        const std::uint64_t a_desc =
            hp::k_major_descriptor(smem + consumer * hp::kWgmmaM * hp::kSwizzleRowBytes);
        const std::uint64_t b_desc =
            In::kBKMajor ? hp::k_major_descriptor(smem + C::kABytes)
                         : hp::mn_major_descriptor(smem + C::kABytes, C::kBBoxBytes);
        // Slot s is released to the producers of every CTA in the cluster (see the header).
        const auto release = [&](int s) {
            const bool arrives =
                C::kReleasePerWarpgroup ? lane == 0 && warp < C::kClusterM : lane < C::kClusterM;
            const int target = C::kReleasePerWarpgroup ? warp : lane;
            if (arrives) {
                if constexpr (C::kClusterM > 1) {
                    hp::mbarrier_arrive_cluster(&empty[s], static_cast<std::uint32_t>(target));
                } else {
                    hp::mbarrier_arrive(&empty[s]);
                }
            }
        };

        // The last warp of each consumer warpgroup records its K tiles, held in its lanes.
        HeldKTileLog<kTraced> k_tile_phases(tracer, k_tile_recording_warp());
        float acc[kAccumulators] = {};
        int it = 0;
        // TMA stores this store group has issued, over all its tiles: store i uses buffer
        // i % kStoreBuffers, so the wait below (all but the kStoreBuffers - 1 newest stores have
        // read their buffer) covers the buffer about to be written even after an edge tile
        // with an odd number of subtiles (counting per tile reused a buffer whose store was
        // still reading it: wrong C in the N-edge tiles at small K, 9136x3680x80).
        int stores = 0;
        for (int tile = cluster; tile < cluster_tiles; tile += clusters) {
            const int2 origin = schedule_tile(tile);
            const int block_m = origin.x;
            const int block_n = origin.y;

            k_tile_phases.start();
            for (int kt = 0; kt < k_tiles; ++kt, ++it) {
                consume_k_tile<C>(
                    ring, it, kt, k_tile_phases, acc,
                    [&acc, a_desc, b_desc, kt](int s) {
#pragma unroll
                        for (int step = 0; step < kSteps; ++step) {
                            const std::uint64_t a = hp::advance_descriptor(
                                a_desc, s * C::kStageBytes + step * In::kAStepBytes);
                            const std::uint64_t b = hp::advance_descriptor(
                                b_desc, s * C::kStageBytes + step * In::kBStepBytes);
                            if constexpr (In::kBKMajor) {
                                hp::wgmma_ss_e4m3<C::kWgmmaN>(acc, a, b, (kt | step) != 0);
                            } else {
                                hp::wgmma_ss<Element, C::kWgmmaN>(acc, a, b, (kt | step) != 0);
                            }
                        }
                    },
                    [&release, it, kt] {
                        if (kt > 0) {
                            release((it - 1) % C::kStages);
                        }
                    });
            }
            k_tile_phases.flush();
            const auto draining = tracer.begin();
            hp::wgmma_wait_group<0>();
            hp::fence_accumulators(acc);
            release((it - 1) % C::kStages);
            const auto storing = tracer.end(draining, TracePhase::kEpilogue, -1);

            // Epilogue: subtile q = C columns 32 q .. 32 q + 31 of the group's rows, in the
            // next buffer. Accumulator i of n8 block j = 4 q + jj sits at group row
            // row_in_group + g + 8 h, byte 32 jj + 8 t (+ 4) of the 128-byte row: chunk
            // 2 jj + t / 2, stored at chunk (2 jj + t / 2) ^ g (row % 8 == g). The f32 D layout
            // does not depend on the input type.
            const int row0 = block_m + consumer * hp::kWgmmaM + group_row0;
            if (row0 < m) {
#pragma unroll
                for (int q = 0; q < C::kBlockN / C::kStoreCols; ++q) {
                    if (block_n + q * C::kStoreCols >= n) {
                        break;
                    }
                    unsigned char* buffer =
                        buffers + (stores++ % C::kStoreBuffers) * C::kStoreBytes;
                    if (leader) {
                        // The store that last read this buffer has read it.
                        hp::bulk_wait_group_read<C::kStoreBuffers - 1>();
                    }
                    store_group_sync();
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj) {
                        const int j = 4 * q + jj;
#pragma unroll
                        for (int h = 0; h < 2; ++h) {
                            const int row = row_in_group + g + 8 * h;
                            const int chunk = (2 * jj + t / 2) ^ g;
                            *reinterpret_cast<float2*>(buffer + row * hp::kSwizzleRowBytes +
                                                       chunk * 16 + (t % 2) * 8) =
                                make_float2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
                        }
                    }
                    hp::fence_proxy_async_shared();
                    store_group_sync();
                    if (leader) {
                        hp::tma_store_2d(&c_map, buffer, block_n + q * C::kStoreCols, row0);
                        hp::bulk_commit_group();
                    }
                }
            }
            tracer.end(storing, TracePhase::kStore, -1);
        }
        if (leader) {
            hp::bulk_wait_group<0>();
        }
    }
    // No CTA may exit while a peer can still multicast into it or arrive on its barriers.
    if constexpr (C::kClusterM > 1) {
        __syncwarp();
        hp::cluster_sync();
    }
#else
    (void)a_map, (void)b_map, (void)c_map, (void)m, (void)n, (void)k, (void)tiles_m, (void)tiles_n;
#endif
}

// Tensor maps of A (box kBlockK k x 128 m), B (16-bit: box 64 n x kBlockK k of K x N; e4m3: box
// kBlockK k x 64 n of B^T) and C (f32 M x N, box kStoreCols n x kStoreRows m), all 128-byte
// swizzled. Returns "" or the first encoder error.
template <typename Config>
std::string persistent_maps(const GemmOperands& operands, CUtensorMap* a_map, CUtensorMap* b_map,
                            CUtensorMap* c_map) {
    const std::string error =
        encode_config_operand_maps<typename Config::Input, Config>(operands, a_map, b_map);
    if (!error.empty()) return error;
    const GemmProblem& p = operands.problem;
    TensorMap2d c;
    c.base = operands.c;
    c.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    c.rows = static_cast<std::uint64_t>(p.m);
    c.cols = static_cast<std::uint64_t>(p.n);
    c.row_stride_bytes = static_cast<std::uint64_t>(c_stride(operands)) * 4;
    c.box_rows = Config::kStoreRows;
    c.box_cols = Config::kStoreCols;
    return encode_tensor_map(c, c_map);
}

// A launch of `grid` CTAs of Config in clusters of kClusterM along x, with Config's threads and
// dynamic shared memory, on `stream`. `attribute` (the cluster dimension) must outlive its use.
template <typename Config>
cudaLaunchConfig_t persistent_launch_config(std::int64_t grid, cudaStream_t stream,
                                            cudaLaunchAttribute* attribute) {
    *attribute = {};
    attribute->id = cudaLaunchAttributeClusterDimension;
    attribute->val.clusterDim.x = Config::kClusterM;
    attribute->val.clusterDim.y = 1;
    attribute->val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(grid));
    config.blockDim = dim3(Config::kThreads);
    config.dynamicSmemBytes = Config::kSmemBytes;
    config.stream = stream;
    config.attrs = attribute;
    config.numAttrs = 1;
    return config;
}

// Clusters of the kernel that fit on the device at once (cudaOccupancyMaxActiveClusters, of the
// timed kernel: a traced variant runs on the same grid), looked up once per device and kernel.
template <typename Config>
cudaError_t persistent_clusters(int* clusters) {
    static int cached_device = -1;
    static int cached_clusters = 0;
    int device = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess || device == cached_device) {
        *clusters = cached_clusters;
        return status;
    }
    int sms = 0;
    status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = persistent_launch_config<Config>(sms, nullptr, &attribute);
    int count = 0;
    if (status == cudaSuccess) {
        status = cudaOccupancyMaxActiveClusters(
            &count, persistent_gemm<typename Config::Input, Config>, &config);
    }
    if (status != cudaSuccess) {
        return status;
    }
    if (count < 1) {
        return cudaErrorInvalidConfiguration;  // not even one cluster fits
    }
    cached_device = device;
    cached_clusters = count;
    *clusters = count;
    return cudaSuccess;
}

// persistent_clusters after opting the kernel in to Config::kSmemBytes (the occupancy query
// counts with the opted-in size). Returns the opt-in's or the query's error.
template <typename Config>
cudaError_t persistent_co_resident_clusters(int* clusters) {
    const auto kernel = persistent_gemm<typename Config::Input, Config>;
    const cudaError_t status =
        opt_in_shared_memory(reinterpret_cast<const void*>(kernel), Config::kSmemBytes, false);
    if (status != cudaSuccess) {
        return status;
    }
    return persistent_clusters<Config>(clusters);
}

// Enqueues persistent_gemm for Config on `stream` (its traced variant with kTraced): as many
// clusters as fit at once (fewer when there are fewer cluster tiles), after opting the kernel in
// to Config::kSmemBytes. Returns the opt-in's or occupancy query's error, cudaErrorInvalidValue
// when a map cannot be encoded, else the launch's.
template <typename Config, bool kTraced = false>
cudaError_t persistent_launch(const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const auto kernel = persistent_gemm<typename Config::Input, Config, kTraced>;
    int clusters = 0;
    // The co-resident clusters are the untraced kernel's: the traced one has the same threads and
    // shared memory, and its own opt-in.
    cudaError_t status = persistent_co_resident_clusters<Config>(&clusters);
    if constexpr (kTraced) {
        if (status == cudaSuccess) {
            status = opt_in_shared_memory(reinterpret_cast<const void*>(kernel), Config::kSmemBytes,
                                          false);
        }
    }
    if (status != cudaSuccess) {
        return status;
    }
    CUtensorMap a_map;
    CUtensorMap b_map;
    CUtensorMap c_map;
    if (!persistent_maps<Config>(operands, &a_map, &b_map, &c_map).empty()) {
        return cudaErrorInvalidValue;
    }
    const int tiles_m = static_cast<int>(tiles_covering(p.m, Config::kBlockM));
    const int tiles_n = static_cast<int>(tiles_covering(p.n, Config::kBlockN));

    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config =
        persistent_launch_config<Config>(persistent_grid<Config>(p, clusters), stream, &attribute);
    status = cudaLaunchKernelEx(&config, kernel, a_map, b_map, c_map, static_cast<int>(p.m),
                                static_cast<int>(p.n), static_cast<int>(p.k), tiles_m, tiles_n);
    if (status != cudaSuccess) {
        return status;
    }
    return cudaGetLastError();
}

}  // namespace tclens::kernels
