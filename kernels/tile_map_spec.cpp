#include "kernels/tile_map_spec.h"

#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

using viz::LoadKind;
using viz::RasterOrder;
using viz::TileMapSpec;
using viz::WarpLayout;
using viz::WorkKind;

constexpr int kChunkBytes = 16;

// The copy loop every thread-copying rung but 5 uses: chunk c = tid + threads * i of a tile
// with `units` units per row is row c / units, unit c % units, i.e. the threads as a
// (threads / units) x units grid laid down the tile.
viz::ThreadLoadLayout row_major_copies(int threads, int row_bytes, int unit_bytes) {
    const int units = row_bytes / unit_bytes;
    if (units < 1) return {0, 0};  // a row shorter than a unit: validation says so
    return {threads / units, units};
}

void thread_loads(TileMapSpec& spec, int unit_bytes, std::string instruction) {
    spec.load = LoadKind::kThreads;
    spec.unit_bytes = unit_bytes;
    spec.copy_threads = spec.threads;
    spec.a_load = row_major_copies(spec.threads, spec.block_k * spec.elem_bytes, unit_bytes);
    spec.b_load = row_major_copies(spec.threads, spec.block_n * spec.elem_bytes, unit_bytes);
    spec.load_instruction = std::move(instruction);
}

// FMA rungs: lanes_m x lanes_n lanes, each thread tile made of sub x sub sub-tiles.
void fma_work(TileMapSpec& spec, const KernelDescriptor& d, int lanes_m, int lanes_n, int sub) {
    spec.work = WorkKind::kFma;
    spec.instruction = "FFMA";
    spec.lanes_m = lanes_m;
    spec.lanes_n = lanes_n;
    spec.sub_m = sub;
    spec.sub_n = sub;
    spec.thread_m = d.thread_tile.m;
    spec.thread_n = d.thread_tile.n;
}

void mma_work(TileMapSpec& spec, const KernelDescriptor& d, std::string instruction) {
    spec.work = WorkKind::kMma;
    spec.mma_m = d.mma_tile.m;
    spec.mma_n = d.mma_tile.n;
    spec.mma_k = d.mma_tile.k;
    spec.instruction = std::move(instruction);
}

// Rungs 9-11: `consumers` warpgroups of wgmma m64nNk16 after `first` loading warpgroups; one
// thread (thread 0 of warpgroup 0) issues the TMA boxes of 64 elements.
void hopper_work(TileMapSpec& spec, const KernelDescriptor& d, int first, int consumers) {
    spec.warp_layout = WarpLayout::kWarpgroups;
    spec.first_consumer_warpgroup = first;
    spec.consumer_warpgroups = consumers;
    spec.work = WorkKind::kWgmma;
    spec.mma_m = d.mma_tile.m;
    spec.mma_n = d.mma_tile.n;
    spec.mma_k = d.mma_tile.k;
    spec.instruction = "wgmma.m" + std::to_string(d.mma_tile.m) + "n" +
                       std::to_string(d.mma_tile.n) + "k" + std::to_string(d.mma_tile.k);
    spec.load = LoadKind::kTma;
    spec.tma_thread = 0;
    spec.tma_box_cols = 64;
}

