#pragma once
// Device-side data for the runner: random inputs, poisoned outputs, f32 copies for references.

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/gemm.h"

namespace tclens::kernels {

// Fills `count` elements of `storage_type(precision)` at `dst` with values uniform in [-1, 1),
// element i a pure function of (seed, i) (a counter hash), rounded to the storage type. Zeros
// occur only where the rounding of a tiny value makes one, except in e4m3, which has none: its
// 3 mantissa bits round each value by up to 1/16 of itself (as a real FP8 cast does), and a
// value below half the smallest subnormal (2^-10, which would round to zero) becomes that
// subnormal, +-2^-9, with its sign.
cudaError_t fill_random(void* dst, std::int64_t count, Precision precision, std::uint64_t seed,
                        cudaStream_t stream);

// Sets `count` floats to a quiet NaN, so any element a kernel fails to write stays visible.
cudaError_t poison(float* dst, std::int64_t count, cudaStream_t stream);

// Adds the number of NaN floats among `count` at `src` to `*tally` (device memory), in stream
// order on `stream`, without waiting: a poisoned C's elements a kernel has not (yet) written.
cudaError_t add_nan_count(const float* src, std::int64_t count, unsigned long long* tally,
                          cudaStream_t stream);

// Which bytes of a guard zone (runner.h) differ from `expected`: how many, and the lowest and
// highest such offset (-1 when none).
struct ZoneChanges {
    std::int64_t changed = 0;
    std::int64_t lowest = -1;
    std::int64_t highest = -1;
};
// Counts on the device and waits for `stream`.
cudaError_t zone_changes(const void* zone, std::int64_t bytes, unsigned char expected,
                         ZoneChanges* out, cudaStream_t stream);

// dst[i] = float(src[i]) for a matrix stored as `precision` (a plain copy for f32 and tf32).
cudaError_t to_f32(float* dst, const void* src, std::int64_t count, Precision precision,
                   cudaStream_t stream);

// dst (K x N, row-major f32) = B of `problem` as gemm.h defines it, from B as stored for
// `precision`: to_f32 of the K x N matrix, or for a K-major B (b_is_k_major: B^T stored N x K)
// the transposed conversion, dst[k * N + n] = float(src[n * K + k]). What every reference
// (CPU fp64, cuBLAS SGEMM) reads, so they see the kernel's B whatever its layout.
cudaError_t b_to_f32_k_by_n(float* dst, const void* src, const GemmProblem& problem,
                            Precision precision, cudaStream_t stream);

}  // namespace tclens::kernels
