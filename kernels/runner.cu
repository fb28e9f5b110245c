#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "kernels/cpu_reference.h"
#include "kernels/cuda_util.h"
#include "kernels/fault_injection.h"
#include "kernels/gemm_data.h"
#include "kernels/gpu_registry.h"
#include "kernels/registry.h"
#include "kernels/runner.h"
#include "kernels/stream_gate.h"
#include "viz/fragment_bug.h"

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

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// How many input copies a run rotates through: enough to total kL2Multiple L2 sizes, no more
// than fit in kUsableFreeMemory of `free_bytes` beside C and the reference's buffers, and
// 1 .. kMaxInputSets.
int input_set_count(const KernelDescriptor& kernel, const GemmProblem& p, std::size_t free_bytes,
                    std::int64_t l2_bytes) {
    const std::int64_t set_bytes = (p.m * p.k + p.k * p.n) * storage_bytes(kernel.precision);
    // C, and for the cuBLAS reference its output plus f32 copies of 16-bit inputs.
    const std::int64_t fixed_bytes = run_memory_bytes(kernel, p) - set_bytes;
    const auto usable =
        static_cast<std::int64_t>(static_cast<double>(free_bytes) * kUsableFreeMemory);
    const std::int64_t wanted_sets = (kL2Multiple * l2_bytes + set_bytes - 1) / set_bytes;
    const std::int64_t fitting_sets = (usable - fixed_bytes) / set_bytes;
    return static_cast<int>(
        std::clamp<std::int64_t>(std::min(wanted_sets, fitting_sets), 1, kMaxInputSets));
}

// The device side of a run: the input copies, filled from the seed, and C. Copy 0 (the one
// verified) and C carry guard zones; the other copies do not.
struct RunBuffers {
    GemmProblem problem;
    std::vector<InputSet> inputs;
    GuardedBuffer c;

    std::int64_t c_count() const { return problem.m * problem.n; }

    // The operands of a launch that reads input copy `set` (modulo the copies).
    GemmOperands operands(int set) const {
        const InputSet& in = inputs[static_cast<std::size_t>(set) % inputs.size()];
        return GemmOperands{in.a.get(), in.b.get(), c.as_float(), problem};
    }

    // Allocates and fills `sets` copies of A and B as `precision`, then allocates C.
    cudaError_t allocate(Precision precision, const GemmProblem& p, int sets, std::uint64_t seed,
                         cudaStream_t stream) {
        problem = p;
        const int elem = storage_bytes(precision);
        const std::int64_t guard_a = guard_zone_bytes(p.k * elem);
        const std::int64_t guard_b = guard_zone_bytes(b_row_length(precision, p) * elem);
        inputs = std::vector<InputSet>(static_cast<std::size_t>(sets));
        cudaError_t e = cudaSuccess;
        for (int s = 0; s < sets && e == cudaSuccess; ++s) {
            InputSet& in = inputs[static_cast<std::size_t>(s)];
            e = in.a.allocate(p.m * p.k * elem, s == 0 ? guard_a : 0, stream);
            if (e == cudaSuccess) e = in.b.allocate(p.k * p.n * elem, s == 0 ? guard_b : 0, stream);
            if (e == cudaSuccess) {
                e = fill_random(in.a.get(), p.m * p.k, precision, input_seed(seed, s, 0), stream);
            }
            if (e == cudaSuccess) {
                e = fill_random(in.b.get(), p.k * p.n, precision, input_seed(seed, s, 1), stream);
            }
        }
        if (e == cudaSuccess) e = c.allocate(c_count() * 4, guard_zone_bytes(p.n * 4), stream);
        return e;
    }

    // Appends a guard_violation_text line for each guard zone of A, B (copy 0) or C a kernel
    // wrote into.
    cudaError_t check_guards(std::string& report, cudaStream_t stream) const {
        cudaError_t e = inputs[0].a.check_guards("A", report, stream);
        if (e == cudaSuccess) e = inputs[0].b.check_guards("B", report, stream);
        if (e == cudaSuccess) e = c.check_guards("C", report, stream);
        return e;
    }
};

}  // namespace

