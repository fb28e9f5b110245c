#include "profiling/kernel_profile.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <utility>

#include "common/elapsed.h"
#include "common/text.h"
#include "kernels/cuda_util.h"
#include "kernels/gemm_data.h"
#include "kernels/gpu_registry.h"
#include "kernels/problem_text.h"
#include "kernels/stream_gate.h"
#include "profiling/device_info.h"
#include "profiling/device_query.h"
#include "profiling/fault_injection.h"
#include "profiling/l2_flush.h"
#include "profiling/launch_capture.h"
#include "profiling/metric_catalogue.h"
#include "profiling/range_profiler.h"

namespace tclens::profiling {
namespace {

using Clock = std::chrono::steady_clock;
using kernels::as_cuda_error;
using kernels::cuda_text;
using kernels::DeviceBuffer;
using kernels::StreamGate;

bool is_launch_metric(const std::string& name) {
    const MetricInfo* info = find_metric(name);
    return info != nullptr && info->source == MetricSource::kLaunch;
}

// A verified kernel with inputs and an output, ready to launch again and again.
struct PreparedGemm {
    const kernels::KernelDescriptor* kernel = nullptr;
    kernels::GemmProblem problem;
    kernels::Verification check;
    DeviceBuffer a;
    DeviceBuffer b;
    DeviceBuffer c;
    std::vector<KernelLaunch> launches;
    Occupancy occupancy;
    std::string launch_error;
    double prepare_ms = 0;

