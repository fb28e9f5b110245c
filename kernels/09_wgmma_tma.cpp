// Rung 9's descriptor (its kernel and launch: 09_wgmma_tma.cu).
#include "kernels/09_wgmma_tma.h"

#include <algorithm>
#include <string>

#include "common/text.h"
#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/sixteen_bit_rung.h"
#include "kernels/tma_rung_descriptor.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

using namespace wgmma_tma;

namespace {

// Rung 9's kernel in Config (a WgmmaTmaInputsConfig), its id "<stem>.f16" / ".bf16", or with
// e4m3 inputs (Config's Inputs of 1 byte, `precision` kE4M3) "<stem>.e4m3"; any other precision
// a descriptor that refuses every problem (set_sixteen_bit_inputs).
template <typename C>
KernelDescriptor describe_wgmma_tma(Precision precision, const std::string& stem) {
    const std::string n = std::to_string(C::kWgmmaN);
    KernelDescriptor d;
    d.rung = 9;
    d.title = "TMA + mbarrier + wgmma m64n" + n + "k" + std::to_string(C::Inputs::kWgmmaK) +
              ", one warpgroup, " + std::to_string(C::kStages) + " stages";
    d.adds =
        "TMA box copies into 128-byte-swizzled stages, mbarrier byte counting, and wgmma "
        "reading A and B straight from shared memory, one group in flight (" +
        std::to_string(C::kGroupM) + "-row raster bands)";
    describe_tma_rung<C>(d, 0, 1, 16 * C::kTilesM);  // one warpgroup loads and multiplies
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = C::kGroupM;
    d.schedule.load_instruction = "TMA 2-D box (cp.async.bulk.tensor)";
    d.schedule.pipeline_note =
        "thread 0 issues K tile t + " + std::to_string(C::kStages - 1) +
        " into the stage of tile t - 1 once that tile's wgmma are done (wait_group 1, barrier)";
    d.block_tile_of = config_block_tile<C>;
    d.ctas_per_sm = C::kBlocksPerSm;
    if (C::kBKMajor && precision == Precision::kE4M3) {
        set_fp8_inputs<C>(d);
        d.id = stem + ".e4m3";
    } else {
        set_sixteen_bit_inputs(d, precision, stem, tma_tile_can_run<C>);
    }
    // Per K tile every warp waits, multiplies and syncs; warp 0 also issues a tile. Outside the
    // loop: the prologue's kStages - 1 issues, the epilogue and the store.
    describe_tma_trace<C>(d, C::kSteps * C::kTilesM, 4, C::kStages + 1);
    return d;
}

}  // namespace

// kF16 and kBF16 give "wgmma_tma.f16" / ".bf16", both ChosenWgmmaTmaConfig.
KernelDescriptor wgmma_tma_kernel(Precision precision) {
    return describe_wgmma_tma<WgmmaTmaInputsConfig<ChosenWgmmaTmaConfig, 2>>(precision,
                                                                             "wgmma_tma");
}

std::string rung9_tile_name(Rung9Tile tile) {
    const Rung9TileShape shape = rung9_tile_shape(tile);
    return std::to_string(shape.block_m) + "x" + std::to_string(shape.block_n) +
           (tile == Rung9Tile::kSmallDeep ? " deep" : "");
}

KernelDescriptor wgmma_tma_tile_descriptor(Precision precision, Rung9Tile tile) {
    const bool fp8 = precision == Precision::kE4M3;
    if (tile == Rung9Tile::kSquare && !fp8) return wgmma_tma_kernel(precision);
    std::string stem = "wgmma_tma_" + rung9_tile_name(tile);  // "wgmma_tma_64x64_deep"
    std::replace(stem.begin(), stem.end(), ' ', '_');
    KernelDescriptor d = with_rung9_config(tile, [&](auto config) {
        using Tile = decltype(config);
        return fp8 ? describe_wgmma_tma<WgmmaTmaInputsConfig<Tile, 1>>(precision, stem)
                   : describe_wgmma_tma<WgmmaTmaInputsConfig<Tile, 2>>(precision, stem);
    });
    d.rung = 14;
    d.title = "rung 9's kernel in " + std::to_string(d.block_tile.m) + " x " +
              std::to_string(d.block_tile.n) + " tiles, " + std::to_string(d.stages) + " stages, " +
              common::count_text(d.ctas_per_sm, "CTA") + " per SM";
    d.traced = {};  // no launch of its own: rung 14 launches it
    return d;
}

}  // namespace tclens::kernels
