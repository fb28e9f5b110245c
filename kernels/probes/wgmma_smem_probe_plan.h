#pragma once
// Probes of the wgmma shared-memory descriptor views (viz/layouts/wgmma_smem_layouts.h): pure
// plans and decoding here, the launcher in wgmma_smem_probe.cu. wgmma.mma_async m64n64 reads A
// and B tiles that sit in shared memory exactly as the view places them (byte, and bit for b1),
// through the view's own descriptors (LBO, SBO, swizzle mode; f16 MN-major with imm-trans-a =
// imm-trans-b = 1), each tile on a 1024-byte boundary, scale-d = 0 (D = A * B).
//
// What is measured: for each element of a tile, which (row, col) of the operand the instruction
// read from that element's place. Every element of the tile under test holds a code, its index
// in the view's element list plus 1 (1 .. rows * cols); the other operand selects, so each D
// value is one code read by the hardware at a known coordinate:
//   B experiments (group g): A from registers (the RS form; A's register layout is the wgmma
//     register model of the type, verified by its own probe), A[m][k] = 1 where k = 64 g + m:
//     D[m][n] = B[64 g + m][n], for m < K - 64 g.
//   A experiments (group g): both from shared memory (the SS form), B laid out by the view with
//     B[k][n] = 1 where k = 64 g + n: D[m][n] = A[m][64 g + n], for n < K - 64 g.
// B is measured from registers first so that one error shared by both tile models (the same
// wrong order of K in A and B) cannot cancel out in the product.
// Codes above what a type holds exactly are sent one base-`base` digit per experiment: base 2048
// for f16 and tf32 (one digit), 16 for e4m3 (three), 2 for b1 (fifteen, the bits of the code;
// b1 products are popc(A AND B), so D is the selected bit). A code of 0 means that the hardware
// read a byte no element of the view occupies. D is read through the register model's D layout.
// K is 8 (tf32), 16 (f16), 32 (e4m3) or 256 (b1): one group except for b1 (four).
// Experiments: f16 and tf32 2, e4m3 6, b1 120; one warpgroup each.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/probes/fragment_probe.h"
#include "kernels/probes/wgmma_probe_plan.h"

namespace tclens::kernels {

constexpr int kWgmmaSmemN = 64;               // the views are m64n64 tiles
constexpr size_t kWgmmaSmemAlignment = 1024;  // the swizzle pattern repeats every 1024 bytes

struct WgmmaSmemExperiment {
    viz::Operand tested;  // A (SS form) or B (RS form)
    int group;            // selects K columns (A) or rows (B) 64 g .. 64 g + 63
    int digit;            // which base-`base` digit of the codes the tile holds
};

struct WgmmaSmemProbePlan {
    std::string error;
    WgmmaKind kind = WgmmaKind::F16;  // F16, Tf32, E4m3 or B1
    bool mn_major = false;            // imm-trans-a = imm-trans-b = 1
    int base = 0;
    int digits = 0;
    std::vector<WgmmaSmemExperiment> experiments;  // B ones first
    // Each tile's bytes, a multiple of kWgmmaSmemAlignment; one copy per experiment of each
    // (A experiments' register images and B experiments' A tiles stay zero).
    size_t a_tile_bytes = 0;
    size_t b_tile_bytes = 0;
    std::vector<uint8_t> a_tiles;
    std::vector<uint8_t> b_tiles;
    std::vector<uint32_t> a_registers;      // kWgmmaThreads * kWgmmaARegs words each
    std::vector<int32_t> a_from_registers;  // 1: the RS form (B experiments), 0: SS
    uint64_t a_descriptor = 0;              // the view's descriptors (start address 0): the
    uint64_t b_descriptor = 0;              // kernel adds each tile's address >> 4
};

// "wgmma.smem.e4m3.k.sw64" -> E4m3, mn_major false; false if `id` is no shared-memory view.
bool wgmma_smem_kind_of(std::string_view id, WgmmaKind& kind, bool& mn_major);

WgmmaSmemProbePlan plan_wgmma_smem_probe(const viz::FragmentLayout& model);

// `d`: each experiment's D register image (kWgmmaThreads * 32 words, the m64n64 register model's
// D layout). Returns the A and B tiles.
std::vector<MeasuredTile> decode_wgmma_smem_probe(const viz::FragmentLayout& model,
                                                  const std::vector<uint32_t>& d);

DeviceRun run_wgmma_smem_probe(const WgmmaSmemProbePlan& plan);  // wgmma_smem_probe.cu

}  // namespace tclens::kernels
