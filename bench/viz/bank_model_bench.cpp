// Cost of the shared-memory bank model and of the Banks panel's draw records.
//
// BM_KStep models every shared-memory read of one K-step of a GEMM main loop:
//   - Block tile 128 x 128, BK = 32, bf16 operands, mma.sync.m16n8k16 (A row-major, B "col"
//     fragments loaded from a row-major K x N tile with ldmatrix .trans).
//   - 8 warps in a 2 (M) x 4 (N) grid, warp tile 64 x 32.
//   - Shared memory: A is 128 x 32 bf16, row-major (M x K): 128 rows of 64 bytes. B is 32 x 128
//     bf16, row-major (K x N): 32 rows of 256 bytes. Each is swizzled on its own.
//   - Per K-step each warp walks the two k16 slices kk = 0, 1 of BK and issues:
//       A: 4 ldmatrix.x4, one per m16 tile i = 0..3 of its 64 rows, at (row 64 wm + 16 i,
//          byte 32 kk);
//       B: 2 ldmatrix.x4.trans, one per n16 pair j = 0..1 of its 32 columns, at
//          (row 16 kk, byte 2 (32 wn + 16 j)).
//     Every ldmatrix.x4[.trans] has lane l give the address of row (row + l mod 16) at byte
//     (byte + 16 (l / 16)), the mapping of viz/access_pattern.h, and is priced in 4 phases of 8
//     lanes (.trans changes registers, not banks).
//   That is 8 warps x 2 x (4 + 2) = 96 requests, 384 phases, 3,072 16-byte accesses, priced
//   with viz::physical_address and viz::phase_cost. Stores (cp.async into A and B) are left out:
//   the panel's question is the ldmatrix side. The counters give the wavefronts per K-step
//   (ideal = 384) for each swizzle pair; worked out by hand they must be:
//     none / none     2048: A 4-way (64-byte rows: rows r and r + 2 share banks), B 8-way
//     xor / xor        640: A 2-way (xor permutes only 4 chunks of a 64-byte row), B 1-way
//     tma64 / xor      384: both conflict-free
//     tma64 / tma128   512: tma128's pattern repeats every 4 rows of 256 bytes, so B is 2-way
//
// BM_BankRequests / BM_BankView / BM_SideBySide: what the Banks panel does when a setting
// changes: model both sides, build both views, put them side by side.

#include <benchmark/benchmark.h>

#include <vector>

