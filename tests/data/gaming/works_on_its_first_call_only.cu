// A gamed launcher for tests/gpu/kernels/user_kernel_test.cpp: a correct f32 GEMM on its first
// call (tclens's verification) and nothing on every later one. tclens refuses its times: "timed
// launch 1 of N left ... elements of C unwritten: the launcher skipped work".
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
    static bool done = false;
    if (done) return;
    done = true;
    gemm_kernel<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(m, n, k, a, b, c);
}
