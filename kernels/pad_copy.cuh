#pragma once
// Zero-padded copies of row-major matrices, on a stream: rung 14 (kernels/14_dispatch.cu) runs
// shapes whose N or K its configurations do not take on padded copies of A and B, and copies the
// M x N part of the padded C back.

#include <cuda_runtime.h>

#include <cstdint>

namespace tclens::kernels {

// The rows x cols of a dense row-major matrix.
struct MatrixShape {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
};

// On the device, dst[r][c] = src[r][c] where r < from.rows and c < from.cols, else 0, for every
// element of the to.rows x to.cols dst (a copy into a larger matrix pads with zeros, into a
// smaller one crops). elem_bytes 1, 2 or 4: the elements are copied as bits. Returns the launch
// error (cudaErrorInvalidValue for another elem_bytes).
cudaError_t copy_padded(const void* src, MatrixShape from, void* dst, MatrixShape to,
                        int elem_bytes, cudaStream_t stream);

}  // namespace tclens::kernels