#include "viz/bank_model.h"
#include "viz/bank_view.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::viz {
namespace {

constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kWarpTileM = 64, kWarpTileN = 32;
constexpr int kBlockK = 32, kMmaK = 16;
constexpr int kBf16Bytes = 2;
constexpr int kRowBytesA = kBlockK * kBf16Bytes;  // 64
constexpr int kRowBytesB = 128 * kBf16Bytes;      // 256
constexpr Tile kTileA{128, kRowBytesA};
constexpr Tile kTileB{kBlockK, kRowBytesB};

// One ldmatrix.x4 (or .x4.trans): its 16 x 32-byte block starts at (row, byte_col) of `tile`.
struct Ldmatrix {
    bool a;  // reads the A tile (else B)
    int row;
    int byte_col;
};

std::vector<Ldmatrix> k_step_requests() {
    std::vector<Ldmatrix> requests;
    for (int warp = 0; warp < kWarpsM * kWarpsN; ++warp) {
        const int wm = warp / kWarpsN, wn = warp % kWarpsN;
        for (int kk = 0; kk < kBlockK / kMmaK; ++kk) {
            for (int i = 0; i < kWarpTileM / 16; ++i) {
                requests.push_back({true, wm * kWarpTileM + 16 * i, kk * kMmaK * kBf16Bytes});
            }
            for (int j = 0; j < kWarpTileN / 16; ++j) {
                requests.push_back({false, kk * kMmaK, (wn * kWarpTileN + 16 * j) * kBf16Bytes});
            }
        }
    }
    return requests;
}

// Wavefronts of all `requests`: (lane) -> (row + l mod 16, byte_col + 16 (l / 16)) -> physical
// address -> phase_cost per 8-lane phase.
int k_step_wavefronts(const Swizzle& a, const Swizzle& b, const std::vector<Ldmatrix>& requests) {
    int wavefronts = 0;
    std::vector<std::int64_t> addrs;
    for (const Ldmatrix& request : requests) {
        const Swizzle& swizzle = request.a ? a : b;
        const Tile& tile = request.a ? kTileA : kTileB;
        for (int phase = 0; phase < 4; ++phase) {
            addrs.clear();
            for (int lane = 8 * phase; lane < 8 * phase + 8; ++lane) {
                addrs.push_back(physical_address(swizzle, tile, request.row + lane % 16,
                                                 request.byte_col + 16 * (lane / 16)));
            }
            wavefronts += phase_cost(addrs, 16).wavefronts;
        }
    }
    return wavefronts;
}

void BM_KStep(benchmark::State& state, const char* a_spec, const char* b_spec) {
    const Swizzle a = *parse_swizzle(a_spec);
    const Swizzle b = *parse_swizzle(b_spec);
    for (const auto& [swizzle, tile] : {std::pair{a, kTileA}, std::pair{b, kTileB}}) {
        const std::string error = validate_swizzle(swizzle, tile, 16, "ldmatrix.x4");
        if (!error.empty()) {
            state.SkipWithError(error.c_str());
            return;
        }
    }
    const std::vector<Ldmatrix> requests = k_step_requests();
    int wavefronts = 0;
    for (auto _ : state) {
        wavefronts = k_step_wavefronts(a, b, requests);
        benchmark::DoNotOptimize(wavefronts);
    }
    state.counters["requests"] = double(requests.size());
    state.counters["wavefronts"] = wavefronts;
    state.counters["ideal"] = double(4 * requests.size());
}

BankReport model(const char* swizzle, const char* pattern, Tile tile) {
    return *bank_requests(*parse_swizzle(swizzle), *parse_pattern(pattern), tile);
}

void BM_BankRequests(benchmark::State& state, const char* swizzle, const char* pattern, int rows,
                     int row_bytes) {
    const Swizzle s = *parse_swizzle(swizzle);
    const Pattern p = *parse_pattern(pattern);
    for (auto _ : state) benchmark::DoNotOptimize(bank_requests(s, p, Tile{rows, row_bytes}));
}

void BM_BankView(benchmark::State& state, const char* swizzle, const char* pattern, int rows,
                 int row_bytes) {
    const BankReport report = model(swizzle, pattern, Tile{rows, row_bytes});
    for (auto _ : state) benchmark::DoNotOptimize(bank_view(report, {}));
    state.counters["rects"] = double(bank_view(report, {}).draw.rects.size());
}

// The panel's default: ldmatrix.x4 on 16 x 128 bytes, none vs xor, modelled and drawn.
void BM_PanelRebuild(benchmark::State& state) {
    const Pattern pattern = *parse_pattern("ldmatrix.x4");
    const Swizzle none = *parse_swizzle("none"), xored = *parse_swizzle("xor");
    for (auto _ : state) {
        const BankReport left = *bank_requests(none, pattern, Tile{16, 128});
        const BankReport right = *bank_requests(xored, pattern, Tile{16, 128});
        benchmark::DoNotOptimize(side_by_side(bank_view(left, {}), bank_view(right, {})));
    }
}

void BM_ExportPanelView(benchmark::State& state, bool png) {
    const BankView view = side_by_side(bank_view(model("none", "ldmatrix.x4", {16, 128}), {}),
                                       bank_view(model("xor", "ldmatrix.x4", {16, 128}), {}));
    for (auto _ : state) {
        if (png) {
            benchmark::DoNotOptimize(rasterize(view.draw));
        } else {
            benchmark::DoNotOptimize(to_svg(view.draw));
        }
    }
}

BENCHMARK_CAPTURE(BM_KStep, none_none, "none", "none")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KStep, xor_xor, "xor", "xor")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KStep, tma64_xor, "tma64", "xor")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KStep, tma64_tma128, "tma64", "tma128")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BankRequests, ldmatrix_x4_xor_16x128, "xor", "ldmatrix.x4", 16, 128)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BankView, ldmatrix_x4_xor_16x128, "xor", "ldmatrix.x4", 16, 128)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BankView, ldmatrix_x4_xor_128x64, "xor", "ldmatrix.x4", 128, 64)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BankView, lds_128_xor_512x512, "xor", "lds.128.row", 512, 512)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PanelRebuild)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ExportPanelView, svg, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ExportPanelView, png, true)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tclens::viz
