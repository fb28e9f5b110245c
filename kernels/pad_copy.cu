// Row copies (kernels/pad_copy.cuh): one launch; each copy owns its own run of blocks (copy 0
// the first blocks_of(0), copy 1 the rest), and each warp of them takes items (row, chunk of
// kChunkCols columns), grid-stride over its copy's rows x ceil(dst_cols / kChunkCols) items: lane l
// copies columns kChunkCols chunk + 32 j + l for j < kPerLane, every load issued before the first
// store, so that a thread has kPerLane loads in flight (HBM wants several MB in flight over the
// GPU; one 2-byte load a thread keeps about 1 MB). One division per item, none per element: the
// copies are memory-bound.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/pad_copy.cuh"

namespace tclens::kernels {
namespace {

constexpr int kMaxCopies = 2;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kPerLane = 8;
constexpr int kChunkCols = 32 * kPerLane;
constexpr std::int64_t kMaxBlocksPerCopy = 2048;  // grid-stride beyond

struct RowCopies {
    RowCopy copy[kMaxCopies];
    int first_block_of_second = 0;  // blocks below it copy copy[0]
};

__host__ __device__ std::int64_t chunks_of(const RowCopy& copy) {
    return (copy.dst_cols + kChunkCols - 1) / kChunkCols;
}

std::int64_t blocks_of(const RowCopy& copy) {
    const std::int64_t items = copy.rows * chunks_of(copy);
    return std::clamp<std::int64_t>((items + kWarps - 1) / kWarps, 1, kMaxBlocksPerCopy);
}

template <typename Bits>
__global__ void __launch_bounds__(kThreads) copy_rows_kernel(RowCopies copies) {
    const bool second = static_cast<int>(blockIdx.x) >= copies.first_block_of_second;
    const RowCopy job = second ? copies.copy[1] : copies.copy[0];
    const int block = static_cast<int>(blockIdx.x) - (second ? copies.first_block_of_second : 0);
    const int blocks = second ? static_cast<int>(gridDim.x) - copies.first_block_of_second
                              : copies.first_block_of_second;
    const Bits* __restrict__ src = static_cast<const Bits*>(job.src);
    Bits* __restrict__ dst = static_cast<Bits*>(job.dst);
    const std::int64_t chunks = chunks_of(job);
    const std::int64_t items = job.rows * chunks;
    const int lane = static_cast<int>(threadIdx.x % 32);
    for (std::int64_t item = std::int64_t{block} * kWarps + threadIdx.x / 32; item < items;
         item += std::int64_t{blocks} * kWarps) {
        const std::int64_t row = item / chunks;
        const std::int64_t first = (item - row * chunks) * kChunkCols + lane;
        const Bits* src_row = src + row * job.src_cols;
        Bits* dst_row = dst + row * job.dst_cols;
        Bits bits[kPerLane];
#pragma unroll
        for (int j = 0; j < kPerLane; ++j) {
            const std::int64_t col = first + 32 * j;
            bits[j] = col < job.src_cols ? src_row[col] : Bits{0};
        }
#pragma unroll
        for (int j = 0; j < kPerLane; ++j) {
            const std::int64_t col = first + 32 * j;
            if (col < job.dst_cols) dst_row[col] = bits[j];
        }
    }
}

template <typename Bits>
cudaError_t launch_copies(const RowCopies& copies, std::int64_t blocks, cudaStream_t stream) {
    copy_rows_kernel<Bits><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(copies);
    return cudaGetLastError();
}

}  // namespace

cudaError_t copy_rows(const RowCopy* copies, int count, int elem_bytes, cudaStream_t stream) {
    if (count < 1 || count > kMaxCopies) return cudaErrorInvalidValue;
    RowCopies all;
    all.copy[0] = copies[0];
    const std::int64_t first = blocks_of(copies[0]);
    all.first_block_of_second = static_cast<int>(first);
    const std::int64_t blocks = first + (count == 2 ? blocks_of(copies[1]) : 0);
    if (count == 2) all.copy[1] = copies[1];
    if (elem_bytes == 1) return launch_copies<std::uint8_t>(all, blocks, stream);
    if (elem_bytes == 2) return launch_copies<std::uint16_t>(all, blocks, stream);
    if (elem_bytes == 4) return launch_copies<std::uint32_t>(all, blocks, stream);
    return cudaErrorInvalidValue;
}

}  // namespace tclens::kernels
