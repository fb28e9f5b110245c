// A gamed launcher for tests/gpu/kernels/user_kernel_test.cpp: a correct f32 GEMM, launched on a
// non-blocking stream of its own, so the call returns before the work runs and a timer on the
// stream tclens gives it sees nothing. tclens refuses its times: "the launcher returned before
// its work ran: work left on another stream".
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
    static cudaStream_t own = nullptr;
    if (own == nullptr) cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
    gemm_kernel<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16), 0, own>>>(m, n, k, a, b, c);
}
