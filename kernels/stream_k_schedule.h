#pragma once
// Rung 12's work split (kernels/12_wgmma_stream_k.cu), pure and __host__ __device__: the kernel
// walks it on the GPU, the launcher sizes its grid and workspace from it, and the unit tests
// (tests/unit/kernels/stream_k_schedule_test.cpp) hold it to its promises on the host.
//
// Units: one unit is one K iteration (kBlockK = 64 of K) of one C tile, so a problem has
// tiles x k_iters units. Tile ids are the kernel's raster order (Config::block_tile).
//
// The hybrid split ("data-parallel + stream-K", the last partial wave plus one full wave
// shared): with T tiles on G SMs,
//   - T % G == 0: every tile is data-parallel (T / G whole tiles per CTA, no fix-up);
//   - else the first (T / G - 1) x G tiles are data-parallel (CTA c takes tiles c, c + G, ...)
//     and the remaining S = T - that tiles (between G + 1 and 2G - 1 tiles, or all T when T < G)
//     are stream-K: their S x k_iters units, in tile order, are cut into G contiguous ranges,
//     CTA c taking units [c U / G, (c + 1) U / G) (U = S x k_iters, floor division), so every
//     CTA gets the same work to within one unit.
// A CTA's stream-K range yields pieces (tile, [k_begin, k_end)); only its first piece can start
// inside a tile (k_begin > 0): every later one starts at a tile boundary. So a CTA writes at
// most one partial tile, into its own workspace slot, and the CTA whose piece holds a split
// tile's first K iteration (the "owner", its last piece) adds the partials of the CTAs after
// it that hold the rest (its "contributors": their first pieces) before it stores C. The owner
// waits only for contributors with higher CTA ids, who write their partials first thing, so
// waits are short and cannot deadlock (the highest CTA never waits).
// Worked example, 3072^3 with 128 x 256 tiles on 132 SMs: 288 tiles, 48 K iterations each;
// 132 tiles data-parallel, 156 stream-K tiles = 7488 units, 56 or 57 per CTA.

#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/host_device.h"

namespace tclens::kernels {

// One contiguous piece of a CTA's work: K iterations [k_begin, k_end) of tile `tile`.
struct StreamKPiece {
    int tile = -1;
    int k_begin = 0;
    int k_end = 0;
};

struct StreamKSchedule {
    int tiles = 0;     // C tiles of the problem
    int k_iters = 0;   // K iterations per tile (ceil(K / 64))
    int ctas = 0;      // the grid: min(SMs, stream-K units) where everything is stream-K, else SMs
    int dp_tiles = 0;  // tiles 0 .. dp_tiles - 1 are data-parallel, a multiple of ctas