// Input copy 0 (seeded by `seed`, as `precision`'s storage) of `problem` on the host, and its
// reference: what verify compares C with.
struct VerificationReference {
    GemmProblem problem;
    Precision precision = Precision::kF32;
    std::uint64_t seed = 0;
    std::vector<float> a;        // copy 0's A, as floats
    std::vector<float> b;        // copy 0's B, K x N row-major floats
    bool on_cpu = false;         // cpu: fp64 on the CPU; else gpu: cuBLAS FP32
    std::vector<double> cpu;     // on_cpu
    std::vector<float> gpu;      // !on_cpu
    std::string name;            // Verification::reference
    double sampled_rel_rms = 0;  // Verification::reference_rel_rms (the cuBLAS one's)

    bool is_for(const GemmProblem& p, Precision inputs, std::uint64_t input_seed) const {
        return same_problem(problem, p) && precision == inputs && seed == input_seed;
    }
    double at(std::int64_t i) const {
        return on_cpu ? cpu[static_cast<std::size_t>(i)] : gpu[static_cast<std::size_t>(i)];
    }
    ErrorSums error_of(const std::vector<float>& result) const {
        return on_cpu ? error_sums(result, cpu) : error_sums(result, gpu);
    }
};

namespace {

using Reference = VerificationReference;

// The verified launch on the host: its C, and the inputs and reference C it was compared with
// (fp64 on the CPU for small problems, else cuBLAS FP32).
struct HostCheck {
    std::vector<float> c;
    std::shared_ptr<const Reference> reference;

