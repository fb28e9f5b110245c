#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels/cpu_reference.h"
#include "kernels/cuda_util.h"
#include "kernels/fault_injection.h"
#include "kernels/gemm_data.h"
#include "kernels/ladder.h"
#include "kernels/registry.h"
#include "kernels/runner.h"

namespace tclens::kernels {
namespace {

constexpr int kMaxInputSets = 64;
constexpr int kL2Multiple = 3;           // input copies total at least this many L2 sizes
constexpr int kReferenceSamples = 1024;  // fp64 spot checks of the cuBLAS reference

std::uint64_t input_seed(std::uint64_t seed, int set, int operand) {
    return seed * 0x100000001b3ull + static_cast<std::uint64_t>(set) * 2 +
           static_cast<std::uint64_t>(operand);
}

// A device allocation of `bytes` with a guard zone of `guard` bytes on each side, both filled
// with kGuardByte (runner.h); guard 0 is a plain allocation. get() is the first byte after the
// front guard (256-byte aligned: guard zones are whole 256-byte pieces).
class GuardedBuffer {
  public:
    cudaError_t allocate(std::int64_t bytes, std::int64_t guard, cudaStream_t stream) {
        cudaError_t e = block_.allocate(bytes + 2 * guard);
        if (e != cudaSuccess || guard == 0) return e;
        guard_ = guard;
        bytes_ = bytes;
        e = cudaMemsetAsync(block_.get(), kGuardByte, static_cast<std::size_t>(guard), stream);
        if (e == cudaSuccess) {
            e = cudaMemsetAsync(static_cast<char*>(block_.get()) + guard + bytes, kGuardByte,
                                static_cast<std::size_t>(guard), stream);
        }
        return e;
    }
    void* get() const { return static_cast<char*>(block_.get()) + guard_; }
    float* as_float() const { return static_cast<float*>(get()); }
    // Appends one guard_violation_text line (after "; ") to `report` for each side whose guard
    // zone changed; returns the CUDA error of the check.
    cudaError_t check_guards(const std::string& name, std::string& report,
                             cudaStream_t stream) const {
        if (guard_ == 0) return cudaSuccess;
        for (const bool after : {false, true}) {
            const char* zone =
                static_cast<const char*>(block_.get()) + (after ? guard_ + bytes_ : 0);
            ZoneChanges changes;
            const cudaError_t e = zone_changes(zone, guard_, kGuardByte, &changes, stream);
            if (e != cudaSuccess) return e;
            if (changes.changed == 0) continue;
            // Distance from the buffer: before it, the highest offset is the nearest byte.
            const std::int64_t first = after ? changes.lowest : guard_ - 1 - changes.highest;
            if (!report.empty()) report += "; ";
            report += guard_violation_text(name, after, changes.changed, first, guard_);
        }
        return cudaSuccess;
    }