    TCLENS_HOST_DEVICE int dp_rounds() const { return dp_tiles / ctas; }
    TCLENS_HOST_DEVICE std::int64_t sk_units() const {
        return static_cast<std::int64_t>(tiles - dp_tiles) * k_iters;
    }
    // First stream-K unit of CTA `cta` (0..ctas; sk_begin(ctas) == sk_units()).
    TCLENS_HOST_DEVICE std::int64_t sk_begin(int cta) const { return cta * sk_units() / ctas; }
    // The CTA whose stream-K range holds unit u (0 <= u < sk_units()): the largest c with
    // sk_begin(c) <= u, i.e. c U < (u + 1) G.
    TCLENS_HOST_DEVICE int sk_cta_of_unit(std::int64_t u) const {
        return static_cast<int>(((u + 1) * ctas - 1) / sk_units());
    }
    // Piece i (0, 1, ...) of CTA `cta`: its data-parallel tiles first, then its stream-K range
    // cut at tile boundaries. False past its last piece.
    TCLENS_HOST_DEVICE bool piece(int cta, int i, StreamKPiece& p) const {
        const int rounds = dp_rounds();
        if (i < rounds) {
            p.tile = cta + i * ctas;
            p.k_begin = 0;
            p.k_end = k_iters;
            return true;
        }
        const std::int64_t begin = sk_begin(cta);
        const std::int64_t end = sk_begin(cta + 1);
        const std::int64_t start = i == rounds ? begin : (begin / k_iters + (i - rounds)) * k_iters;
        if (start >= end) return false;
        const std::int64_t tile = start / k_iters;
        const std::int64_t tile_end = (tile + 1) * k_iters;
        p.tile = dp_tiles + static_cast<int>(tile);
        p.k_begin = static_cast<int>(start - tile * k_iters);
        p.k_end = static_cast<int>((end < tile_end ? end : tile_end) - tile * k_iters);
        return true;
    }
    // For a piece of `cta` that starts a stream-K tile but does not finish it: the last CTA
    // that holds part of the tile; its contributors are cta + 1 .. that CTA.
    TCLENS_HOST_DEVICE int last_contributor(const StreamKPiece& p) const {
        const std::int64_t tile_end = static_cast<std::int64_t>(p.tile - dp_tiles + 1) * k_iters;
        return sk_cta_of_unit(tile_end - 1);
    }
};

// The split of `tiles` tiles of `k_iters` K iterations over `sms` SMs (all >= 1), as the header
// says. Example: 288 tiles x 48 on 132 SMs -> ctas 132, dp_tiles 132.
TCLENS_HOST_DEVICE inline StreamKSchedule make_stream_k_schedule(int tiles, int k_iters, int sms) {
    StreamKSchedule s;
    s.tiles = tiles;
    s.k_iters = k_iters;
    if (tiles % sms == 0) {
        s.ctas = sms;
        s.dp_tiles = tiles;
        return s;
    }
    const int full_waves = tiles / sms;
    s.dp_tiles = full_waves > 1 ? (full_waves - 1) * sms : 0;
    const std::int64_t units = static_cast<std::int64_t>(tiles - s.dp_tiles) * k_iters;
    s.ctas = units < sms ? static_cast<int>(units) : sms;
    return s;
}

// Rung 12's two modes (kernels/12_wgmma_stream_k.cu's configs must match these shapes).
enum class StreamKMode {
    kWide,    // 128 x 256 tiles, two consumer warpgroups of m64n256k16
    kSmallM,  // 64 x 128 tiles, one consumer warpgroup of m64n128k16: M <= kStreamKSmallMMax
};
struct StreamKModeShape {
    int block_m = 0;
    int block_n = 0;
    int consumers = 0;
};
constexpr StreamKModeShape kStreamKWideShape{128, 256, 2};
constexpr StreamKModeShape kStreamKSmallMShape{64, 128, 1};
// Up to here (the skinny sizes, M = 16..256) the small-M mode runs it: at M = 64 it ran the lab 6
// sweep at twice the wide mode's speed on the H100 (tests/gpu/results/2026-11-25_h100_session8/),
// and at 128..256 the wide mode's few 128 x 256 tiles leave most SMs a short K range to fix up.
constexpr std::int64_t kStreamKSmallMMax = 256;

inline StreamKMode stream_k_mode(std::int64_t m) {
    return m <= kStreamKSmallMMax ? StreamKMode::kSmallM : StreamKMode::kWide;
}
inline StreamKModeShape stream_k_shape(StreamKMode mode) {
    return mode == StreamKMode::kSmallM ? kStreamKSmallMShape : kStreamKWideShape;
}

// Bytes of the workspace the launcher allocates once per device: one f32 partial tile of the
// larger mode per CTA (sms x 128 x 256 x 4) plus one u32 flag per CTA and consumer warpgroup
// (sms x 2 x 4). 132 SMs: 17301504 + 1056.
constexpr std::int64_t stream_k_partials_bytes(int sms) {
    return std::int64_t{sms} * kStreamKWideShape.block_m * kStreamKWideShape.block_n * 4;
}
constexpr std::int64_t stream_k_flags_bytes(int sms) {
    return std::int64_t{sms} * kStreamKWideShape.consumers * 4;
}

// The schedule rung 12 launches for `problem` on `sms` SMs: its mode's tiles (K iterations of 64)
// split as make_stream_k_schedule says.
StreamKSchedule stream_k_schedule_for(const GemmProblem& problem, int sms);

// One line for `tclens kernels --mnk`: the mode and the split rung 12 picks for `problem` on
// `sms` SMs, e.g. for 3072^3 on 132: "wide mode, 128 x 256 tiles: 288 tiles = 2.18 waves on 132
// SMs; 132 tiles data-parallel (1 per CTA), 156 tiles stream-K (7488 K iterations, 56-57 per
// CTA)".
std::string stream_k_plan_text(const GemmProblem& problem, int sms);

}  // namespace tclens::kernels