// What each kernel file adds to its descriptor. Returns "" or why there is no tile map.
std::string read_rung(TileMapSpec& spec, const KernelDescriptor& d, int sms) {
    spec.warp_m = d.warp_tile.m;
    spec.warp_n = d.warp_tile.n;
    switch (d.rung) {
        case 1:  // 01_naive_fma.cu: grid (N / 32, M / 8); warp w = threadIdx.y = row w
            fma_work(spec, d, 1, 32, 1);
            spec.load = LoadKind::kNone;
            spec.load_instruction = "none: each thread reads A and B straight from global memory";
            spec.pipeline_note =
                "nothing staged: every K step reads one A and one B element "
                "per thread from L1/L2/DRAM";
            return "";
        case 2:  // 02_smem_tiled.cu: a_tile[ty][tx] = A(row, k0 + tx), b_tile[ty][tx]
            fma_work(spec, d, 1, 32, 1);
            thread_loads(spec, 4, "ld.global.f32 -> st.shared.f32, one element per thread");
            spec.pipeline_note = "one buffer: copy, barrier, 32 FMA per thread, barrier";
            return "";
        case 3:  // 03_register_tiled.cu: lanes 4 x 8, 2 x 2 sub-tiles of 4 x 4; float4 copies
            fma_work(spec, d, 4, 8, 4);
            thread_loads(spec, kChunkBytes,
                         "ld.global.v4 -> registers -> st.shared (A stored transposed)");
            spec.pipeline_note =
                "2 stages: the next K tile waits in registers during the math "
                "and is stored to the other stage after it; one barrier a step";
            return "";
        case 4:  // 04_wmma.cu: 1-D grid, bm = blockIdx.x / tiles_n; chunk c = tid + 256 i
            mma_work(spec, d, "wmma.mma_sync 16x16x16 (2 HMMA.16816 each)");
            thread_loads(spec, kChunkBytes, "cp.async 16 B");
            spec.pipeline_note =
                "cp.async ring: K tile t + 3 is copied into the stage tile t - 1 "
                "used while tile t is multiplied";
            return "";
        case 5:  // 05_mma_tf32_puzzle.cu: only warp 0 copies, as row_major(4, 8) threads
            mma_work(spec, d, "mma.sync.m16n8k8.tf32");
            spec.load = LoadKind::kThreads;
            spec.unit_bytes = kChunkBytes;
            spec.copy_threads = 32;
            spec.a_load = {4, 8};
            spec.b_load = {4, 8};
            spec.load_instruction = "cp.async 16 B, by warp 0 only (threads 32-255 idle)";
            spec.pipeline_note =
                "one buffer: warp 0 copies, wait for all copies, barrier, "
                "compute; the next step's barrier guards the buffer";
            return "";
        case 6:  // 06_mma_tf32_tuned.cu: bands of 8 tile rows; tile j of a 32-column group
                 // takes columns 4q + j
            spec.raster = RasterOrder::kColumnBands;
            spec.raster_group = 8;
            mma_work(spec, d, "mma.sync.m16n8k8.tf32");
            spec.mma_col_stride = 4;
            thread_loads(spec, kChunkBytes, "cp.async 16 B");
            spec.pipeline_note =
                "cp.async ring: K tile t + 3 is issued at k8 step 0 of tile t "
                "into the stage tile t - 1 used";
            return "";
        case 7:  // 07_mma_ldmatrix_xor.cu: grid (N / 128, M / 128); 16-byte register copies
            mma_work(spec, d, "mma.sync.m16n8k16");
            thread_loads(spec, kChunkBytes, "ld.global.v4 -> registers -> st.shared.v4");
            spec.pipeline_note =
                "one buffer: load to registers, store, barrier, 4 k16 steps, "
                "barrier";
            return "";
        case 8:  // 08_mma_cp_async.cu: rasterise() bands of kGroupM = 16; serpentine mma_row
            spec.raster = RasterOrder::kColumnBands;
            spec.raster_group = 16;
            mma_work(spec, d, "mma.sync.m16n8k16");
            spec.serpentine = true;
            thread_loads(spec, kChunkBytes, "cp.async 16 B");
            spec.pipeline_note =
                "cp.async ring: a third of K tile t + 3 is copied at each of k16 "
                "steps 0-2 of tile t, into the stage tile t - 1 used";
            return "";
        case 9:  // 09_wgmma_tma.cu: rasterise_tile bands of kGroupM = 16; one warpgroup
            spec.raster = RasterOrder::kColumnBands;
            spec.raster_group = 16;
            hopper_work(spec, d, 0, 1);
            spec.load_instruction = "TMA 2-D box (cp.async.bulk.tensor)";
            spec.pipeline_note =
                "thread 0 issues K tile t + 3 into the stage of tile t - 1 once "
                "that tile's wgmma are done (wait_group 1, barrier)";
            return "";
        case 10:  // 10_wgmma_warp_specialized.cu: producer warpgroup 0, consumers 1 and 2
            spec.raster = RasterOrder::kColumnBands;
            spec.raster_group = 16;
            hopper_work(spec, d, 1, 2);
            spec.load_instruction = "TMA 2-D box (cp.async.bulk.tensor) from the producer";
            spec.pipeline_note =
                "the producer refills a stage as soon as all 8 consumer warps "
                "release it (empty mbarrier); no block-wide barrier";
            return "";
        case 11:  // 11_wgmma_persistent.cu: clusters of 2 along M, bands of 8 cluster rows
            spec.raster = RasterOrder::kPersistent;
            spec.raster_group = 8;
            spec.cluster_m = 2;
            spec.clusters = sms / spec.cluster_m > 0 ? sms / spec.cluster_m : 1;
            hopper_work(spec, d, 1, 2);
            spec.ring_across_tiles = true;
            spec.load_instruction = "TMA 2-D box from the producer, B with .multicast::cluster";
            spec.pipeline_note =
                "the producer runs on into the CTA's next tile; the ring and its "
                "phases continue across tiles";
            return "";
        default:
            break;
    }
    if (d.rung == 0) return d.id + " is a cuBLAS reference: cuBLAS picks its own tiles";
    return d.id + " (rung " + std::to_string(d.rung) + ") has no tile map yet";
}

// The descriptor's tiles, stages and threads, then read_rung.
std::string fill_spec(TileMapSpec& spec, const KernelDescriptor& kernel, const GemmProblem& problem,
                      int sms) {
    spec.kernel = kernel.id;
    spec.m = problem.m;
    spec.n = problem.n;
    spec.k = problem.k;
    spec.block_m = kernel.block_tile.m;
    spec.block_n = kernel.block_tile.n;
    spec.block_k = kernel.block_tile.k;
    spec.elem_bytes = storage_bytes(kernel.precision);
    spec.threads = kernel.threads;
    spec.stages = kernel.stages;
    return read_rung(spec, kernel, sms);
}

}  // namespace

viz::Expected<TileMapSpec> tile_map_spec(const KernelDescriptor& kernel, const GemmProblem& problem,
                                         int sms) {
    TileMapSpec spec;
    if (std::string error = fill_spec(spec, kernel, problem, sms); !error.empty()) {
        return viz::Expected<TileMapSpec>::failure(error);
    }
    if (std::string error = viz::validate_tile_map_spec(spec); !error.empty()) {
        return viz::Expected<TileMapSpec>::failure(error);
    }
    return viz::Expected<TileMapSpec>::success(spec);
}

std::string tile_map_kernel_ids_text() {
    std::string text;
    for (const KernelDescriptor& kernel : all_kernels()) {
        TileMapSpec scratch;
        if (!fill_spec(scratch, kernel, {1, 1, 1}, kDefaultPersistentSms).empty()) continue;
        if (!text.empty()) text += ", ";
        text += kernel.id;
    }
    return text;
}

}  // namespace tclens::kernels
