// examples/exercise_mma.cu with a planted index bug, for tclens's GPU test and as a
// demonstration of the exercise report: the A fragment's registers a1 and a2 are loaded from
// each other's places.
//
//   --kernel examples/exercise_mma_planted_bug.cu (docs/your-kernel.md)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

__global__ void mma_16x8x8_kernel(float const* a, float const* b, float* c) {
    const int lane = threadIdx.x % 32;
    const int group = lane / 4;
    const int quad = lane % 4;
    // A: a0 (g, q), a1 (g + 8, q), a2 (g, q + 4), a3 (g + 8, q + 4).
    const uint32_t a0 = __float_as_uint(a[group * 8 + quad]);
    // PLANTED BUG: a1 and a2 read each other's element, so a[g][q + 4] goes to (g + 8, q) and
    // a[g + 8][q] to (g, q + 4); tclens reports exactly those 64 of the 128 A elements.
    const uint32_t a1 = __float_as_uint(a[group * 8 + quad + 4]);
    const uint32_t a2 = __float_as_uint(a[(group + 8) * 8 + quad]);
    const uint32_t a3 = __float_as_uint(a[(group + 8) * 8 + quad + 4]);
    // B: b0 (k = q, n = g), b1 (k = q + 4, n = g).
    const uint32_t b0 = __float_as_uint(b[quad * 8 + group]);
    const uint32_t b1 = __float_as_uint(b[(quad + 4) * 8 + group]);
    // C and D: c0 (g, 2q), c1 (g, 2q + 1), c2 (g + 8, 2q), c3 (g + 8, 2q + 1).
    float c0 = c[group * 8 + 2 * quad];
    float c1 = c[group * 8 + 2 * quad + 1];
    float c2 = c[(group + 8) * 8 + 2 * quad];
    float c3 = c[(group + 8) * 8 + 2 * quad + 1];
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    c[group * 8 + 2 * quad] = c0;
    c[group * 8 + 2 * quad + 1] = c1;
    c[(group + 8) * 8 + 2 * quad] = c2;
    c[(group + 8) * 8 + 2 * quad + 1] = c3;
}