    kernels::GemmOperands operands() const {
        return kernels::GemmOperands{a.get(), b.get(), static_cast<float*>(c.get()), problem};
    }
};

// What a result (KernelProfile, KernelTimeline) says of the prepared GEMM it measured.
template <typename Result>
void describe_prepared(const PreparedGemm& gemm, Result& result) {
    result.kernel_id = gemm.kernel->id;
    result.precision = gemm.kernel->precision;
    result.problem = gemm.problem;
    result.check = gemm.check;
    result.prepare_ms = gemm.prepare_ms;
}

// The "NOT VERIFIED" / "skipped" line of a run that may not be profiled.
ProfilerError run_error(const kernels::RunResult& run) {
    if (!run.skipped.empty()) {
        return profiler_error(ProfilerProblem::kInvalidRequest,
                              run.kernel_id + " cannot run " + kernels::problem_text(run.problem) +
                                  " here: " + run.skipped);
    }
    if (!run.error.empty()) {
        return profiler_error(ProfilerProblem::kFailed, run.kernel_id + ": " + run.error);
    }
    return profiler_error(ProfilerProblem::kFailed,
                          run.kernel_id + " " + kernels::problem_text(run.problem) + ": " +
                              kernels::run_status(run) + "; it is not profiled");
}

// kBadMetric naming every rejected metric, each with its reason.
ProfilerError rejected_error(const MetricResolution& resolution) {
    return profiler_error(ProfilerProblem::kBadMetric,
                          common::join(resolution.rejected, "; ",
                                       [](const UnavailableMetric& m) { return m.reason; }));
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

// ---- KernelProfiler -----------------------------------------------------------------------

struct KernelProfiler::State {
    int device = 0;
    std::shared_ptr<RangeProfiler> range;  // may be shared with other KernelProfilers
    std::unique_ptr<PmSampler> sampler;
    cudaStream_t stream = nullptr;
    L2Flusher flusher;
    StreamGate gate;
    std::unique_ptr<PreparedGemm> gemm;
    std::string device_name;
    SmLimits limits;

    ~State() {
        gemm.reset();
        if (stream != nullptr) cudaStreamDestroy(stream);
    }

    RangeProfiler& range_profiler() {
        if (!range) range = std::make_shared<RangeProfiler>(device);
        return *range;
    }
    PmSampler& pm_sampler() {
        if (!sampler) sampler = std::make_unique<PmSampler>(device);
        return *sampler;
    }
    ProfilerError start_device();
    // The prepared kernel, launched `count` times on `stream`; "" or the CUDA error.
    std::string launch(int count);
    // Mean GPU ms per launch of `batches` x `per_batch` back-to-back launches, each batch timed
    // by its own events behind a closed gate (at most StreamGate::kMaxGatedLaunches launches);
    // `keep_going` decides before each batch. Errors into `failure`.
    double timed_launches(int per_batch, const std::function<bool()>& keep_going,
                          std::uint64_t& launched, std::string& failure);
    // Ends a range profiler session kept from profile(), so other CUPTI users may take over.
    void end_range_session() {
        if (range) range->end_session();
    }
};

ProfilerError KernelProfiler::State::start_device() {
    if (stream != nullptr) return ProfilerError{};
    const ProfilerError injected = injected_cupti_error();
    if (!injected.ok()) return injected;
    const SystemReport system = query_system();
    if (!system.has_gpu() || device >= static_cast<int>(system.devices.size())) {
        return profiler_error(
            ProfilerProblem::kNoGpu,
            "profiling needs an NVIDIA GPU and none is usable (" +
                (system.has_gpu() ? "no device " + std::to_string(device) : system.no_gpu_reason) +
                "); check nvidia-smi and CUDA_VISIBLE_DEVICES");
    }
    const DeviceFacts& facts = system.devices[static_cast<std::size_t>(device)];
    device_name = facts.name;
    limits = sm_limits(facts);
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        stream = nullptr;
        return profiler_error(ProfilerProblem::kFailed, "starting CUDA: " + cuda_text(e));
    }
    return ProfilerError{};
}

std::string KernelProfiler::State::launch(int count) {
    for (int i = 0; i < count; ++i) {
        const cudaError_t e = as_cuda_error(gemm->kernel->launch(gemm->operands(), stream));
        if (e != cudaSuccess) return "launching " + gemm->kernel->id + ": " + cuda_text(e);
    }
    return "";
}

double KernelProfiler::State::timed_launches(int per_batch, const std::function<bool()>& keep_going,
                                             std::uint64_t& launched, std::string& failure) {
    cudaEvent_t begin = nullptr;
    cudaEvent_t end = nullptr;
    cudaError_t e = cudaEventCreate(&begin);
    if (e == cudaSuccess) e = cudaEventCreate(&end);
    double total_ms = 0;
    std::uint64_t count = 0;
    per_batch = std::min(per_batch, StreamGate::kMaxGatedLaunches);
    while (e == cudaSuccess && failure.empty() && keep_going()) {
        failure = gate.close(stream);
        if (failure.empty()) e = cudaEventRecord(begin, stream);
        if (e == cudaSuccess && failure.empty()) failure = launch(per_batch);
        if (e == cudaSuccess && failure.empty()) e = cudaEventRecord(end, stream);
        gate.open();
        if (e == cudaSuccess && failure.empty()) e = cudaEventSynchronize(end);
        float ms = 0;
        if (e == cudaSuccess && failure.empty()) e = cudaEventElapsedTime(&ms, begin, end);
        if (e == cudaSuccess && failure.empty()) {
            total_ms += ms;
            count += static_cast<std::uint64_t>(per_batch);
        }
    }
    if (e != cudaSuccess && failure.empty()) failure = "timing launches: " + cuda_text(e);
    if (begin != nullptr) cudaEventDestroy(begin);
    if (end != nullptr) cudaEventDestroy(end);
    launched = count;
    return count > 0 ? total_ms / static_cast<double>(count) : 0.0;
}

KernelProfiler::KernelProfiler(int device) : state_(std::make_unique<State>()) {
    state_->device = device;
}

KernelProfiler::KernelProfiler(int device, std::shared_ptr<RangeProfiler> range)
    : KernelProfiler(device) {
    state_->range = std::move(range);
}

KernelProfiler::~KernelProfiler() = default;

bool KernelProfiler::prepared() const { return state_->gemm != nullptr; }

MetricResolution KernelProfiler::resolve_metrics(const std::vector<std::string>& requested) {
    MetricResolution resolution;
    std::vector<std::string> names;  // each once, in request order
    for (const std::string& name : requested) {
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    std::vector<std::string> asked;  // names for the range profiler
    for (const std::string& name : names) {
        if (!is_launch_metric(name)) asked.push_back(name);
    }
    std::vector<MetricCheck> checks;
    if (!asked.empty()) {
        RangeProfiler& range = state_->range_profiler();
        resolution.error = range.open();
        if (!resolution.error.ok()) return resolution;
        checks = range.check_metrics(asked);
    }
    std::vector<std::string> chip_metrics;
    bool listed = false;
    std::size_t next_check = 0;
    for (const std::string& name : names) {
        if (is_launch_metric(name)) {
            resolution.usable.push_back(name);
            continue;
        }
        const MetricCheck& check = checks[next_check++];
        if (check.accepted) {
            resolution.usable.push_back(name);
            continue;
        }
        if (!listed) {
            state_->range_profiler().base_metrics(chip_metrics);  // suggestions only: best effort
            listed = true;
        }
        const std::string chip = state_->range_profiler().chip_name();
        resolution.rejected.push_back(
            {name, find_metric(name) != nullptr
                       ? "metric " + name + " is not available on " + chip
                       : unknown_metric_message(name, suggest_metrics(name, chip_metrics),
                                                " on " + chip)});
    }
    return resolution;
}

MetricResolution KernelProfiler::resolve_timeline_metrics(const std::vector<std::string>& names) {
    MetricResolution resolution;
    PmSampler& sampler = state_->pm_sampler();
    resolution.error = sampler.open();
    if (!resolution.error.ok()) return resolution;
    for (const MetricCheck& check : sampler.check_metrics(names)) {
        if (check.accepted) {
            resolution.usable.push_back(check.name);
        } else {
            const MetricInfo* info = find_metric(check.name);
            resolution.rejected.push_back(
                {check.name,
                 info != nullptr
                     ? "metric " + check.name + " cannot be PM-sampled on " + sampler.chip_name()
                     : unknown_metric_message(check.name, suggest_metrics(check.name),
                                              " for PM sampling on " + sampler.chip_name())});
        }
    }
    return resolution;
}

ProfilerError KernelProfiler::prepare(const std::string& kernel_id,
                                      const kernels::GemmProblem& problem, std::uint64_t seed) {
    const kernels::KernelDescriptor* kernel = kernels::find_gpu_kernel(kernel_id);
    if (kernel == nullptr) {
        state_->gemm.reset();
        state_->end_range_session();
        return profiler_error(ProfilerProblem::kInvalidRequest,
                              "unknown kernel '" + kernel_id + "'");
    }
    return prepare(*kernel, problem, seed);
}

ProfilerError KernelProfiler::prepare(const kernels::KernelDescriptor& kernel_ref,
                                      const kernels::GemmProblem& problem, std::uint64_t seed) {
    const Clock::time_point started = Clock::now();
    state_->gemm.reset();
    state_->end_range_session();  // verify and read launch facts with no profiler enabled
    const kernels::KernelDescriptor* kernel = &kernel_ref;
    const std::string& kernel_id = kernel->id;
    ProfilerError error = state_->start_device();
    if (!error.ok()) return error;

    kernels::RunResult verified;
    {
        kernels::GemmRunner runner;
        if (!runner.init_error().empty()) {
            return profiler_error(ProfilerProblem::kNoGpu, runner.init_error());
        }
        kernels::RunOptions verify_only;
        verify_only.time = false;
        verify_only.seed = seed;
        verified = runner.run(*kernel, problem, verify_only);
    }
    if (!verified.check.passed || !verified.skipped.empty() || !verified.error.empty()) {
        return run_error(verified);
    }

    auto gemm = std::make_unique<PreparedGemm>();
    gemm->kernel = kernel;
    gemm->problem = problem;
    gemm->check = verified.check;
    const int elem = kernels::storage_bytes(kernel->precision);
    const std::int64_t a_count = problem.m * problem.k;
    const std::int64_t b_count = problem.k * problem.n;
    cudaError_t e = gemm->a.allocate(a_count * elem);
    if (e == cudaSuccess) e = gemm->b.allocate(b_count * elem);
    if (e == cudaSuccess) e = gemm->c.allocate(problem.m * problem.n * 4);
    if (e == cudaSuccess) {
        e = kernels::fill_random(gemm->a.get(), a_count, kernel->precision, seed * 2 + 0,
                                 state_->stream);
    }
    if (e == cudaSuccess) {
        e = kernels::fill_random(gemm->b.get(), b_count, kernel->precision, seed * 2 + 1,
                                 state_->stream);
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(state_->stream);
    if (e != cudaSuccess) {
        return profiler_error(e == cudaErrorMemoryAllocation ? ProfilerProblem::kInvalidRequest
                                                             : ProfilerProblem::kFailed,
                              "preparing inputs for " + kernel_id + ": " + cuda_text(e));
    }
    state_->gemm = std::move(gemm);

    PreparedGemm& prepared_gemm = *state_->gemm;
    const LaunchCapture capture = capture_launches([this] { return state_->launch(1); });
    if (capture.error.ok()) {
        prepared_gemm.launches = capture.launches;
        prepared_gemm.occupancy =
            theoretical_occupancy(*main_launch(capture.launches), state_->limits);
    } else {
        prepared_gemm.launch_error = capture.error.message;
    }
    prepared_gemm.prepare_ms = common::ms_since(started);
    return ProfilerError{};
}

KernelProfile KernelProfiler::profile(const std::vector<std::string>& metrics,
                                      const ProfileOptions& options) {
    const Clock::time_point started = Clock::now();
    KernelProfile result;
    result.device = state_->device_name;
    if (!prepared()) {
        result.error = profiler_error(ProfilerProblem::kFailed, "profile() before prepare()");
        return result;
    }
    const PreparedGemm& gemm = *state_->gemm;
    describe_prepared(gemm, result);
    result.launches = gemm.launches;
    result.occupancy = gemm.occupancy;
    result.launch_error = gemm.launch_error;

    const MetricResolution resolution = resolve_metrics(metrics);
    result.chip = state_->range ? state_->range->chip_name() : "";
    if (!resolution.error.ok()) {
        result.error = resolution.error;
        return result;
    }
    if (!resolution.rejected.empty() && !options.drop_unavailable) {
        result.error = rejected_error(resolution);
        return result;
    }
    result.unavailable = resolution.rejected;

    std::vector<std::string> counters;
    for (const std::string& name : resolution.usable) {
        if (!is_launch_metric(name)) counters.push_back(name);
    }
    RangeValues values;
    if (!counters.empty()) {
        const Workload run_once = [this] { return state_->launch(1); };
        const Workload flush = [this] { return state_->flusher.flush(state_->stream); };
        // The range must hold the kernel only. A run of one launch (every ladder rung, most
        // cuBLAS calls) gets CUPTI's own range around that launch (kPerKernelUserReplay), which
        // opens and closes on the GPU with the kernel, as Nsight Compute's does. A run of several
        // launches (a cuBLAS split-K) needs one user range around all of them; launch() does host
        // work first (function attributes, tensor maps; cuBLAS its heuristics) and CUPTI's launch
        // path adds its own, during which a range pushed straight away would see an idle GPU
        // (~0.1 ms on the H100, all of it in gpu__time_duration and the *_elapsed metrics), so a
        // gate holds the stream until the range's work is all enqueued (50 ms is far above any
        // enqueue time).
        const bool one_launch = gemm.launches.size() == 1;
        PassGate gate;
        gate.timeout_ms = 50;
        gate.close = [this, &gate] {
            return state_->gate.close(state_->stream,
                                      static_cast<std::uint64_t>(gate.timeout_ms * 1e6));
        };
        gate.open = [this] { state_->gate.open(); };
        RangeProfileRequest request;
        request.metrics = counters;
        request.workload = run_once;
        request.mode = one_launch ? RangeMode::kPerKernelUserReplay : RangeMode::kUserRange;
        request.max_ranges = 1;
        request.range_name = gemm.kernel->id;
        if (options.flush_l2) request.before_each_pass = flush;
        request.gate = gate;  // used by the user range only
        const ProfileResult collected = state_->range_profiler().profile(request);
        result.per_kernel_range = one_launch;
        result.gated = collected.gated;
        result.passes = collected.passes;
        result.l2_flushed = options.flush_l2;
        result.setup_ms = collected.setup_ms;
        result.passes_ms = collected.passes_ms;
        result.decode_ms = collected.decode_ms;
        result.reused_session = collected.reused_session;
        if (!collected.error.ok()) {
            result.error = collected.error;
            return result;
        }
        if (collected.ranges.size() != 1) {
            result.error = profiler_error(
                ProfilerProblem::kFailed,
                "expected one profiled range, got " + std::to_string(collected.ranges.size()));
            return result;
        }
        values = collected.ranges.front();
    }

    const KernelLaunch* main = main_launch(gemm.launches);
    for (const std::string& name : resolution.usable) {
        const MetricInfo* info = find_metric(name);
        MetricValue metric{name, info ? info->label : name, info ? info->unit : "", 0.0};
        if (is_launch_metric(name)) {
            if (main == nullptr ||
                !launch_metric_value(name, *main, gemm.occupancy, metric.value)) {
                result.unavailable.push_back(
                    {name,
                     "no launch facts for " + name + ": " +
                         (gemm.launch_error.empty() ? "no launch recorded" : gemm.launch_error)});
                continue;
            }
        } else {
            metric.value = values.metrics.at(name);
        }
        result.metrics.push_back(std::move(metric));
    }
    result.profile_ms = common::ms_since(started);
    return result;
}

std::function<std::string()> KernelProfiler::launch_once() {
    return [this] {
        if (!prepared()) return std::string("launch_once() before prepare()");
        return state_->launch(1);
    };
}

KernelTimeline KernelProfiler::timeline(const TimelineOptions& options,
                                        const TimelineProgress& progress) {
    KernelTimeline result;
    result.device = state_->device_name;
    result.interval_ns = options.interval_ns;
    if (!prepared()) {
        result.error = profiler_error(ProfilerProblem::kFailed, "timeline() before prepare()");
        return result;
    }
    if (options.duration_ms <= 0 && !progress) {
        result.error = profiler_error(ProfilerProblem::kInvalidRequest,
                                      "a timeline without a duration needs a progress callback");
        return result;
    }
    const PreparedGemm& gemm = *state_->gemm;
    describe_prepared(gemm, result);
    result.metrics = options.metrics.empty() ? metric_set("timeline") : options.metrics;

    // Batches of launches that take ~10 ms each keep the host in step with the GPU.
    std::uint64_t launched = 0;
    std::string failure;
    int calls = 0;
    const double one_ms = state_->timed_launches(
        1, [&calls] { return calls++ < 2; }, launched, failure);
    if (!failure.empty()) {
        result.error = profiler_error(ProfilerProblem::kFailed, failure);
        return result;
    }
    const int per_batch = static_cast<int>(std::clamp(
        10.0 / std::max(one_ms, 1e-3), 1.0, static_cast<double>(StreamGate::kMaxGatedLaunches)));
    auto for_ms = [](double duration_ms) {
        // Starts counting at the first call, that is when the loop starts, not when made.
        return [duration_ms, begin = std::optional<Clock::time_point>()]() mutable {
            if (!begin) begin = Clock::now();
            return common::ms_since(*begin) < duration_ms;
        };
    };
    // An A-B-A comparison: warm-up (clocks settle), baseline, sampled loop, baseline.
    double alone_before = 0;
    if (options.baseline_ms > 0) {
        state_->timed_launches(per_batch, for_ms(options.baseline_ms / 2), launched, failure);
        alone_before =
            state_->timed_launches(per_batch, for_ms(options.baseline_ms / 2), launched, failure);
    }
    if (!failure.empty()) {
        result.error = profiler_error(ProfilerProblem::kFailed, failure);
        return result;
    }

    state_->end_range_session();  // CUPTI refuses PM sampling while a range profiler is enabled
    PmSampler& sampler = state_->pm_sampler();
    PmSamplerConfig config;
    config.metrics = result.metrics;
    config.interval_ns = options.interval_ns;
    result.error = sampler.start(config);
    result.chip = sampler.chip_name();
    if (!result.error.ok()) return result;
    const Clock::time_point loop_start = Clock::now();
    std::uint64_t next_sequence = 0;
    const auto keep_sampling = [&] {
        if (progress) {
            const PmSnapshot newest = sampler.snapshot(next_sequence);
            next_sequence = newest.next_sequence;
            if (!progress(newest)) return false;
        }
        return options.duration_ms <= 0 || common::ms_since(loop_start) < options.duration_ms;
    };
    result.kernel_ms_sampled =
        state_->timed_launches(per_batch, keep_sampling, result.launches, failure);
    result.run_ms = common::ms_since(loop_start);
    const ProfilerError stopped = sampler.stop();
    if (options.baseline_ms > 0 && failure.empty()) {
        std::uint64_t after_launches = 0;
        const double alone_after = state_->timed_launches(
            per_batch, for_ms(options.baseline_ms / 2), after_launches, failure);
        result.kernel_ms_alone = 0.5 * (alone_before + alone_after);
    }
    const PmSnapshot snapshot = sampler.snapshot();
    result.error = !failure.empty() ? profiler_error(ProfilerProblem::kFailed, failure) : stopped;
    result.samples = snapshot.samples;
    result.trigger = snapshot.trigger;
    result.lost = snapshot.lost;
    result.dropped = snapshot.dropped;
    result.overflow = snapshot.overflow;
    std::vector<double> lengths;
    for (const PmSample& sample : result.samples) {
        lengths.push_back(static_cast<double>(sample.end_ns - sample.start_ns));
    }
    result.measured_interval_ns = median(lengths);
    return result;
}

// ---- One-call forms -----------------------------------------------------------------------

namespace {

// The kernel a one-call request names: its descriptor when given, else the registry's of its id
// (nullptr when unknown). `result` gets the id, the precision (when known) and the size.
template <typename Request, typename Result>
const kernels::KernelDescriptor* describe_requested(const Request& request, Result& result) {
    const kernels::KernelDescriptor* kernel =
        request.kernel != nullptr ? request.kernel : kernels::find_gpu_kernel(request.kernel_id);
    result.kernel_id = kernel != nullptr ? kernel->id : request.kernel_id;
    if (kernel != nullptr) result.precision = kernel->precision;
    result.problem = request.problem;
    return kernel;
}

// prepare() for the request's kernel (describe_requested's `kernel`, else its id) and size.
template <typename Request>
ProfilerError prepare_requested(KernelProfiler& profiler, const kernels::KernelDescriptor* kernel,
                                const Request& request) {
    return kernel != nullptr ? profiler.prepare(*kernel, request.problem, request.seed)
                             : profiler.prepare(request.kernel_id, request.problem, request.seed);
}

}  // namespace

KernelProfile profile_kernel(const KernelProfileRequest& request) {
    KernelProfiler profiler(request.device);
    KernelProfile result;
    const kernels::KernelDescriptor* kernel = describe_requested(request, result);
    const MetricResolution resolution = profiler.resolve_metrics(request.metrics);
    result.error = resolution.error;
    if (result.error.ok() && !resolution.rejected.empty() && !request.options.drop_unavailable) {
        result.error = rejected_error(resolution);
    }
    if (result.error.ok()) result.error = prepare_requested(profiler, kernel, request);
    if (!result.error.ok()) return result;
    return profiler.profile(request.metrics, request.options);
}

KernelTimeline record_timeline(const KernelTimelineRequest& request) {
    KernelProfiler profiler(request.device);
    KernelTimeline result;
    const kernels::KernelDescriptor* kernel = describe_requested(request, result);
    result.interval_ns = request.options.interval_ns;
    const std::vector<std::string> names =
        request.options.metrics.empty() ? metric_set("timeline") : request.options.metrics;
    result.metrics = names;
    const MetricResolution resolution = profiler.resolve_timeline_metrics(names);
    result.error = resolution.error;
    if (result.error.ok() && !resolution.rejected.empty())
        result.error = rejected_error(resolution);
    if (result.error.ok()) result.error = prepare_requested(profiler, kernel, request);
    if (!result.error.ok()) return result;
    return profiler.timeline(request.options);
}

}  // namespace tclens::profiling