    ErrorSums error_of(const std::vector<float>& result) const {
        return reference->error_of(result);
    }
    double reference_at(std::int64_t i) const { return reference->at(i); }
};

// Copy 0's inputs to the host, as floats, into out.a and out.b.
cudaError_t download_inputs(Reference& out, const RunBuffers& buffers, Precision precision,
                            cudaStream_t stream) {
    const GemmProblem& p = buffers.problem;
    const cudaError_t e =
        download_f32(out.a, buffers.inputs[0].a.get(), p.m * p.k, precision, stream);
    return e == cudaSuccess ? download_b_f32(out.b, buffers.inputs[0].b.get(), p, precision, stream)
                            : e;
}

// The cuBLAS FP32 reference (no tensor cores) of copy 0, on f32 copies of its inputs, into
// out.gpu, with its own error at kReferenceSamples elements against fp64 (from out.a and out.b)
// into out.sampled_rel_rms.
cudaError_t cublas_reference(Reference& out, const RunBuffers& buffers, Precision precision,
                             std::uint64_t seed, cudaStream_t stream) {
    const GemmProblem& p = buffers.problem;
    const KernelDescriptor& sgemm = *find_gpu_kernel("cublas.sgemm");
    out.name = sgemm.id;
    DeviceBuffer ref;
    DeviceBuffer a32;
    DeviceBuffer b32;
    cudaError_t e = ref.allocate(buffers.c_count() * 4);
    if (e != cudaSuccess) return e;
    GemmOperands ref_operands{buffers.inputs[0].a.get(), buffers.inputs[0].b.get(), ref.as_float(),
                              p};
    if (storage_bytes(precision) != 4) {
        if ((e = a32.allocate(p.m * p.k * 4)) != cudaSuccess) return e;
        if ((e = b32.allocate(p.k * p.n * 4)) != cudaSuccess) return e;
        if ((e = to_f32(a32.as_float(), ref_operands.a, p.m * p.k, precision, stream)) !=
            cudaSuccess) {
            return e;
        }
        if ((e = b_to_f32_k_by_n(b32.as_float(), ref_operands.b, p, precision, stream)) !=
            cudaSuccess) {
            return e;
        }
        ref_operands.a = a32.get();
        ref_operands.b = b32.get();
    }
    if ((e = as_cuda_error(sgemm.launch(ref_operands, stream))) != cudaSuccess) return e;
    e = download_f32(out.gpu, ref.get(), buffers.c_count(), Precision::kF32, stream);
    if (e != cudaSuccess) return e;
    std::vector<float> sampled_ref;
    std::vector<double> sampled_exact;
    for (const std::int64_t index : sample_elements(p, kReferenceSamples, seed)) {
        sampled_ref.push_back(out.gpu[static_cast<std::size_t>(index)]);
        sampled_exact.push_back(reference_element(out.a, out.b, p, index / p.n, index % p.n));
    }
    out.sampled_rel_rms = relative_rms_error(sampled_ref, sampled_exact);
    return cudaSuccess;
}

// Copy 0 and its reference for `kernel`'s inputs: `kept` where it is for the same problem,
// precision and seed, else a new one (inputs downloaded; fp64 on the CPU for small problems,
// cuBLAS FP32 for the rest), which becomes `kept`.
cudaError_t reference_for(std::shared_ptr<const Reference>& kept, const RunBuffers& buffers,
                          Precision precision, std::uint64_t seed, cudaStream_t stream) {
    const GemmProblem& p = buffers.problem;
    if (kept && kept->is_for(p, precision, seed)) return cudaSuccess;
    kept.reset();  // the old one's memory goes before the new one's is taken
    auto fresh = std::make_shared<Reference>();
    fresh->problem = p;
    fresh->precision = precision;
    fresh->seed = seed;
    fresh->on_cpu = p.m * p.n * p.k <= kCpuReferenceMaxWork;
    if (const cudaError_t e = download_inputs(*fresh, buffers, precision, stream);
        e != cudaSuccess) {
        return e;
    }
    if (fresh->on_cpu) {
        fresh->name = "cpu.fp64";
        fresh->cpu = reference_gemm(fresh->a, fresh->b, p);
    } else if (const cudaError_t e = cublas_reference(*fresh, buffers, precision, seed, stream);
               e != cudaSuccess) {
        return e;
    }
    kept = std::move(fresh);
    return cudaSuccess;
}

// Where C is wrong: cells of the tile that ran (the one the rung picks for the problem, where it
// picks one), elements farther than `tolerance` (viz::element_tolerance) from the reference.
// The instruction whose C tile the wrong elements fold onto: the kernel's mma.sync layout; for
// wgmma (each warp's accumulator rows hold the m16n8 C pattern) and kernels of yours (no layouts
// declared), the mma.sync of the kernel's precision; none for FMA kernels.
std::optional<viz::FragmentLayout> fold_layout(const KernelDescriptor& kernel) {
    bool wgmma = false;
    for (const std::string& id : kernel.layout_ids) {
        if (id.rfind("mma.m16n8", 0) == 0) return viz::fragment_layout(id);
        wgmma |= id.rfind("wgmma.", 0) == 0;
    }
    if (!wgmma && !kernel.layout_ids.empty()) return std::nullopt;
    switch (kernel.precision) {
        case Precision::kTF32:
            return viz::fragment_layout("mma.m16n8k8.tf32");
        case Precision::kF16:
            return viz::fragment_layout("mma.m16n8k16.f16");
        case Precision::kBF16:
            return viz::fragment_layout("mma.m16n8k16.bf16");
        case Precision::kE4M3:
            return viz::fragment_layout("mma.m16n8k32.e4m3");
        case Precision::kF32:
            return std::nullopt;
    }
    return std::nullopt;
}

std::int64_t count_wrong_elements(const GemmProblem& p, const HostCheck& host, double tolerance) {
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < p.m * p.n; ++i) {
        wrong += viz::is_wrong_element(host.c[static_cast<std::size_t>(i)], host.reference_at(i),
                                       tolerance);
    }
    return wrong;
}

