// Cost of the Tile map panel's grid view for the largest grid it draws: rung 3's 128 x 128
// block tiles at 32768^2 (65,536 tiles, one filled rect and one hover target each), and a
// quarter of it, so the two times show the cost growing with the tile count. The records
// themselves are checked in tests/unit/viz/tile_map_view_test.cpp.

#include <benchmark/benchmark.h>

#include "tests/unit/viz/tile_map_specs.h"
#include "viz/tile_map_view.h"

namespace tclens::viz {
namespace {

void BM_GridView(benchmark::State& state) {
    const std::int64_t side = state.range(0);
    const TileMapSpec spec = test_specs::rung3(side, side, 8);
    TileMapViewOptions options;
    options.kind = TileMapViewKind::kGrid;
    for (auto _ : state) benchmark::DoNotOptimize(tile_map_view(spec, options));
    state.counters["rects"] = double(tile_map_view(spec, options).draw.rects.size());
}

BENCHMARK(BM_GridView)->Arg(16384)->Arg(32768)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tclens::viz
