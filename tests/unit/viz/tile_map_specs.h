#pragma once
// Tile map specs of the ladder rungs, written out by hand from the kernel files
// (kernels/NN_*.cu), for tests/unit/viz/tile_map_test.cpp and tile_map_view_test.cpp.
// kernels/tile_map_spec.h builds the same from the registry; its test checks they agree.
#include <cstdint>
#include <vector>

#include "viz/tile_map.h"

namespace tclens::viz::test_specs {

inline TileMapSpec with_size(TileMapSpec spec, std::int64_t m, std::int64_t n, std::int64_t k) {
    spec.m = m;
    spec.n = n;
    spec.k = k;
    return spec;
}

// 03_register_tiled.cu: 128 x 128 x 8, 8 warps 4 x 2 of 32 x 64, lanes 4 x 8 with 2 x 2
// sub-tiles of 4 x 4; float4 copies; 2 stages.
inline TileMapSpec rung3(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096) {
    TileMapSpec s;
    s.kernel = "register_tiled.f32";
    s.block_m = 128, s.block_n = 128, s.block_k = 8;
    s.elem_bytes = 4;
    s.threads = 256;
    s.warp_m = 32, s.warp_n = 64;
    s.work = WorkKind::kFma;
    s.instruction = "FFMA";
    s.lanes_m = 4, s.lanes_n = 8, s.sub_m = 4, s.sub_n = 4, s.thread_m = 8, s.thread_n = 8;
    s.copy_threads = 256;
    s.a_load = {128, 2};  // A rows are 32 bytes: thread t -> (t / 2, t % 2)
    s.b_load = {8, 32};   // B rows are 512 bytes: thread t -> (t / 32, t % 32)
    s.stages = 2;
    return with_size(s, m, n, k);
}

// 05_mma_tf32_puzzle.cu: 128 x 64 x 32, warps 4 x 2 of 32 x 32, m16n8k8; warp 0 copies as
// row_major(4, 8); one stage.
inline TileMapSpec rung5(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096) {
    TileMapSpec s;
    s.kernel = "mma_tf32_puzzle";
    s.block_m = 128, s.block_n = 64, s.block_k = 32;
    s.elem_bytes = 4;
    s.threads = 256;
    s.warp_m = 32, s.warp_n = 32;
    s.mma_m = 16, s.mma_n = 8, s.mma_k = 8;
    s.instruction = "mma.sync.m16n8k8.tf32";
    s.copy_threads = 32;
    s.a_load = {4, 8};
    s.b_load = {4, 8};
    return with_size(s, m, n, k);
}

// 06_mma_tf32_tuned.cu: 192 x 128 x 32, bands of 8, warps 4 x 2 of 48 x 64, m16n8k8 with the
// columns of a 32-column group interleaved (tile j takes 4q + j), 4 stages.
inline TileMapSpec rung6(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096) {
    TileMapSpec s;
    s.kernel = "mma_tf32_tuned";
    s.block_m = 192, s.block_n = 128, s.block_k = 32;
    s.elem_bytes = 4;
    s.threads = 256;
    s.raster = RasterOrder::kColumnBands;
    s.raster_group = 8;
    s.warp_m = 48, s.warp_n = 64;
    s.mma_m = 16, s.mma_n = 8, s.mma_k = 8;
    s.mma_col_stride = 4;
    s.instruction = "mma.sync.m16n8k8.tf32";
    s.copy_threads = 256;
    s.a_load = {32, 8};
    s.b_load = {8, 32};
    s.stages = 4;
    return with_size(s, m, n, k);
}

// 08_mma_cp_async.cu: 128 x 256 x 64 f16, bands of 16, warps 2 x 4 of 64 x 64, m16n8k16 in
// serpentine order, cp.async 16 B, 4 stages.
inline TileMapSpec rung8(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096) {
    TileMapSpec s;
    s.kernel = "mma_cp_async.f16";
    s.block_m = 128, s.block_n = 256, s.block_k = 64;
    s.elem_bytes = 2;
    s.threads = 256;
    s.raster = RasterOrder::kColumnBands;
    s.raster_group = 16;
    s.warp_m = 64, s.warp_n = 64;
    s.mma_m = 16, s.mma_n = 8, s.mma_k = 16;
    s.serpentine = true;
    s.instruction = "mma.sync.m16n8k16";
    s.copy_threads = 256;
    s.a_load = {32, 8};  // 128-byte A rows: 8 chunks
    s.b_load = {8, 32};  // 512-byte B rows: 32 chunks
    s.stages = 4;
    return with_size(s, m, n, k);
}

// 09_wgmma_tma.cu: 128 x 128 x 64, one warpgroup, 2 x wgmma m64n128k16 per k16 step.
inline TileMapSpec rung9(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096) {
    TileMapSpec s;
    s.kernel = "wgmma_tma.f16";
    s.block_m = 128, s.block_n = 128, s.block_k = 64;
    s.elem_bytes = 2;
    s.threads = 128;
    s.raster = RasterOrder::kColumnBands;
    s.raster_group = 16;
    s.warp_layout = WarpLayout::kWarpgroups;
    s.consumer_warpgroups = 1;
    s.first_consumer_warpgroup = 0;
    s.work = WorkKind::kWgmma;
    s.mma_m = 64, s.mma_n = 128, s.mma_k = 16;
    s.instruction = "wgmma.m64n128k16";
    s.load = LoadKind::kTma;
    s.stages = 4;
    return with_size(s, m, n, k);
}

// 10_wgmma_warp_specialized.cu: 128 x 256 x 64, producer warpgroup 0, consumers 1 and 2.
inline TileMapSpec rung10(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096) {
    TileMapSpec s = rung9(m, n, k);
    s.kernel = "wgmma_ws.f16";
    s.block_n = 256;
    s.threads = 384;
    s.consumer_warpgroups = 2;
    s.first_consumer_warpgroup = 1;
    s.mma_n = 256;
    s.instruction = "wgmma.m64n256k16";
    return s;
}

// 11_wgmma_persistent.cu: rung 10's block, clusters of 2 along M sharing B, bands of 8
// cluster rows, `clusters` co-resident clusters.
inline TileMapSpec rung11(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096,
                          int clusters = 66) {
    TileMapSpec s = rung10(m, n, k);
    s.kernel = "wgmma_persistent.f16";
    s.raster = RasterOrder::kPersistent;
    s.raster_group = 8;
    s.cluster_m = 2;
    s.clusters = clusters;
    s.ring_across_tiles = true;
    return s;
}

// 13_wgmma_fp8.cu: rung 11's kernel with e4m3 inputs: K tiles of 128 one-byte elements (one
// 128-byte row, boxes of 128 k), m64n256k32.
inline TileMapSpec rung13(std::int64_t m = 4096, std::int64_t n = 4096, std::int64_t k = 4096,
                          int clusters = 66) {
    TileMapSpec s = rung11(m, n, k, clusters);
    s.kernel = "wgmma_fp8.e4m3";
    s.block_k = 128;
    s.elem_bytes = 1;
    s.mma_k = 32;
    s.instruction = "wgmma.m64n256k32";
    s.tma_box_cols = 128;
    return s;
}

inline std::vector<TileMapSpec> every_spec(std::int64_t m, std::int64_t n, std::int64_t k) {
    return {rung3(m, n, k), rung5(m, n, k),  rung6(m, n, k),    rung8(m, n, k),
            rung9(m, n, k), rung10(m, n, k), rung11(m, n, k, 5)};
}

}  // namespace tclens::viz::test_specs
