// Cost of turning a layout into draw records, and of exporting them, for the largest layout
// the Fragments panel shows (wgmma m64n256k16: 16,384 accumulator cells).

#include <benchmark/benchmark.h>

#include "viz/fragment_layout.h"
#include "viz/fragment_view.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::viz {
namespace {

void BM_FragmentLayout(benchmark::State& state, const char* id) {
    for (auto _ : state) benchmark::DoNotOptimize(fragment_layout(id));
}

void BM_FragmentView(benchmark::State& state, const char* id) {
    const FragmentLayout layout = *fragment_layout(id);
    for (auto _ : state) benchmark::DoNotOptimize(fragment_view(layout, {}));
    state.counters["rects"] = double(fragment_view(layout, {}).draw.rects.size());
}

void BM_Rasterize(benchmark::State& state, const char* id) {
    const FragmentView view = fragment_view(*fragment_layout(id), {});
    for (auto _ : state) benchmark::DoNotOptimize(rasterize(view.draw));
}

void BM_Svg(benchmark::State& state, const char* id) {
    const FragmentView view = fragment_view(*fragment_layout(id), {});
    for (auto _ : state) benchmark::DoNotOptimize(to_svg(view.draw));
}

BENCHMARK_CAPTURE(BM_FragmentLayout, wgmma_m64n256k16, "wgmma.m64n256k16.f16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FragmentView, mma_m16n8k8_tf32, "mma.m16n8k8.tf32")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FragmentView, wgmma_m64n256k16, "wgmma.m64n256k16.f16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rasterize, wgmma_m64n256k16, "wgmma.m64n256k16.f16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Svg, wgmma_m64n256k16, "wgmma.m64n256k16.f16")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tclens::viz
