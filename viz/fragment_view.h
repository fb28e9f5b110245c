#pragma once
// The fragment view: a FragmentLayout drawn as draw records (viz/draw_list.h). The GUI's
// Fragments panel paints it with ImDrawList; `tclens layout --svg/--png` exports the same
// records, so the screen and the files always agree.
//
// What is drawn, left to right, all matrices top-aligned at their true shape (one square cell
// per element, operand-matrix coordinates: row down, column right):
//   - Models that cannot be verified (FragmentLayout::verifiable false, tcgen05): first a banner
//     line with kModelOnlyNote and the PTX ISA source, above everything else, so every export
//     carries it too.
//   - wgmma (threads = 128) only: a gutter with "warp 0".."warp 3" beside horizontal warp bands
//     (warp w = rows 16w..16w+15 of A and D), outlined in palette.text.
//   - ldmatrix and stmatrix only: an "addr" column, one cell per tile row, labelled with the lane
//     that supplies that row's shared-memory address (FragmentLayout::address_lanes).
//   - One block per operand, titled "<operand> <rows>x<cols> <type>" (e.g. "A 16x8 tf32"):
//     A | B | C/D. C and D are drawn once, titled "C/D", when their layouts are identical (every
//     mma.sync shape); the cells then refer to operand C.
//   - Below: a lane strip, one cell per lane, 32 per row (4 rows, one per warp, for wgmma);
//     "TMEM lanes" for layouts whose slots are Tensor Memory lanes (cells then read "L<lane>" and
//     the column "c<col>", "c<col>.<byte>" for scale-factor bytes).
//   - wgmma shared-memory views (FragmentLayout::shared_memory) instead of operands and strip:
//     per tile, the operand matrix with each element coloured by its core matrix (labels "m<k>"
//     and "+<byte>"), and beside it the tile's shared memory, 128 bytes per line, one cell per
//     16-byte chunk, coloured by the core matrix whose row it is (labels "m<k>" and "r<row of
//     the core matrix>"). These cells are no hover targets.
// Each element cell is filled with palette.categories[index % size], the index chosen by
// FragmentViewOptions::colouring, outlined in palette.grid, and, when labels fit, labelled
// with two lines: "T<lane>" and the register ("a2"; "a0.1" for element 1 of a register that
// packs several, see register_name). The cells, strip cell and address cells of
// highlight_lane are outlined in palette.highlight instead, with a thicker line.
#include <string>
#include <vector>

#include "viz/draw_list.h"
#include "viz/fragment_layout.h"
#include "viz/palette.h"

namespace tclens::viz {

// What picks a cell's category colour:
//   kRegister: reg; kLane: lane; kThreadGroup: PTX groupID = (lane % 32) / 4 (for wgmma the
//   groupID inside the thread's warp); kSub: sub (the element's slot inside its register).
enum class FragmentColouring { kRegister, kLane, kThreadGroup, kSub };

// FragmentHit::element of a target that is a lane and no element: a lane-strip cell or an
// ldmatrix address cell. Its `operand` is then meaningless (set to Operand::A).
inline constexpr int kLaneOnlyHit = -1;

// One hover target. element >= 0: layout.find(operand)->elements[element], and `lane` is that
// element's lane. element == kLaneOnlyHit: only `lane` counts. So hovering any target can set
// FragmentViewOptions::highlight_lane = hit.lane.
struct FragmentHit {
    Operand operand;
    int element;
    int lane;
};

struct FragmentViewOptions {
    FragmentColouring colouring = FragmentColouring::kRegister;
    float cell = 28.0f;       // side of one element cell, pixels
    int highlight_lane = -1;  // -1: none
    // Cell labels. They are also left out when they would not fit: cell < 22 px, or more than
    // 8192 element cells in the view (wgmma n >= 120), where they would be unreadable noise.
    bool labels = true;
    const Palette* palette = nullptr;  // nullptr: dark_palette()
    // A part of the view, to show it larger (a lecture at 1280x720): only the operand blocks
    // named by these letters ("A", "AB"; 'C' or 'D' picks the C/D block where they are drawn
    // once; "" all), and of wgmma's A and D only warp `warp`'s band of rows 16w..16w+15 (-1 all),
    // titled "D 64x16 f32, warp 0: rows 0-15". A part has no lane strip and no warp gutter.
    std::string operands;
    int warp = -1;
};

struct FragmentView {
    DrawList draw;
    std::vector<FragmentHit> hits;  // DrawRect::hit indexes this (-1: not a target)
};

// Builds the view. Cost is linear in the element count: the 17,408-cell
// wgmma.m64n256k16.f16 view builds in about 0.3 ms (-O2).
FragmentView fragment_view(const FragmentLayout& layout, const FragmentViewOptions& options);

// PTX-style register name: operand letter in lower case, then the register index:
// (A, 0) -> "a0", (B, 1) -> "b1", (C, 2) -> "c2", (D, 127) -> "d127". ldmatrix's destination
// registers are operand D, so matrix j arrives in "dj".
std::string register_name(Operand op, int reg);

// Everything lane `lane` holds, in the view's operand order, one register after another:
//   "lane 5: a0=(1,1) a1=(9,1) a2=(1,5) a3=(9,5) | b0=(1,1) b1=(5,1) | c0=(1,2) ..."
// Coordinates are (row,col); a register packing several elements lists them by sub:
// "a0=(1,2),(1,3)". C/D drawn once (see above) appear once, as c. wgmma adds the warp
// ("lane 37 (warp 1): ..."), ldmatrix the rows whose address the lane supplies
// (" | addr row 5"). A lane outside 0..threads-1 gives "lane N: no such lane (0..T-1)".
std::string lane_tooltip(const FragmentLayout& layout, int lane);

}  // namespace tclens::viz