  private:
    DeviceBuffer block_;
    std::int64_t guard_ = 0;
    std::int64_t bytes_ = 0;
};

// One input copy: A (M x K) and B (K x N) in the kernel's storage type.
struct InputSet {
    GuardedBuffer a;
    GuardedBuffer b;
};

// Copies `count` floats at `f32_src` (device) to the host and waits for `stream`.
cudaError_t copy_to_host(std::vector<float>& out, const void* f32_src, std::int64_t count,
                         cudaStream_t stream) {
    out.resize(static_cast<std::size_t>(count));
    cudaError_t e = cudaMemcpyAsync(out.data(), f32_src, count * 4, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    return e;
}

// Copies `count` elements stored as `precision` to the host as floats (exact for every type).
cudaError_t download_f32(std::vector<float>& out, const void* src, std::int64_t count,
                         Precision precision, cudaStream_t stream) {
    if (storage_bytes(precision) == 4) return copy_to_host(out, src, count, stream);
    DeviceBuffer staging;
    cudaError_t e = staging.allocate(count * 4);
    if (e == cudaSuccess) e = to_f32(staging.as_float(), src, count, precision, stream);
    if (e == cudaSuccess) e = copy_to_host(out, staging.get(), count, stream);
    return e;
}

// B of `p` to the host as the K x N row-major floats the fp64 reference reads, whatever its
// stored layout (gemm_data.h, b_to_f32_k_by_n).
cudaError_t download_b_f32(std::vector<float>& out, const void* src, const GemmProblem& p,
                           Precision precision, cudaStream_t stream) {
    if (!b_is_k_major(precision)) return download_f32(out, src, p.k * p.n, precision, stream);
    DeviceBuffer staging;
    cudaError_t e = staging.allocate(p.k * p.n * 4);
    if (e == cudaSuccess) e = b_to_f32_k_by_n(staging.as_float(), src, p, precision, stream);
    if (e == cudaSuccess) e = copy_to_host(out, staging.get(), p.k * p.n, stream);
    return e;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

bool cancelled(const RunOptions& options) {
    return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
}

}  // namespace

double verification_bound(Precision precision, std::int64_t k) {
    constexpr double kDepthOfBase = 4096;
    const double growth = std::sqrt(std::max(1.0, static_cast<double>(k) / kDepthOfBase));
    switch (precision) {
        case Precision::kF32:
            return 2e-6 * growth;
        case Precision::kTF32:
            return 1e-3 * growth;
        case Precision::kF16:
        case Precision::kBF16:
            return 1e-2 * growth;
        case Precision::kE4M3:
            return kE4M3BoundAt4096 * growth;
    }
    return 0;
}

std::int64_t guard_zone_bytes(std::int64_t row_bytes) {
    constexpr std::int64_t kMin = 64 * 1024;
    constexpr std::int64_t kMax = 16 * 1024 * 1024;
    const std::int64_t wanted = std::clamp<std::int64_t>(256 * row_bytes, kMin, kMax);
    return (wanted + 255) / 256 * 256;
}

std::string guard_violation_text(const std::string& buffer, bool after, std::int64_t changed,
                                 std::int64_t first, std::int64_t guard_bytes) {
    return "wrote outside " + buffer + ": " + std::to_string(changed) + " bytes in the " +
           std::to_string(guard_bytes) + "-byte guard zone " +
           (after ? "after its end (nearest: " + std::to_string(first) + " bytes past the end)"
                  : "before its start (nearest: " + std::to_string(first) +
                        " bytes before the start)");
}

std::string timed_launches_caught(const std::vector<std::uint64_t>& unwritten_after_launch,
                                  std::int64_t unwritten_when_idle, std::int64_t c_elements,
                                  double last_error, double bound) {
    const std::string runs = std::to_string(unwritten_after_launch.size());
    std::size_t first = 0;
    while (first < unwritten_after_launch.size() && unwritten_after_launch[first] == 0) ++first;
    const std::string launch = std::to_string(first + 1) + " of " + runs;
    if (unwritten_when_idle > 0) {
        const std::uint64_t elements = first < unwritten_after_launch.size()
                                           ? unwritten_after_launch[first]
                                           : static_cast<std::uint64_t>(unwritten_when_idle);
        return "timed launch " + launch + " left " + std::to_string(elements) + " of " +
               std::to_string(c_elements) +
               " elements of C unwritten: the launcher skipped work (done on an earlier call, or "
               "for a C it had filled before)";
    }
    if (first < unwritten_after_launch.size()) {
        return "the launcher returned before its work ran: work left on another stream (C was not "
               "written when timed launch " +
               launch + " returned; it was once the GPU was idle)";
    }
    if (!(last_error <= bound)) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "the last timed launch's C is wrong: rel. RMS error %.1e > bound %.0e "
                      "against the reference of its inputs",
                      last_error, bound);
        return text;
    }
    return "";
}

void RunResult::refuse(const std::string& why) {
    refused = why;
    median_ms = min_ms = max_ms = tflops = 0;
}

std::string run_status(const RunResult& r) {
    if (!r.skipped.empty()) return "skipped: " + r.skipped;
    if (!r.error.empty()) return "error: " + r.error;
    char text[200];
    if (!r.check.out_of_bounds.empty()) return "NOT VERIFIED: " + r.check.out_of_bounds;
    if (!r.check.passed) {
        if (r.check.nan_count > 0) {
            std::snprintf(text, sizeof text, "NOT VERIFIED: %lld elements not written (NaN)",
                          static_cast<long long>(r.check.nan_count));
        } else {
            std::snprintf(text, sizeof text, "NOT VERIFIED: rel. RMS error %.2e > bound %.0e vs %s",
                          r.check.rel_rms_error, r.check.bound, r.check.reference.c_str());
        }
        return text;
    }
    if (!r.refused.empty()) return "REFUSED: " + r.refused;
    if (r.timed_runs <= 0) return "NOT TIMED: verified only";
    return "ok";
}

GemmRunner::GemmRunner() {
    if (injected_fault() == Fault::kNoGpu) {
        init_error_ = "no usable GPU: " + fault_setting(Fault::kNoGpu) + " hides every GPU";
        return;
    }
    int device = 0;
    cudaError_t e = cudaGetDevice(&device);
    int major = 0;
    int minor = 0;
    int l2 = 0;
    int smem_optin = 0;
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        init_error_ = "no usable GPU: " + cuda_text(e);
        return;
    }
    limits_ = DeviceLimits{major * 10 + minor, smem_optin};
    l2_bytes_ = l2;
}

