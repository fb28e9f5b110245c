// Form (1), a host launcher in the style of MIT 6.S894 lab 6's matmul_3.cu: tclens finds
// launch_matmul_tensor (sizes, then pointers, then a workspace) and its get_workspace_size,
// builds the file with nvcc into a shared library and calls it like a ladder rung.
//
//   --kernel examples/matmul_tensor.cu (bench, profile, record, kernels; docs/your-kernel.md)
//
// Input type: float A and B on TF32 tensor cores (the file mentions tf32, so tclens verifies it
// against the tf32 bound; `examples/matmul_tensor.cu:f32` would hold it to the f32 one).
//
// The kernel: one block of 4 warps computes a 64 x 64 tile of C; warp w owns rows 16w..16w+15
// of it, eight m16n8 tiles side by side. Each K step of 8 stages a 64 x 8 tile of A and an
// 8 x 64 tile of B in shared memory (zero outside the matrices, so any M, N, K works), then
// every warp issues 8 mma.sync.m16n8k8 with its A fragment and each B fragment. Simple, not
// fast: it is here to show the form, not to win.
#include <cuda_runtime.h>

#include <cstdint>

namespace matmul_tensor {

constexpr int kTile = 64;  // block tile: 64 x 64 of C
constexpr int kStep = 8;   // K per mma

// Round to TF32 (10 mantissa bits), as the tensor cores read it.
__device__ inline uint32_t to_tf32(float x) {
    uint32_t bits;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
    return bits;
}

__global__ void __launch_bounds__(128)
    matmul_tensor_kernel(int32_t size_i, int32_t size_j, int32_t size_k, float const* a,
                         float const* b, float* c) {
    // Padded rows keep the fragment reads below free of bank conflicts.
    __shared__ float a_tile[kTile][kStep + 4];
    __shared__ float b_tile[kStep][kTile + 8];
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int group = lane / 4;  // the mma layouts' groupID
    const int quad = lane % 4;   // threadID_in_group
    const int row0 = blockIdx.y * kTile;
    const int col0 = blockIdx.x * kTile;
    float acc[8][4] = {};

    for (int k0 = 0; k0 < size_k; k0 += kStep) {
        for (int i = threadIdx.x; i < kTile * kStep; i += blockDim.x) {
            const int r = i / kStep, kk = i % kStep;
            const int ar = row0 + r, ak = k0 + kk;
            a_tile[r][kk] = (ar < size_i && ak < size_k) ? a[int64_t(ar) * size_k + ak] : 0.0f;
            const int bk = k0 + i / kTile, bc = col0 + i % kTile;
            b_tile[i / kTile][i % kTile] =
                (bk < size_k && bc < size_j) ? b[int64_t(bk) * size_j + bc] : 0.0f;
        }
        __syncthreads();
        // A fragment (mma.m16n8k8.tf32): a0 (g, q), a1 (g + 8, q), a2 (g, q + 4), a3 (g + 8, q +
        // 4).
        const int wr = warp * 16;
        const uint32_t a0 = to_tf32(a_tile[wr + group][quad]);
        const uint32_t a1 = to_tf32(a_tile[wr + group + 8][quad]);
        const uint32_t a2 = to_tf32(a_tile[wr + group][quad + 4]);
        const uint32_t a3 = to_tf32(a_tile[wr + group + 8][quad + 4]);
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            // B fragment: b0 (k = q, n = g), b1 (k = q + 4, n = g).
            const uint32_t b0 = to_tf32(b_tile[quad][j * 8 + group]);
            const uint32_t b1 = to_tf32(b_tile[quad + 4][j * 8 + group]);
            asm volatile(
                "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
        __syncthreads();
    }
    // C fragment: c0 (g, 2q), c1 (g, 2q + 1), c2 (g + 8, 2q), c3 (g + 8, 2q + 1).
#pragma unroll
    for (int j = 0; j < 8; ++j) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int row = row0 + warp * 16 + group + 8 * (r / 2);
            const int col = col0 + j * 8 + 2 * quad + r % 2;
            if (row < size_i && col < size_j) c[int64_t(row) * size_j + col] = acc[j][r];
        }
    }
}

size_t get_workspace_size(int32_t size_i, int32_t size_j, int32_t size_k) { return 0; }

void launch_matmul_tensor(int32_t size_i, int32_t size_j, int32_t size_k, float const* a,
                          float const* b, float* c, void* workspace) {
    const dim3 grid((size_j + kTile - 1) / kTile, (size_i + kTile - 1) / kTile);
    matmul_tensor_kernel<<<grid, 128>>>(size_i, size_j, size_k, a, b, c);
}

}  // namespace matmul_tensor
