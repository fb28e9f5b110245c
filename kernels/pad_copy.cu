// Row copies (kernels/pad_copy.cuh): one launch of (x: column blocks, y: row blocks, z: copy)
// blocks of tx x ty threads; thread (x, y) of block (bx, by) copies column bx tx + x of row by ty
// + y, grid-stride over both. No division per element: the copies are memory-bound.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/pad_copy.cuh"

namespace tclens::kernels {
namespace {

constexpr int kMaxCopies = 2;
constexpr int kThreads = 256;
constexpr std::int64_t kMaxGrid = 65535;  // grid y and the x used here; grid-stride beyond

struct RowCopies {
    RowCopy copy[kMaxCopies];
};

template <typename Bits>
__global__ void copy_rows_kernel(RowCopies copies) {
    const RowCopy& job = copies.copy[blockIdx.z];
    const Bits* __restrict__ src = static_cast<const Bits*>(job.src);
    Bits* __restrict__ dst = static_cast<Bits*>(job.dst);
    const std::int64_t col0 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t col_stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t row = static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
         row < job.rows; row += static_cast<std::int64_t>(gridDim.y) * blockDim.y) {
        const Bits* from = src + row * job.src_cols;
        Bits* to = dst + row * job.dst_cols;
        for (std::int64_t col = col0; col < job.dst_cols; col += col_stride) {
            to[col] = col < job.src_cols ? from[col] : Bits{0};
        }
    }
}

template <typename Bits>
cudaError_t launch_copies(const RowCopies& copies, int count, cudaStream_t stream) {
    std::int64_t rows = 1;
    std::int64_t cols = 1;
    for (int i = 0; i < count; ++i) {
        rows = std::max(rows, copies.copy[i].rows);
        cols = std::max(cols, copies.copy[i].dst_cols);
    }
    // Narrow rows: several per block, so that short rows (K = 43) keep the threads busy.
    const int tx = static_cast<int>(std::min<std::int64_t>(kThreads, (cols + 31) / 32 * 32));
    const int ty = kThreads / tx;
    const dim3 block(static_cast<unsigned>(tx), static_cast<unsigned>(ty));
    const dim3 grid(static_cast<unsigned>(std::min((cols + tx - 1) / tx, kMaxGrid)),
                    static_cast<unsigned>(std::min((rows + ty - 1) / ty, kMaxGrid)),
                    static_cast<unsigned>(count));
    copy_rows_kernel<Bits><<<grid, block, 0, stream>>>(copies);
    return cudaGetLastError();
}

}  // namespace

cudaError_t copy_rows(const RowCopy* copies, int count, int elem_bytes, cudaStream_t stream) {
    if (count < 1 || count > kMaxCopies) return cudaErrorInvalidValue;
    RowCopies all;
    std::copy(copies, copies + count, all.copy);
    if (elem_bytes == 1) return launch_copies<std::uint8_t>(all, count, stream);
    if (elem_bytes == 2) return launch_copies<std::uint16_t>(all, count, stream);
    if (elem_bytes == 4) return launch_copies<std::uint32_t>(all, count, stream);
    return cudaErrorInvalidValue;
}

}  // namespace tclens::kernels