GemmRunner::~GemmRunner() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

RunResult GemmRunner::run(const KernelDescriptor& kernel, const GemmProblem& problem,
                          const RunOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    auto ms_since = [](std::chrono::steady_clock::time_point start) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    };
    RunResult result;
    result.kernel_id = kernel.id;
    result.precision = kernel.precision;
    result.problem = problem;
    result.check.bound = verification_bound(kernel.precision, problem.k);
    // An injected launch failure (fault_injection.h) comes before the device checks, so that it
    // reads the same on a machine without a GPU.
    if (injected_fault() == Fault::kLaunchFailure) {
        result.error = cuda_text(cudaErrorLaunchFailure) +
                       " (injected: " + fault_setting(Fault::kLaunchFailure) + ")";
        return result;
    }
    if (!init_error_.empty()) {
        result.error = init_error_;
        return result;
    }
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (e != cudaSuccess) {
        result.error = cuda_text(e);
        return result;
    }
    DeviceLimits limits = limits_;
    limits.free_memory_bytes = static_cast<std::int64_t>(free_bytes);
    result.skipped = why_not_runnable(kernel, problem, limits);
    if (!result.skipped.empty()) return result;

    const GemmProblem& p = problem;
    const std::int64_t a_count = p.m * p.k;
    const std::int64_t b_count = p.k * p.n;
    const std::int64_t c_count = p.m * p.n;
    const int elem = storage_bytes(kernel.precision);
    const bool cpu_reference = p.m * p.n * p.k <= kCpuReferenceMaxWork;
    const std::int64_t set_bytes = (a_count + b_count) * elem;
    // C, and for the cuBLAS reference its output plus f32 copies of 16-bit inputs.
    const std::int64_t fixed_bytes = run_memory_bytes(kernel, p) - set_bytes;
    const auto usable =
        static_cast<std::int64_t>(static_cast<double>(free_bytes) * kUsableFreeMemory);
    const std::int64_t wanted_sets = (kL2Multiple * l2_bytes_ + set_bytes - 1) / set_bytes;
    const std::int64_t fitting_sets = (usable - fixed_bytes) / set_bytes;
    const int sets = static_cast<int>(
        std::clamp<std::int64_t>(std::min(wanted_sets, fitting_sets), 1, kMaxInputSets));
    result.input_sets = sets;

    auto fail = [&](cudaError_t error) {
        result.error = cuda_text(error);
        return result;
    };

    // Input copy 0 (the one verified) and C carry guard zones; the other copies do not.
    const std::int64_t guard_a = guard_zone_bytes(p.k * elem);
    const std::int64_t guard_b = guard_zone_bytes(b_row_length(kernel.precision, p) * elem);
    const std::int64_t guard_c = guard_zone_bytes(p.n * 4);
    std::vector<InputSet> inputs(static_cast<std::size_t>(sets));
    for (int s = 0; s < sets; ++s) {
        InputSet& in = inputs[static_cast<std::size_t>(s)];
        if ((e = in.a.allocate(a_count * elem, s == 0 ? guard_a : 0, stream_)) != cudaSuccess)
            return fail(e);
        if ((e = in.b.allocate(b_count * elem, s == 0 ? guard_b : 0, stream_)) != cudaSuccess)
            return fail(e);
        if ((e = fill_random(in.a.get(), a_count, kernel.precision, input_seed(options.seed, s, 0),
                             stream_)) != cudaSuccess)
            return fail(e);
        if ((e = fill_random(in.b.get(), b_count, kernel.precision, input_seed(options.seed, s, 1),
                             stream_)) != cudaSuccess)
            return fail(e);
    }
    GuardedBuffer c;
    if ((e = c.allocate(c_count * 4, guard_c, stream_)) != cudaSuccess) return fail(e);
    auto operands = [&](int set) {
        const InputSet& in = inputs[static_cast<std::size_t>(set % sets)];
        return GemmOperands{in.a.get(), in.b.get(), c.as_float(), p};
    };

    // A user's host launcher runs on the legacy default stream: it is launched and timed there,
    // after everything of stream_ (inputs, poison) has finished.
    const cudaStream_t kernel_stream =
        kernel.launches_on_legacy_stream ? cudaStreamLegacy : stream_;

    // 3. Verify: poisoned C, one run, guard zones, compare with the reference.
    if ((e = poison(c.as_float(), c_count, stream_)) != cudaSuccess) return fail(e);
    if (kernel_stream != stream_ && (e = cudaStreamSynchronize(stream_)) != cudaSuccess)
        return fail(e);
    if ((e = kernel.launch(operands(0), kernel_stream)) != cudaSuccess) return fail(e);
    if ((e = cudaStreamSynchronize(kernel_stream)) != cudaSuccess) return fail(e);
    if ((e = inputs[0].a.check_guards("A", result.check.out_of_bounds, stream_)) != cudaSuccess ||
        (e = inputs[0].b.check_guards("B", result.check.out_of_bounds, stream_)) != cudaSuccess ||
        (e = c.check_guards("C", result.check.out_of_bounds, stream_)) != cudaSuccess)
        return fail(e);

    std::vector<float> host_c(static_cast<std::size_t>(c_count));
    if ((e = download_f32(host_c, c.get(), c_count, Precision::kF32, stream_)) != cudaSuccess)
        return fail(e);
    std::vector<float> host_a;
    std::vector<float> host_b;
    if ((e = download_f32(host_a, inputs[0].a.get(), a_count, kernel.precision, stream_)) !=
        cudaSuccess)
        return fail(e);
    if ((e = download_b_f32(host_b, inputs[0].b.get(), p, kernel.precision, stream_)) !=
        cudaSuccess)
        return fail(e);
    result.check.nan_count =
        std::count_if(host_c.begin(), host_c.end(), [](float v) { return std::isnan(v); });

    std::vector<double> cpu_ref;
    std::vector<float> host_ref;
    if (cpu_reference) {
        result.check.reference = "cpu.fp64";
        cpu_ref = reference_gemm(host_a, host_b, p);
        result.check.rel_rms_error = relative_rms_error(host_c, cpu_ref);
    } else {
        // cuBLAS FP32 without tensor cores on f32 copies of the same inputs, spot-checked in fp64.
        const KernelDescriptor sgemm = cublas_kernel(Precision::kF32);
        result.check.reference = sgemm.id;
        DeviceBuffer ref;
        DeviceBuffer a32;
        DeviceBuffer b32;
        if ((e = ref.allocate(c_count * 4)) != cudaSuccess) return fail(e);
        GemmOperands ref_operands{inputs[0].a.get(), inputs[0].b.get(), ref.as_float(), p};
        if (elem != 4) {
            if ((e = a32.allocate(a_count * 4)) != cudaSuccess) return fail(e);
            if ((e = b32.allocate(b_count * 4)) != cudaSuccess) return fail(e);
            if ((e = to_f32(a32.as_float(), inputs[0].a.get(), a_count, kernel.precision,
                            stream_)) != cudaSuccess)
                return fail(e);
            if ((e = b_to_f32_k_by_n(b32.as_float(), inputs[0].b.get(), p, kernel.precision,
                                     stream_)) != cudaSuccess)
                return fail(e);
            ref_operands.a = a32.get();
            ref_operands.b = b32.get();
        }
        if ((e = sgemm.launch(ref_operands, stream_)) != cudaSuccess) return fail(e);
        if ((e = download_f32(host_ref, ref.get(), c_count, Precision::kF32, stream_)) !=
            cudaSuccess)
            return fail(e);
        result.check.rel_rms_error = relative_rms_error(host_c, host_ref);

        std::vector<float> sampled_ref;
        std::vector<double> sampled_exact;
        for (const std::int64_t index : sample_elements(p, kReferenceSamples, options.seed)) {
            sampled_ref.push_back(host_ref[static_cast<std::size_t>(index)]);
            sampled_exact.push_back(reference_element(host_a, host_b, p, index / p.n, index % p.n));
        }
        result.check.reference_rel_rms = relative_rms_error(sampled_ref, sampled_exact);
    }
    // The reference only needs to be a sane f32 result: its error estimate comes from a sample
    // of elements and spreads (cuBLAS FP32 at 8192^3 read 1.7e-6 against a bound of 2.8e-6).
    constexpr double kReferenceSlack = 4;
    const bool reference_ok =
        cpu_reference || result.check.reference_rel_rms <=
                             kReferenceSlack * verification_bound(Precision::kF32, p.k);
    result.check.passed = reference_ok && result.check.nan_count == 0 &&
                          result.check.out_of_bounds.empty() &&
                          result.check.rel_rms_error <= result.check.bound;
    if (!result.check.passed) {
        // Where C is wrong: tolerance kErrorMapSlack x bound x RMS(reference).
        double sum_squares = 0;
        for (std::int64_t i = 0; i < c_count; ++i) {
            const double v = cpu_reference ? cpu_ref[static_cast<std::size_t>(i)]
                                           : host_ref[static_cast<std::size_t>(i)];
            sum_squares += v * v;
        }
        const double rms = std::sqrt(sum_squares / static_cast<double>(c_count));
        const double tolerance = viz::kErrorMapSlack * result.check.bound * rms;
        // Cells of the tile that ran, where the rung picks one per problem (rung 11).
        TileShape tile = kernel.block_tile;
        int device = 0;
        int sms = 0;
        if (kernel.for_problem && cudaGetDevice(&device) == cudaSuccess &&
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess) {
            tile = kernel.for_problem(p, sms).block_tile;
        }
        const viz::ErrorCellShape shape = viz::error_cell_shape(p.m, p.n, tile.m, tile.n);
        result.check.error_map =
            cpu_reference
                ? viz::build_error_map(host_c.data(), cpu_ref.data(), p.m, p.n, tolerance, shape)
                : viz::build_error_map(host_c.data(), host_ref.data(), p.m, p.n, tolerance, shape);
    }
    result.verify_ms = ms_since(started);
    if (!result.check.passed || !options.time) return result;

    // 4. Time: warm-up, then each launch between two events, inputs rotating. A kernel of yours
    // is checked as well (runner.h): C poisoned before each launch and its NaNs counted after it,
    // outside the events; its last launch reads input set 0, whose reference is known.
    const bool checked = kernel.checked_timing;
    const auto timing_started = std::chrono::steady_clock::now();
    for (int i = 0; i < options.warmup_runs; ++i) {
        if (cancelled(options)) {
            result.error = "cancelled";
            return result;
        }
        if ((e = kernel.launch(operands(i), kernel_stream)) != cudaSuccess) return fail(e);
    }
    const int runs = std::max(1, options.timed_runs);
    // The input set of timed launch r: rotating on from the warm-up's; checked, ending at set 0.
    const auto timed_set = [&](int r) {
        return checked ? (r + sets - (runs - 1) % sets) % sets : options.warmup_runs + r;
    };
    DeviceBuffer unwritten;  // per timed launch: C's NaNs right after it (checked only)
    if (checked &&
        ((e = unwritten.allocate(8 * (runs + 1))) != cudaSuccess ||
         (e = cudaMemsetAsync(unwritten.get(), 0, 8 * (runs + 1), kernel_stream)) != cudaSuccess)) {
        return fail(e);
    }
    auto* tallies = static_cast<unsigned long long*>(unwritten.get());
    std::vector<cudaEvent_t> events(static_cast<std::size_t>(2 * runs), nullptr);
    auto destroy_events = [&] {
        for (cudaEvent_t event : events) {
            if (event != nullptr) cudaEventDestroy(event);
        }
    };
    for (cudaEvent_t& event : events) {
        if ((e = cudaEventCreate(&event)) != cudaSuccess) {
            destroy_events();
            return fail(e);
        }
    }
    int recorded = 0;
    for (; recorded < runs && e == cudaSuccess && !cancelled(options); ++recorded) {
        if (checked) e = poison(c.as_float(), c_count, kernel_stream);
        if (e == cudaSuccess) e = cudaEventRecord(events[2 * recorded], kernel_stream);
        if (e == cudaSuccess) e = kernel.launch(operands(timed_set(recorded)), kernel_stream);
        if (e == cudaSuccess) e = cudaEventRecord(events[2 * recorded + 1], kernel_stream);
        if (e == cudaSuccess && checked) {
            e = add_nan_count(c.as_float(), c_count, tallies + recorded, kernel_stream);
        }
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(kernel_stream);
    std::vector<double> times;
    for (int r = 0; r < recorded && e == cudaSuccess; ++r) {
        float ms = 0;
        e = cudaEventElapsedTime(&ms, events[2 * r], events[2 * r + 1]);
        times.push_back(ms);
    }
    destroy_events();
    std::string caught;
    if (e == cudaSuccess && checked && recorded == runs) {
        // Once the whole GPU is idle: C's NaNs again (work another stream held back has landed),
        // and the last launch's C against the reference of set 0.
        std::vector<std::uint64_t> after_launch(static_cast<std::size_t>(runs) + 1);
        std::vector<float> last_c;
        e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = add_nan_count(c.as_float(), c_count, tallies + runs, stream_);
        if (e == cudaSuccess) {
            e = cudaMemcpyAsync(after_launch.data(), tallies, 8 * after_launch.size(),
                                cudaMemcpyDeviceToHost, stream_);
        }
        if (e == cudaSuccess) e = download_f32(last_c, c.get(), c_count, Precision::kF32, stream_);
        if (e == cudaSuccess) {
            const auto when_idle = static_cast<std::int64_t>(after_launch.back());
            after_launch.pop_back();
            const double last_error = cpu_reference ? relative_rms_error(last_c, cpu_ref)
                                                    : relative_rms_error(last_c, host_ref);
            caught = timed_launches_caught(after_launch, when_idle, c_count, last_error,
                                           result.check.bound);
        }
    }
    if (e != cudaSuccess) return fail(e);
    if (recorded < runs) {
        result.error = "cancelled";
        return result;
    }
    result.timed_runs = runs;
    result.median_ms = median(times);
    result.min_ms = *std::min_element(times.begin(), times.end());
    result.max_ms = *std::max_element(times.begin(), times.end());
    result.tflops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) *
                    static_cast<double>(p.k) / (result.median_ms * 1e-3) / 1e12;
    result.time_ms = ms_since(timing_started);
    if (!caught.empty()) result.refuse(caught);
    return result;
}

}  // namespace tclens::kernels
