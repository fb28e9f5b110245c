#include "kernels/cpu_reference.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <thread>
#include <unordered_set>

namespace tclens::kernels {

namespace {

// Below this many multiply-adds the reference runs on the calling thread alone; above, its rows
// are shared among at most kMaxThreads threads (the sweep verifies thousands of shapes on the
// CPU, up to kCpuReferenceMaxWork each).
constexpr std::int64_t kParallelMinWork = std::int64_t{1} << 22;
constexpr unsigned kMaxThreads = 16;

// Rows first .. last - 1 of the reference, i-k-j order: the inner loop streams one row of B and
// one row of C. Each element's sum runs over k in order, whatever thread computes its row.
void reference_rows(const std::vector<float>& a, const std::vector<float>& b, const GemmProblem& p,
                    std::int64_t first, std::int64_t last, double* ref) {
    for (std::int64_t i = first; i < last; ++i) {
        double* row = ref + i * p.n;
        for (std::int64_t k = 0; k < p.k; ++k) {
            const double aik = a[static_cast<std::size_t>(i * p.k + k)];
            const float* brow = b.data() + k * p.n;
            for (std::int64_t j = 0; j < p.n; ++j) row[j] += aik * static_cast<double>(brow[j]);
        }
    }
}

}  // namespace

std::vector<double> reference_gemm(const std::vector<float>& a, const std::vector<float>& b,
                                   const GemmProblem& p) {
    std::vector<double> ref(static_cast<std::size_t>(p.m * p.n), 0.0);
    const std::int64_t work = p.m * p.n * p.k;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const auto threads = static_cast<std::int64_t>(
        work < kParallelMinWork ? 1u : std::min({cores, kMaxThreads, static_cast<unsigned>(p.m)}));
    std::vector<std::thread> workers;
    const std::int64_t per_thread = (p.m + threads - 1) / threads;
    for (std::int64_t first = per_thread; first < p.m; first += per_thread) {
        workers.emplace_back(reference_rows, std::cref(a), std::cref(b), std::cref(p), first,
                             std::min(p.m, first + per_thread), ref.data());
    }
    reference_rows(a, b, p, 0, std::min(p.m, per_thread), ref.data());
    for (std::thread& worker : workers) worker.join();
    return ref;
}

double reference_element(const std::vector<float>& a, const std::vector<float>& b,
                         const GemmProblem& p, std::int64_t i, std::int64_t j) {
    double sum = 0;
    for (std::int64_t k = 0; k < p.k; ++k) {
        sum += static_cast<double>(a[static_cast<std::size_t>(i * p.k + k)]) *
               static_cast<double>(b[static_cast<std::size_t>(k * p.n + j)]);
    }
    return sum;
}

namespace {

template <typename Ref>
ErrorSums sums_of(const std::vector<float>& c, const std::vector<Ref>& ref) {
    ErrorSums sums;
    sums.count = static_cast<std::int64_t>(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        const auto r = static_cast<double>(ref[i]);
        const double d = static_cast<double>(c[i]) - r;
        sums.nan |= std::isnan(c[i]);
        sums.diff_squares += d * d;
        sums.ref_squares += r * r;
    }
    return sums;
}

}  // namespace

double ErrorSums::relative_rms() const {
    if (nan || ref_squares == 0) return std::numeric_limits<double>::quiet_NaN();
    return std::sqrt(diff_squares / ref_squares);
}

double ErrorSums::reference_rms() const {
    return count == 0 ? 0.0 : std::sqrt(ref_squares / static_cast<double>(count));
}

ErrorSums error_sums(const std::vector<float>& c, const std::vector<double>& ref) {
    return sums_of(c, ref);
}

ErrorSums error_sums(const std::vector<float>& c, const std::vector<float>& ref) {
    return sums_of(c, ref);
}

double relative_rms_error(const std::vector<float>& c, const std::vector<double>& ref) {
    return error_sums(c, ref).relative_rms();
}

double relative_rms_error(const std::vector<float>& c, const std::vector<float>& ref) {
    return error_sums(c, ref).relative_rms();
}

std::vector<std::int64_t> sample_elements(const GemmProblem& p, int count, std::uint64_t seed) {
    const std::int64_t total = p.m * p.n;
    const std::int64_t wanted = std::min<std::int64_t>(count, total);
    std::vector<std::int64_t> picked;
    std::unordered_set<std::int64_t> seen;
    auto add = [&](std::int64_t index) {
        if (static_cast<std::int64_t>(picked.size()) < wanted && seen.insert(index).second) {
            picked.push_back(index);
        }
    };
    add(0);
    add(p.n - 1);
    add((p.m - 1) * p.n);
    add(total - 1);
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::int64_t> any(0, total - 1);
    while (static_cast<std::int64_t>(picked.size()) < wanted) add(any(random));
    return picked;
}

}  // namespace tclens::kernels
