#pragma once
// Row copies that widen or narrow dense row-major matrices, on a stream: rung 14 (kernels/
// 14_dispatch.cu) gives its configurations copies of A or B whose rows are padded to the lengths
// TMA's 16-byte strides need, and, where a configuration cannot store C's rows as they are,
// copies the C it wrote into padded rows back.

#include <cuda_runtime.h>

#include <cstdint>

namespace tclens::kernels {

// The rows x cols of a dense row-major matrix.
struct MatrixShape {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
};

// One copy: dst (rows x dst_cols, dense) gets src (rows x src_cols, dense) row by row, zeros in
// its columns past src_cols (a wider dst pads, a narrower one crops).
struct RowCopy {
    const void* src = nullptr;
    void* dst = nullptr;
    std::int64_t rows = 0;
    std::int64_t src_cols = 0;
    std::int64_t dst_cols = 0;
};

// Enqueues `count` (1 or 2) copies of elem_bytes-byte elements (1, 2 or 4, copied as bits) in
// one launch on `stream`. Returns the launch error (cudaErrorInvalidValue for another count or
// elem_bytes).
cudaError_t copy_rows(const RowCopy* copies, int count, int elem_bytes, cudaStream_t stream);

}  // namespace tclens::kernels
