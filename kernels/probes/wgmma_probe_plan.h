#pragma once
// wgmma probe plans (pure) and their launcher (wgmma_probe.cu): wgmma.mma_async with A from
// registers (the RS form) for every input type, N = 8..256, one warpgroup (128 threads) per
// experiment, scale-d = 0 (D = A * B).
//
// B (K x N) lives in shared memory in the canonical no-swizzle K-major layout: core matrices of 8
// rows of N, each 16 contiguous bytes of K, core matrix (k-chunk, n / 8) at byte
// (n / 8) * SBO + k-chunk * LBO with LBO = 128 (the next 16 bytes of K) and SBO = 256 (the next 8
// rows of N). Every type fills 32 bytes of K per row (K * bits = 256), so a tile is 32 * N bytes.
// b1 elements are bits, element k of a row at bit k % 8 of its byte (low bit first).
//
// Experiments: every type but b1: 0 is the D experiment (the product design, fragment_probe.h),
// then one per A slot (A one-hot, B[k][n] = digit(k, n)). b1 (AND only: wgmma has no XOR) cannot
// hold S*m + n + 1 in a count of at most 256, so it has two D experiments, "rows" (A[m][k] = 1
// for k <= m, B[k][n] = 1 for k < 64: D = m + 1) and "columns" (A = 1, B[k][n] = 1 for k <= n:
// D = n + 1), and two per A slot, "bits" (B[k][n] = bit n of k for n < 8) and "row" (B all 1s).
// Experiment e uses B tile tile_index[e].

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/probes/fragment_probe.h"

namespace tclens::kernels {

enum class WgmmaKind { F16, Tf32, E4m3, E5m2, S8, U8, B1 };

constexpr int kWgmmaThreads = 128;
constexpr int kWgmmaM = 64;
// The largest integer FP8 wgmma accumulates exactly: its f32 accumulator keeps 14 significant
// bits (H100: 16385 came back as 16384, tests/gpu/results/2026-11-25_h100_session7/atlas/).
constexpr int kFp8AccumulatorExact = 1 << 14;
constexpr int kWgmmaARegs = 4;
constexpr int kWgmmaRowBytes = 32;            // bytes of K per row of B, every type
constexpr uint32_t kWgmmaLeadingBytes = 128;  // LBO: next core matrix along K
constexpr uint32_t kWgmmaStrideBytes = 256;   // SBO: next 8 rows along N

// (k, n) of a B whose elements are `bits` wide -> bit offset in the shared-memory tile.
// f16: B[9][10] -> ((1 * 256 + 1 * 128) + 2 * 16 + 2) * 8 = 3344 (element 209)
size_t wgmma_b_bit_offset(int k, int n, int bits);

// The 64-bit matrix descriptor: start address, LBO and SBO each encoded as (x & 0x3FFFF) >> 4
// in bits 0-13, 16-29 and 32-45; base offset 0 and swizzle mode 0 (none).
uint64_t wgmma_descriptor(uint32_t smem_address, uint32_t leading_bytes, uint32_t stride_bytes);

// "wgmma.m64n96k32.e4m3" -> E4m3; false if `id` is not a wgmma register-fragment ID.
bool wgmma_kind_of(std::string_view id, WgmmaKind& kind);

ElementType wgmma_input_type(WgmmaKind kind);
ElementType wgmma_accumulator_type(WgmmaKind kind);  // F32 or S32

struct WgmmaProbePlan {
    std::string error;
    WgmmaKind kind = WgmmaKind::F16;
    int n = 0;
    int experiments = 0;
    std::vector<uint32_t> a;       // kWgmmaThreads * kWgmmaARegs words per experiment
    std::vector<uint8_t> b_tiles;  // kWgmmaRowBytes * n bytes per tile
    std::vector<int32_t> tile_index;
    uint64_t descriptor_template = 0;  // wgmma_descriptor(0, ...): the kernel adds the address
};

WgmmaProbePlan plan_wgmma_probe(const viz::FragmentLayout& model);

// `d`: each experiment's D register image (kWgmmaThreads * n / 2 words). Returns A and D.
std::vector<MeasuredOperand> decode_wgmma_probe(const viz::FragmentLayout& model,
                                                const std::vector<uint32_t>& d);

DeviceRun run_wgmma_probe(const WgmmaProbePlan& plan);  // wgmma_probe.cu

}  // namespace tclens::kernels
