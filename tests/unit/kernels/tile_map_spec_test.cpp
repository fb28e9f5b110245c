// Tests for kernels/tile_map_spec.*: every rung gets a tile map whose mappings are the ones
// written out by hand from its kernel file (tests/unit/viz/tile_map_specs.h, which the viz
// model's tests use), and the references and bad sizes get one-line reasons.
#include "kernels/tile_map_spec.h"

#include <gtest/gtest.h>

#include "kernels/registry.h"
#include "tests/unit/viz/tile_map_specs.h"

namespace tclens::kernels {
namespace {

namespace specs = viz::test_specs;

viz::TileMapSpec spec_of(const std::string& id, GemmProblem problem = {4096, 4096, 4096},
                         int sms = kDefaultPersistentSms) {
    const KernelDescriptor* kernel = find_kernel(id);
    EXPECT_NE(kernel, nullptr) << id;
    if (!kernel) return {};
    const auto spec = tile_map_spec(*kernel, problem, sms);
    EXPECT_TRUE(spec.ok()) << id << ": " << spec.error();
    return spec.ok() ? *spec : viz::TileMapSpec{};
}

// Every field that shapes the maps (not the kernel name or the explanatory texts).
void expect_same_mapping(const viz::TileMapSpec& got, const viz::TileMapSpec& want) {
    SCOPED_TRACE(want.kernel);
    EXPECT_EQ(got.m, want.m);
    EXPECT_EQ(got.n, want.n);
    EXPECT_EQ(got.k, want.k);
    EXPECT_EQ(got.block_m, want.block_m);
    EXPECT_EQ(got.block_n, want.block_n);
    EXPECT_EQ(got.block_k, want.block_k);
    EXPECT_EQ(got.elem_bytes, want.elem_bytes);
    EXPECT_EQ(got.threads, want.threads);
    EXPECT_EQ(got.raster, want.raster);
    EXPECT_EQ(got.raster_group, want.raster_group);
    EXPECT_EQ(got.cluster_m, want.cluster_m);
    EXPECT_EQ(got.clusters, want.clusters);
    EXPECT_EQ(got.warp_layout, want.warp_layout);
    if (want.warp_layout == viz::WarpLayout::kGrid) {
        EXPECT_EQ(got.warp_m, want.warp_m);
        EXPECT_EQ(got.warp_n, want.warp_n);
    } else {
        EXPECT_EQ(got.consumer_warpgroups, want.consumer_warpgroups);
        EXPECT_EQ(got.first_consumer_warpgroup, want.first_consumer_warpgroup);
    }
    EXPECT_EQ(got.work, want.work);
    if (want.work == viz::WorkKind::kFma) {
        EXPECT_EQ(got.lanes_m, want.lanes_m);
        EXPECT_EQ(got.lanes_n, want.lanes_n);
        EXPECT_EQ(got.sub_m, want.sub_m);
        EXPECT_EQ(got.sub_n, want.sub_n);
        EXPECT_EQ(got.thread_m, want.thread_m);
        EXPECT_EQ(got.thread_n, want.thread_n);
    } else {
        EXPECT_EQ(got.mma_m, want.mma_m);
        EXPECT_EQ(got.mma_n, want.mma_n);
        EXPECT_EQ(got.mma_k, want.mma_k);
        EXPECT_EQ(got.mma_col_stride, want.mma_col_stride);
        EXPECT_EQ(got.serpentine, want.serpentine);
    }
    EXPECT_EQ(got.load, want.load);
    if (want.load == viz::LoadKind::kThreads) {
        EXPECT_EQ(got.unit_bytes, want.unit_bytes);
        EXPECT_EQ(got.copy_threads, want.copy_threads);
        EXPECT_EQ(got.a_load.rows, want.a_load.rows);
        EXPECT_EQ(got.a_load.cols, want.a_load.cols);
        EXPECT_EQ(got.b_load.rows, want.b_load.rows);
        EXPECT_EQ(got.b_load.cols, want.b_load.cols);
    } else if (want.load == viz::LoadKind::kTma) {
        EXPECT_EQ(got.tma_thread, want.tma_thread);
        EXPECT_EQ(got.tma_box_cols, want.tma_box_cols);
    }
    EXPECT_EQ(got.stages, want.stages);
    EXPECT_EQ(got.ring_across_tiles, want.ring_across_tiles);
}

TEST(TileMapSpec, RungsMatchTheMappingsReadOffTheirKernelFiles) {
    expect_same_mapping(spec_of("register_tiled.f32"), specs::rung3());
    expect_same_mapping(spec_of("mma_tf32_puzzle"), specs::rung5());
    expect_same_mapping(spec_of("mma_tf32_tuned"), specs::rung6());
    expect_same_mapping(spec_of("mma_cp_async.f16"), specs::rung8());
    expect_same_mapping(spec_of("mma_cp_async.bf16"), specs::rung8());
    expect_same_mapping(spec_of("wgmma_tma.f16"), specs::rung9());
    expect_same_mapping(spec_of("wgmma_ws.bf16"), specs::rung10());
    // One persistent CTA per SM: 132 SMs -> 66 clusters of 2.
    expect_same_mapping(spec_of("wgmma_persistent.f16"), specs::rung11(4096, 4096, 4096, 66));
    expect_same_mapping(spec_of("wgmma_persistent.f16", {4096, 4096, 4096}, 114),
                        specs::rung11(4096, 4096, 4096, 57));
    expect_same_mapping(spec_of("wgmma_fp8.e4m3"), specs::rung13(4096, 4096, 4096, 66));
}

TEST(TileMapSpec, TheOtherRungsCopyTheWayTheirFilesSay) {
    // 01: nothing staged; a warp is one row of the 8 x 32 block tile.
    const viz::TileMapSpec one = spec_of("naive_fma.f32");
    EXPECT_EQ(one.load, viz::LoadKind::kNone);
    EXPECT_EQ(one.raster, viz::RasterOrder::kRowMajor);
    EXPECT_EQ(viz::warp_regions(one).size(), 8u);
    // 02: a_tile[ty][tx]: one 4-byte element per thread, 32 x 32 threads.
    const viz::TileMapSpec two = spec_of("smem_tiled.f32");
    EXPECT_EQ(two.unit_bytes, 4);
    EXPECT_EQ(two.a_load.rows, 32);
    EXPECT_EQ(two.a_load.cols, 32);
    // 04: chunk c = tid + 256 i of 4 (A) or 32 (B) chunks per row.
    const viz::TileMapSpec four = spec_of("wmma.f16");
    EXPECT_EQ(four.a_load.rows, 64);
    EXPECT_EQ(four.a_load.cols, 4);
    EXPECT_EQ(four.b_load.rows, 8);
    EXPECT_EQ(four.b_load.cols, 32);
    EXPECT_EQ(viz::instructions_per_k_step(four), 32);  // 4 x 4 fragments x 2 k16 slices
    // 07: b_row = tid / 16, b_chunk = tid % 16.
    const viz::TileMapSpec seven = spec_of("mma_ldmatrix_xor.bf16");
    EXPECT_EQ(seven.b_load.rows, 16);
    EXPECT_EQ(seven.b_load.cols, 16);
    EXPECT_EQ(seven.stages, 1);
}

TEST(TileMapSpec, EveryRungHasOneAndEveryReferenceSaysWhyNot) {
    for (const KernelDescriptor& kernel : all_kernels()) {
        const auto spec = tile_map_spec(kernel, {1000, 777, 300});
        if (kernel.rung > 0) {
            EXPECT_TRUE(spec.ok()) << kernel.id << ": " << spec.error();
            EXPECT_NE(tile_map_kernel_ids_text().find(kernel.id), std::string::npos);
        } else {
            ASSERT_FALSE(spec.ok()) << kernel.id;
            EXPECT_EQ(spec.error(),
                      kernel.id + " is a cuBLAS reference: cuBLAS picks its own tiles");
            EXPECT_EQ(tile_map_kernel_ids_text().find(kernel.id), std::string::npos);
        }
    }
}

TEST(TileMapSpec, TooManyTilesIsAOneLineError) {
    const auto spec = tile_map_spec(*find_kernel("naive_fma.f32"), {65536, 65536, 1});
    ASSERT_FALSE(spec.ok());
    EXPECT_NE(spec.error().find("16777216 block tiles"), std::string::npos) << spec.error();
    EXPECT_EQ(spec.error().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tclens::kernels
