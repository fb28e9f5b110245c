#pragma once
// fp64 references on the CPU, and the error measure the runner uses. Pure C++, no CUDA.

#include <cstdint>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::kernels {

// ref[i * N + j] = sum_k double(a[i * K + k]) * double(b[k * N + j]), row-major as in gemm.h,
// each sum in k order; rows shared among up to 16 threads for large problems (the same result).
std::vector<double> reference_gemm(const std::vector<float>& a, const std::vector<float>& b,
                                   const GemmProblem& problem);

// One element of the fp64 reference: row i, column j.
double reference_element(const std::vector<float>& a, const std::vector<float>& b,
                         const GemmProblem& problem, std::int64_t i, std::int64_t j);

// What one pass over c and its reference gives the verification: the relative RMS error and the
// reference's RMS (viz::element_tolerance's scale).
struct ErrorSums {
    double diff_squares = 0;  // sum (c - ref)^2
    double ref_squares = 0;   // sum ref^2
    std::int64_t count = 0;
    bool nan = false;  // some c is NaN

    // sqrt(diff_squares / ref_squares); NaN when `nan` or the reference is all zero.
    double relative_rms() const;
    // sqrt(ref_squares / count); 0 for no elements.
    double reference_rms() const;
};
// `c` and `ref` have the same length.
ErrorSums error_sums(const std::vector<float>& c, const std::vector<double>& ref);
ErrorSums error_sums(const std::vector<float>& c, const std::vector<float>& ref);

// sqrt(sum (c - ref)^2 / sum ref^2) over the given elements (error_sums(c, ref).relative_rms()):
// NaN when any c is NaN or the reference is all zero. `c` and `ref` have the same length.
double relative_rms_error(const std::vector<float>& c, const std::vector<double>& ref);
double relative_rms_error(const std::vector<float>& c, const std::vector<float>& ref);

// The flat indices of `count` elements of an M x N matrix to spot-check: its four corners,
// then pseudo-random ones (seeded), each at most once. Fewer when M * N is smaller.
std::vector<std::int64_t> sample_elements(const GemmProblem& problem, int count,
                                          std::uint64_t seed);

}  // namespace tclens::kernels