viz::ErrorMap wrong_cells(const KernelDescriptor& kernel, const GemmProblem& p,
                          const HostCheck& host, double tolerance) {
    TileShape tile = kernel.block_tile;
    int device = 0;
    int sms = 0;
    if (kernel.for_problem && cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess) {
        tile = kernel.for_problem(p, sms).block_tile;
    }
    const viz::ErrorCellShape shape = viz::error_cell_shape(p.m, p.n, tile.m, tile.n);
    // Where C is wrong, then which bug the wrong values name, folded onto the kernel's instruction
    // (viz/fragment_bug.h). FP8 keeps B as N x K, which the A and B rules do not read.
    const std::optional<viz::FragmentLayout> layout = fold_layout(kernel);
    const viz::GemmInputs inputs{host.reference->a.data(), host.reference->b.data(), p.k};
    const viz::GemmInputs* given = kernel.precision == Precision::kE4M3 ? nullptr : &inputs;
    const auto against = [&](const auto* reference) {
        viz::ErrorMap map =
            viz::build_error_map(host.c.data(), reference, p.m, p.n, tolerance, shape);
        map.bug = viz::name_fragment_bug(host.c.data(), reference, p.m, p.n, tolerance,
                                         layout.value_or(viz::FragmentLayout{}), tile.m, tile.n,
                                         given, &map.folded);
        return map;
    };
    const Reference& reference = *host.reference;
    return reference.on_cpu ? against(reference.cpu.data()) : against(reference.gpu.data());
}

