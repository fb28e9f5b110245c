// A gamed launcher for tests/gpu/kernels/user_kernel_test.cpp: a correct f32 GEMM, skipped for a
// C it has filled before (the same output buffer, so "the result is already there"). tclens
// refuses its times: "timed launch 1 of N left ... elements of C unwritten: the launcher skipped
// work".
#include <cuda_runtime.h>

__global__ void gemm_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    const int row = blockIdx.y * 16 + threadIdx.y;
    const int col = blockIdx.x * 16 + threadIdx.x;
    if (row >= m || col >= n) return;
    float sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
}

void launch_gemm(int m, int n, int k, const float* a, const float* b, float* c) {
    static float* filled[64] = {};
    static int count = 0;
    for (int i = 0; i < count; ++i) {
        if (filled[i] == c) return;
    }
    if (count < 64) filled[count++] = c;
    gemm_kernel<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(m, n, k, a, b, c);
}
