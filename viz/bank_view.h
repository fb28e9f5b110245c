#pragma once
// The bank view: a BankReport (viz/bank_model.h) drawn as draw records (viz/draw_list.h). The
// GUI's Banks panel paints two of them side by side (side_by_side) with ImDrawList and exports
// the same records to SVG and PNG, so the screen and the files always agree.
//
// What is drawn, top to bottom, for one request of the report (BankViewOptions::request):
//   - A title "swizzle <spec>: <pattern> on <rows> x <row_bytes> bytes" and totals_text():
//     "wavefronts 32 / ideal 4, conflict factor 8.00x", plus " | measured 32" when the report
//     carries a measurement.
//   - The bank x phase heatmap. A header row of 32 bank swatches, bank b filled with
//     bank_colour(b) and labelled "b" (the legend of the tile's colours); then one row per
//     phase, labelled "p0".."pN-1" on the left: cell (bank, phase) is filled with
//     conflict_colour(degree), degree = PhaseReport::bank_words[bank] (distinct words asked of
//     that bank in that phase, 0 = idle), labelled with the degree when it is not 0; each row
//     ends with the phase's wavefronts, "8 wf". With a phase shown (options.phase >= 0) its
//     row is outlined in palette.text.
//   - The heat legend: one swatch per degree bucket (idle, 1, 2, 3-4, 5-8, 9-16, 17-32).
//   - A caption naming the highlighted lanes: "phase 1 of 4: lanes 8-15, 8 wavefronts" or
//     "all 4 phases: lanes 0-31, 32 wavefronts".
//   - The tile at its logical shape, one square cell per 4-byte word: row r is drawn at row r,
//     the word at bytes 4w..4w+3 at column w; row numbers on the left (every 2^k-th row when
//     the rows are too short or more than 256), byte offsets every 16 bytes on top (when they
//     fit). Cell (r, w) is filled with bank_colour(bank_of(physical_address(swizzle,
//     tile, r, 4w))): the logical tile coloured by the bank each word lands in after the
//     swizzle. Words touched by a highlighted lane (those of the shown phase, or of every phase)
//     keep that colour, are outlined in palette.text and labelled with the lowest such lane
//     ("5", or "5+" when more lanes read the same word); every other word is dimmed, mixed
//     kDimming of the way toward palette.background.
// Large tiles stay cheap: one grid backdrop rect per block and one fill-only rect per word.
#include <cstdint>
#include <string>
#include <vector>

#include "viz/bank_model.h"
#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::viz {

// How far untouched words are mixed toward the background (0 = not at all, 1 = invisible).
constexpr float kDimming = 0.45f;

enum class BankHitKind {
    kWord,  // a tile cell
    kBank,  // a bank swatch of the heatmap's header
    kHeat,  // a heatmap cell
};

// One hover target; DrawRect::hit indexes BankView::hits.
struct BankHit {
    BankHitKind kind = BankHitKind::kWord;
    int side = 0;  // which view of side_by_side() it belongs to; 0 in a single view
    int bank = 0;
    int row = -1;                 // kWord: logical row
    int byte_col = -1;            // kWord: first byte of the word (a multiple of 4)
    std::int64_t byte_addr = -1;  // kWord: physical address of that byte
    int phase = -1;               // kHeat: the phase
    int degree = 0;               // kHeat: distinct words asked of the bank in the phase
    // kWord: bit p set when a lane of phase p touches the word; kHeat: 1 << phase; kBank: 0.
    // (Requests have at most 4 phases, see viz/access_pattern.h.)
    std::uint32_t phase_mask = 0;
    // kWord: the request's lanes touching the word, every phase, ascending; kHeat: the lanes
    // touching the bank in the phase (PhaseReport::bank_lanes); kBank: empty.
    std::vector<int> lanes;
};

struct BankViewOptions {
    int request = 0;     // index into BankReport::requests; clamped to the valid range
    int phase = -1;      // phase whose lanes are highlighted; -1 (or out of range): all phases
    float cell = 16.0f;  // side of one word cell and one heatmap cell, pixels
    const Palette* palette = nullptr;    // nullptr: dark_palette()
    const BankPalette* banks = nullptr;  // nullptr: dark_bank_palette()
};

struct BankView {
    DrawList draw;
    std::vector<BankHit> hits;  // DrawRect::hit indexes this (-1: not a target)
};

// Builds the view. Cost is linear in the tile's words (-O2, bench/viz/bank_model_bench.cpp):
// 16 x 128 bytes 0.06 ms, 128 x 64 bytes 0.15 ms, the largest tile (65,536 words) 2.3 ms.
BankView bank_view(const BankReport& report, const BankViewOptions& options);

// `left`, then `right` placed `gap` pixels to its right, top-aligned, as one view: right's rects
// and texts are shifted, its hits appended with side = 1 (left's get side = 0) and its rects'
// hit ids renumbered to match. The background is left's.
BankView side_by_side(const BankView& left, const BankView& right, float gap = 24.0f);

// "wavefronts 32 / ideal 4, conflict factor 8.00x" over all requests of the report, and
// " | measured 32" when report.measured_wavefronts is set (it is per instruction, so it is
// multiplied by the number of requests); whole numbers are written without decimals,
// others with two ("measured 4.03").
std::string totals_text(const BankReport& report);

// Ascending lane or bank numbers folded into runs: {0, 1, 2, 3, 8, 9} -> "0-3, 8-9" (with
// separator ", "); `empty` for an empty list.
std::string ranges_text(const std::vector<int>& values, const std::string& separator = ", ",
                        const std::string& empty = "none");

// Whether hovering `hovered` should outline `other`: same side and same bank, different kinds,
// and either one is a bank swatch or they share a phase (phase_mask). So a swatch lights up
// every word of its bank, a heatmap cell the words its phase asks of that bank, and a touched
// word the heatmap cells and the swatch of its bank.
bool related_hits(const BankHit& hovered, const BankHit& other);

// One line for a tooltip, e.g.
//   kWord: "row 3, bytes 16-19 -> address 416, bank 8; lanes 3 (phase 0)"
//   kBank: "bank 8: bytes 32-35 of every 128-byte line"
//   kHeat: "phase 0, bank 0: 8 distinct words (8-way conflict); lanes 0-7"
std::string bank_hit_tooltip(const BankHit& hit);

}  // namespace tclens::viz
