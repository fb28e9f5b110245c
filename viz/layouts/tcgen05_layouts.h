// Blackwell tcgen05 layouts, models only: every one carries verifiable = false, a `source` that
// names the PTX ISA section it follows, and kModelOnlyNote in every view. No GPU at hand (sm_90)
// can run tcgen05, which needs sm_100a.
//
// 1. tcgen05.ld / tcgen05.st data-path layouts (PTX ISA, "Tensor Memory": "Matrix fragments for
//    shape .32x32b / .16x64b / .16x128b / .16x256b / .16x32bx2"), one warp, .b32, .num = x1 or
//    x2. Operand D is the register vector r0, r1, ... (tcgen05.st writes the same registers the
//    other way); row = TMEM lane relative to the warp's 32-lane subpartition, col = 32-bit TMEM
//    column relative to the address. Thread t, register r of repetition j (.xR):
//      32x32b:  lane t, column r.
//      16x64b:  lane 8 (t % 2) + t / 4, column (t / 2) % 2 + 2 r.
//      16x128b: lane t / 4 + 8 (r % 2), column t % 4 + 4 (r / 2).
//      16x256b: lane t / 4 + 8 ((r / 2) % 2), column 2 (t % 4) + r % 2 + 8 (r / 4) (the mma
//               m16n8 accumulator pattern, repeated every 8 columns).
//      16x32bx2: lane t % 16, column r of the half t / 16; the second half lies imm-half-splitoff
//               columns after the first and is drawn right after it here.
//    (CUTLASS's SM100 TMEM copy traits encode the same maps.)
//    IDs: tcgen05.ld.32x32b.x1/.x2, tcgen05.ld.16x64b.x1/.x2, tcgen05.ld.16x128b.x1/.x2,
//    tcgen05.ld.16x256b.x1/.x2, tcgen05.ld.16x32bx2.x1/.x2.
//
// 2. Accumulator D of tcgen05.mma in Tensor Memory (PTX ISA, "Data Path Layout Organization"),
//    N = 64, 32-bit accumulators; tmem_slots: `lane` is the TMEM lane, `reg` the column.
//      tcgen05.mma.m64n64.cta1  (Layout F, M = 64, half the data paths): row m -> lane
//                               m % 16 + 32 (m / 16), column n.
//      tcgen05.mma.m128n64.cta1 (Layout D): row m -> lane m, column n.
//      tcgen05.mma.m128n64.cta2 (Layout B, cta_group::2, dense A; each CTA holds 64 rows):
//                               row m of the CTA's half -> lane m + 64 (n / 32), column n % 32.
//      tcgen05.mma.m256n64.cta2 (Layout A, each CTA holds 128 rows): row m -> lane m, column n.
//
// 3. Block-scale factors in Tensor Memory (PTX ISA, "Block Scaling for tcgen05.mma": "Scale Factor
//    A ID" / "Scale Factor B ID"), M = N = 128, scale-factor ID 0. scale_A is M x SF, scale_B is
//    SF x N (SF = 1 for .kind::mxf8f6f4 .scale_vec::1X, 2 for .kind::mxf4 .scale_vec::2X, 4 for
//    .kind::mxf4nvf4 .scale_vec::4X); each 8-bit factor sits in one byte of a 32-bit TMEM column:
//    row m of scale_A (column n of scale_B) -> lane m % 32, column m / 32, byte s (+ the ID), and
//    the whole 32-lane block is duplicated in all four lane subpartitions (shown once, lanes 0-31).
//    (The lane/column order is CUTLASS's SM100 scale-factor TMEM allocation.)
//    IDs: tcgen05.sf.mxf8f6f4.1x, tcgen05.sf.mxf4.2x, tcgen05.sf.mxf4nvf4.4x.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

std::vector<std::string> tcgen05_layout_ids();

std::optional<FragmentLayout> tcgen05_layout(std::string_view id);

}  // namespace tclens::viz