// CUDA events around each timed launch, destroyed with the object.
class LaunchEvents {
  public:
    ~LaunchEvents() {
        for (cudaEvent_t event : events_) {
            if (event != nullptr) cudaEventDestroy(event);
        }
    }
    cudaError_t create(int launches) {
        events_.assign(static_cast<std::size_t>(2 * launches), nullptr);
        for (cudaEvent_t& event : events_) {
            const cudaError_t e = cudaEventCreate(&event);
            if (e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    cudaEvent_t start(int launch) const { return events_[static_cast<std::size_t>(2 * launch)]; }
    cudaEvent_t stop(int launch) const { return events_[static_cast<std::size_t>(2 * launch + 1)]; }

  private:
    std::vector<cudaEvent_t> events_;
};

// For a checked timing: once the whole GPU is idle, C's NaNs again (work another stream held
// back has landed) and the last launch's C against the reference of copy 0, in words
// (timed_launches_caught; "" when nothing was caught). `tallies` holds each launch's NaN count.
cudaError_t check_timed_launches(const RunBuffers& buffers, const HostCheck& host, double bound,
                                 unsigned long long* tallies, int runs, cudaStream_t stream,
                                 std::string* caught) {
    const std::int64_t c_count = buffers.c_count();
    std::vector<std::uint64_t> after_launch(static_cast<std::size_t>(runs) + 1);
    std::vector<float> last_c;
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = add_nan_count(buffers.c.as_float(), c_count, tallies + runs, stream);
    if (e == cudaSuccess) {
        e = cudaMemcpyAsync(after_launch.data(), tallies, 8 * after_launch.size(),
                            cudaMemcpyDeviceToHost, stream);
    }
    if (e == cudaSuccess)
        e = download_f32(last_c, buffers.c.get(), c_count, Precision::kF32, stream);
    if (e == cudaSuccess) {
        const auto when_idle = static_cast<std::int64_t>(after_launch.back());
        after_launch.pop_back();
        *caught = timed_launches_caught(after_launch, when_idle, c_count,
                                        host.error_of(last_c).relative_rms(), bound);
    }
    return e;
}

// The stream a kernel is launched and timed on: a user's host launcher runs on the legacy default
// stream (after everything of the runner's `stream`: inputs, poison), every other kernel on
// `stream`.
cudaStream_t launch_streamof(const KernelDescriptor& kernel, cudaStream_t stream) {
    return kernel.launches_on_legacy_stream ? cudaStreamLegacy : stream;
}

// Verifies one launch of `kernel` on copy 0 into `check` (guard zones, NaNs, error against
// the reference, the error map where it fails), keeping what timing needs in `host`. Returns the
// first CUDA error.
cudaError_t verify(const KernelDescriptor& kernel, const RunBuffers& buffers, std::uint64_t seed,
                   cudaStream_t stream, std::shared_ptr<const Reference>& kept, HostCheck& host,
                   Verification& check) {
    const GemmProblem& p = buffers.problem;
    const cudaStream_t launch_stream = launch_streamof(kernel, stream);
    // The inputs and their reference first, before the kernel could write into them (the
    // reference may be kept for the next kernel's fresh copy of the same inputs).
    cudaError_t e = reference_for(kept, buffers, kernel.precision, seed, stream);
    if (e != cudaSuccess) return e;
    host.reference = kept;
    check.reference = kept->name;
    check.reference_rel_rms = kept->sampled_rel_rms;
    // Poisoned C, one run, guard zones, then compare with the reference.
    e = poison(buffers.c.as_float(), buffers.c_count(), stream);
    if (e == cudaSuccess && launch_stream != stream) e = cudaStreamSynchronize(stream);
    if (e == cudaSuccess) e = as_cuda_error(kernel.launch(buffers.operands(0), launch_stream));
    if (e == cudaSuccess) e = cudaStreamSynchronize(launch_stream);
    if (e == cudaSuccess) e = buffers.check_guards(check.out_of_bounds, stream);
    if (e == cudaSuccess) {
        e = download_f32(host.c, buffers.c.get(), buffers.c_count(), Precision::kF32, stream);
    }
    if (e != cudaSuccess) return e;
    check.nan_count =
        std::count_if(host.c.begin(), host.c.end(), [](float v) { return std::isnan(v); });
    const ErrorSums sums = host.error_of(host.c);
    check.rel_rms_error = sums.relative_rms();
    // The reference only needs to be a sane f32 result: its error estimate comes from a sample
    // of elements and spreads (cuBLAS FP32 at 8192^3 read 1.7e-6 against a bound of 2.8e-6).
    constexpr double kReferenceSlack = 4;
    const bool reference_ok =
        kept->on_cpu ||
        check.reference_rel_rms <= kReferenceSlack * verification_bound(Precision::kF32, p.k);
    // How far an element of C may be from the reference.
    const double tolerance = viz::element_tolerance(check.bound, sums.reference_rms());
    check.wrong_elements = count_wrong_elements(p, host, tolerance);
    check.passed = reference_ok && check.nan_count == 0 && check.out_of_bounds.empty() &&
                   check.rel_rms_error <= check.bound && check.wrong_elements == 0;
    if (!check.passed) check.error_map = wrong_cells(kernel, p, host, tolerance);
    return cudaSuccess;
}

// Timed runs enqueued behind one closed gate: a run of a rung enqueues at most 8 launches (a
// poison and a NaN count where checked, and the kernel's own: rung 14's pad copies, split-K
// reduction), so a batch stays within StreamGate::kMaxGatedLaunches. A user's host launcher may
// enqueue more; a full launch queue then holds the host until the gate gives up.
constexpr int kTimedRunsPerGate = StreamGate::kMaxGatedLaunches / 8;
// How long a gate waits for the host to enqueue its batch. Whatever waits for the GPU inside a
// timed launch (a user's launcher that synchronizes, rung 14 growing its scratch at a first
// launch without warm-up, a launch under Nsight Compute, which serializes them) opens it this
// late once per batch, and those times are then the host-paced ones.
constexpr std::uint64_t kTimingGateTimeoutNs = 200'000'000;  // 200 ms

// Times `kernel` into `result` (median, min, max, TFLOP/s) or sets its error ("cancelled" or
// the CUDA error); refuses the times where a checked timing caught a launch.
void time_launches(const KernelDescriptor& kernel, const RunBuffers& buffers, const HostCheck& host,
                   const RunOptions& options, cudaStream_t stream, RunResult& result) {
    // Warm-up, then each launch between two events, inputs rotating. A kernel of yours is
    // checked as well (runner.h): C poisoned before each launch and its NaNs counted after it,
    // outside the events; its last launch reads input set 0, whose reference is known.
    const GemmProblem& p = buffers.problem;
    const cudaStream_t launch_stream = launch_streamof(kernel, stream);
    const bool checked = kernel.checked_timing;
    const int sets = result.input_sets;
    const auto timing_started = std::chrono::steady_clock::now();
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < options.warmup_runs && e == cudaSuccess; ++i) {
        if (cancelled(options)) {
            result.error = "cancelled";
            return;
        }
        e = as_cuda_error(kernel.launch(buffers.operands(i), launch_stream));
    }
    const int runs = std::max(1, options.timed_runs);
    // The input set of timed launch r: rotating on from the warm-up's; checked, ending at set 0.
    const auto timed_set = [&](int r) {
        return checked ? (r + sets - (runs - 1) % sets) % sets : options.warmup_runs + r;
    };
    DeviceBuffer unwritten;  // per timed launch: C's NaNs right after it (checked only)
    if (e == cudaSuccess && checked && (e = unwritten.allocate(8 * (runs + 1))) == cudaSuccess) {
        e = cudaMemsetAsync(unwritten.get(), 0, 8 * (runs + 1), launch_stream);
    }
    auto* tallies = static_cast<unsigned long long*>(unwritten.get());
    LaunchEvents events;
    if (e == cudaSuccess) e = events.create(runs);
    // The timed launches go in batches behind a closed gate, so that they run back to back and
    // the events time the GPU alone, not the host enqueuing the next launch.
    StreamGate gate;
    int recorded = 0;
    while (recorded < runs && e == cudaSuccess && !cancelled(options)) {
        const std::string closing = gate.close(launch_stream, kTimingGateTimeoutNs);
        if (!closing.empty()) {
            result.error = closing;
            return;
        }
        const int batch_end = std::min(runs, recorded + kTimedRunsPerGate);
        for (; recorded < batch_end && e == cudaSuccess && !cancelled(options); ++recorded) {
            if (checked) e = poison(buffers.c.as_float(), buffers.c_count(), launch_stream);
            if (e == cudaSuccess) e = cudaEventRecord(events.start(recorded), launch_stream);
            if (e == cudaSuccess) {
                e = as_cuda_error(
                    kernel.launch(buffers.operands(timed_set(recorded)), launch_stream));
            }
            if (e == cudaSuccess) e = cudaEventRecord(events.stop(recorded), launch_stream);
            if (e == cudaSuccess && checked) {
                e = add_nan_count(buffers.c.as_float(), buffers.c_count(), tallies + recorded,
                                  launch_stream);
            }
        }
        gate.open();
        if (e == cudaSuccess) e = cudaStreamSynchronize(launch_stream);
    }
    std::vector<double> times;
    for (int r = 0; r < recorded && e == cudaSuccess; ++r) {
        float ms = 0;
        e = cudaEventElapsedTime(&ms, events.start(r), events.stop(r));
        times.push_back(ms);
    }
    std::string caught;
    if (e == cudaSuccess && checked && recorded == runs) {
        e = check_timed_launches(buffers, host, result.check.bound, tallies, runs, stream, &caught);
    }
    if (e != cudaSuccess) {
        result.error = cuda_text(e);
        return;
    }
    if (recorded < runs) {
        result.error = "cancelled";
        return;
    }
    result.timed_runs = runs;
    result.median_ms = median(times);
    result.min_ms = *std::min_element(times.begin(), times.end());
    result.max_ms = *std::max_element(times.begin(), times.end());
    result.tflops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) *
                    static_cast<double>(p.k) / (result.median_ms * 1e-3) / 1e12;
    result.time_ms = ms_since(timing_started);
    if (!caught.empty()) result.refuse(caught);
}

}  // namespace

std::string missing_launch_text(const std::string& kernel_id) {
    return kernel_id +
           " has no launch: its descriptor describes the kernel only (take the one of "
           "kernels/gpu_registry.h to run it)";
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
    RunResult result;
    result.kernel_id = kernel.id;
    result.precision = kernel.precision;
    result.problem = problem;
    result.check.bound = verification_bound(kernel.precision, problem.k);
    if (!kernel.launch) {
        result.error = missing_launch_text(kernel.id);
        return result;
    }
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

    result.input_sets = input_set_count(kernel, problem, free_bytes, l2_bytes_);
    RunBuffers buffers;
    e = buffers.allocate(kernel.precision, problem, result.input_sets, options.seed, stream_);
    HostCheck host;
    if (e == cudaSuccess) {
        e = verify(kernel, buffers, options.seed, stream_, reference_, host, result.check);
    }
    if (e != cudaSuccess) {
        result.error = cuda_text(e);
        return result;
    }
    result.verify_ms = ms_since(started);
    if (!result.check.passed || !options.time) return result;
    time_launches(kernel, buffers, host, options, stream_, result);
    return result;
}

}  // namespace tclens::kernels
