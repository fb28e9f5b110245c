// Form (3), a one-warp fragment exercise as in MIT 6.S894 lab 6's exercise_mma.cu: one
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 computing c += a * b on a (16 x 8),
// b (8 x 8) and c (16 x 8), row-major in global memory, launched with 32 threads. tclens runs it
// on inputs that name their own coordinates and reports, per element of A, B and C, whether it
// reached the register the instruction's layout expects (`tclens layout mma.m16n8k8.tf32`).
//
//   --kernel examples/exercise_mma.cu (docs/your-kernel.md)
//
// The file keeps its own host test (main), as the lab's does: tclens builds exercises with nvcc,
// which compiles host code too, and calls only the kernel.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

__global__ void mma_16x8x8_kernel(float const* a, float const* b, float* c) {
    const int lane = threadIdx.x % 32;
    const int group = lane / 4;
    const int quad = lane % 4;
    // A: a0 (g, q), a1 (g + 8, q), a2 (g, q + 4), a3 (g + 8, q + 4).
    const uint32_t a0 = __float_as_uint(a[group * 8 + quad]);
    const uint32_t a1 = __float_as_uint(a[(group + 8) * 8 + quad]);
    const uint32_t a2 = __float_as_uint(a[group * 8 + quad + 4]);
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

// The lab's kind of check: a = 1, b = 1, c = 0 gives 8 everywhere.
int main() {
    float host[16 * 8 + 8 * 8 + 16 * 8];
    for (int i = 0; i < 16 * 8 + 8 * 8; ++i) host[i] = 1.0f;
    for (int i = 16 * 8 + 8 * 8; i < 16 * 8 + 8 * 8 + 16 * 8; ++i) host[i] = 0.0f;
    float* device = nullptr;
    cudaMalloc(&device, sizeof host);
    cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice);
    mma_16x8x8_kernel<<<1, 32>>>(device, device + 16 * 8, device + 16 * 8 + 8 * 8);
    cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(device);
    std::printf("c[0][0] = %g (expected 8)\n", host[16 * 8 + 8 * 8]);
    return host[16 * 8 + 8 * 8] == 8.0f ? 0 : 1;
}
