// Zero-padded (or cropped) copies of row-major matrices (kernels/pad_copy.cuh): one thread per
// destination element, grid-stride; thread i -> dst row i / dst cols, column i % dst cols.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/pad_copy.cuh"

namespace tclens::kernels {
namespace {

template <typename Bits>
__global__ void copy_padded_kernel(const Bits* __restrict__ src, std::int64_t src_rows,
                                   std::int64_t src_cols, Bits* __restrict__ dst,
                                   std::int64_t dst_rows, std::int64_t dst_cols) {
    const std::int64_t count = dst_rows * dst_cols;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        const std::int64_t row = i / dst_cols;
        const std::int64_t col = i % dst_cols;
        dst[i] = row < src_rows && col < src_cols ? src[row * src_cols + col] : Bits{0};
    }
}

template <typename Bits>
cudaError_t launch_copy(const void* src, MatrixShape from, void* dst, MatrixShape to,
                        cudaStream_t stream) {
    constexpr int kThreads = 256;
    constexpr std::int64_t kMaxBlocks = 65535;  // grid-stride beyond
    const std::int64_t blocks = std::min((to.rows * to.cols + kThreads - 1) / kThreads, kMaxBlocks);
    copy_padded_kernel<Bits>
        <<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), kThreads, 0, stream>>>(
            static_cast<const Bits*>(src), from.rows, from.cols, static_cast<Bits*>(dst), to.rows,
            to.cols);
    return cudaGetLastError();
}

}  // namespace

cudaError_t copy_padded(const void* src, MatrixShape from, void* dst, MatrixShape to,
                        int elem_bytes, cudaStream_t stream) {
    if (elem_bytes == 1) return launch_copy<std::uint8_t>(src, from, dst, to, stream);
    if (elem_bytes == 2) return launch_copy<std::uint16_t>(src, from, dst, to, stream);
    if (elem_bytes == 4) return launch_copy<std::uint32_t>(src, from, dst, to, stream);
    return cudaErrorInvalidValue;
}

}  // namespace tclens::kernels
