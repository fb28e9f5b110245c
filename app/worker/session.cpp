#include "app/worker/session.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <atomic>
#include <sstream>

#include "app/worker/gpu_neighbours.h"
#include "app/worker/gpu_turn_wait.h"
#include "app/worker/results.h"
#include "app/worker/worker_mix.h"
#include "common/text.h"
#include "kernels/bench.h"
#include "kernels/dram_probe.h"
#include "kernels/fault_injection.h"
#include "kernels/gpu_registry.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/runner.h"
#include "kernels/user/user_kernel.h"
#include "profiling/bench_json.h"
#include "profiling/device_info.h"
#include "profiling/device_query.h"
#include "profiling/kernel_profile.h"
#include "profiling/metric_catalogue.h"
#include "profiling/source/cubin_mix.h"
#include "profiling/source/source_collector.h"
#include "tclens_version.h"

namespace tclens::worker {

ErrorKind kind_of(const profiling::ProfilerError& error) {
    switch (error.problem) {
        case profiling::ProfilerProblem::kBadMetric:
        case profiling::ProfilerProblem::kInvalidRequest:
            return ErrorKind::kUsage;
        case profiling::ProfilerProblem::kFailed:
        case profiling::ProfilerProblem::kNone:
            return ErrorKind::kFailed;
        default:
            return ErrorKind::kNeedsResource;
    }
}

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) lines.push_back(line);
    }
    return lines;
}

// The cuBLAS descriptor of `precision` (registry.h lists one per precision).
std::string reference_of(kernels::Precision precision) {
    for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
        if (k.rung == 0 && k.precision == precision) return k.id;
    }
    return "";
}

// What a compiled (not loaded) kernel says about itself: the descriptor fields known without a
// GPU, and whether it can run `problem` under default launch limits.
// Parses the kernel ref `text` and compiles what it names (no GPU needed), after a "compiling
// <text>" progress; the parse's or the compile's one-line error.
common::Expected<kernels::user::CompiledKernel> compile_ref(const std::string& text,
                                                            Replier& reply) {
    const auto ref = kernels::user::parse_kernel_ref(text);
    if (!ref) return common::Expected<kernels::user::CompiledKernel>::failure(ref.error());
    reply.progress({"load", "compiling " + text, -1, -1, kCompileAllowS});
    return kernels::user::compile_user_kernel(*ref, {});
}

nlohmann::json compiled_descriptor(const kernels::user::CompiledKernel& compiled) {
    kernels::KernelDescriptor d;
    d.id = compiled.id;
    d.title = "yours: " + compiled.discovered.function.qualified + " (" +
              kernels::user::form_name(compiled.discovered.form) + ")";
    d.precision = compiled.discovered.precision;
    d.reference_id = reference_of(d.precision);
    d.threads = kernels::user::constant_threads(compiled.discovered.directive);
    return profiling::to_json(d);
}

// Whether a compiled (not loaded) kernel can run `problem`, judged on its source alone: a
// directive within the limits every CUDA GPU allows.
CanRun compiled_can_run(const kernels::user::CompiledKernel& compiled,
                        const kernels::GemmProblem& problem) {
    using kernels::user::KernelForm;
    switch (compiled.discovered.form) {
        case KernelForm::kHostLauncher:
            return {problem, "", ""};
        case KernelForm::kDirectiveKernel: {
            const auto geometry = kernels::user::launch_geometry(
                compiled.discovered.directive, problem, kernels::user::LaunchLimits{});
            if (!geometry) return {problem, geometry.error(), ""};
            return {problem, "", kernels::user::launch_geometry_text(*geometry)};
        }
        case KernelForm::kFragmentExercise:
            break;
    }
    return {problem, "a fragment exercise runs one instruction on one warp, not a GEMM of any size",
            ""};
}

// Whether a loaded kernel can run `problem`, and its launch plan when it has one.
CanRun loaded_can_run(const kernels::KernelDescriptor& kernel,
                      const kernels::GemmProblem& problem) {
    const std::string reason = kernel.can_run(problem);
    const bool planned = reason.empty() && kernel.launch_plan;
    return {problem, reason, planned ? kernel.launch_plan(problem) : ""};
}

}  // namespace

std::string run_text(const kernels::KernelDescriptor& kernel, const kernels::GemmProblem& problem) {
    return kernel.id + " " + kernels::problem_text(problem);
}

WorkerSession::WorkerSession() = default;
WorkerSession::~WorkerSession() = default;

void WorkerSession::handle(const Request& request, Replier& reply) {
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, HelloRequest>) hello(body, reply);
            if constexpr (std::is_same_v<T, LoadRequest>) load(body, reply);
            if constexpr (std::is_same_v<T, BenchRequest>) bench(body, reply);
            if constexpr (std::is_same_v<T, WorkerProfileRequest>) profile(body, reply);
            if constexpr (std::is_same_v<T, ExerciseRequest>) exercise(body, reply);
            if constexpr (std::is_same_v<T, ShutdownRequest>) reply.result({});
            if constexpr (std::is_same_v<T, WorkerSourceRequest>) source(body, reply);
            if constexpr (std::is_same_v<T, TraceRequest>) trace(body, reply);
            if constexpr (std::is_same_v<T, BankMeasureRequest>) bank_measure(body, reply);
            if constexpr (std::is_same_v<T, LayoutVerifyRequest>) layout_verify(body, reply);
            if constexpr (std::is_same_v<T, LiveProfileRequest>) live_profile(body, reply);
            if constexpr (std::is_same_v<T, ClockSkewRequest>) clock_skew(body, reply);
        },
        request.body);
}

const kernels::KernelDescriptor* WorkerSession::runnable(const std::string& id,
                                                         const kernels::GemmProblem& problem,
                                                         Replier& reply) const {
    const kernels::KernelDescriptor* kernel = find(id);
    if (kernel == nullptr) {
        reply.error(ErrorKind::kUsage, unknown_kernel(id));
        return nullptr;
    }
    return can_run_here(*kernel, problem, reply) ? kernel : nullptr;
}

bool WorkerSession::can_run_here(const kernels::KernelDescriptor& kernel,
                                 const kernels::GemmProblem& problem, Replier& reply) {
    const std::string cannot = cannot_run_text(kernel, problem);
    if (cannot.empty()) return true;
    reply.error(ErrorKind::kUsage, cannot);
    return false;
}

std::string WorkerSession::cannot_run_text(const kernels::KernelDescriptor& kernel,
                                           const kernels::GemmProblem& problem) {
    const std::string cannot = kernel.can_run(problem);
    if (cannot.empty()) return "";
    return kernel.id + " cannot run " + kernels::problem_text(problem) + ": " + cannot;
}

bool WorkerSession::ran_once_before_cupti(const kernels::KernelDescriptor& kernel,
                                          const kernels::GemmProblem& problem, std::uint64_t seed,
                                          int index, int total, Replier& reply) {
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();
    // A kernel of yours gets the client's limit; a rung may take longer (as in bench).
    reply.progress({"run", run_text(kernel, problem), index, total,
                    kernel.checked_timing ? 0 : kRungRunAllowS});
    kernels::RunOptions verify_only;
    verify_only.time = false;
    verify_only.seed = seed;
    runner_->run(kernel, problem, verify_only);
    const std::string lost = lost_context();
    if (lost.empty()) return true;
    reply.error(ErrorKind::kFault,
                run_text(kernel, problem) + " faulted: " + lost + "; the CUDA context is lost",
                true);
    return false;
}

const kernels::KernelDescriptor* WorkerSession::find(const std::string& id) const {
    if (const auto it = loaded_.find(id); it != loaded_.end()) return &it->second->descriptor;
    return kernels::find_gpu_kernel(id);
}

std::string WorkerSession::unknown_kernel(const std::string& id) const {
    const std::string loaded =
        common::join(loaded_, ", ", [](const auto& entry) { return entry.first; });
    return "unknown kernel '" + id + "' (valid: " + kernels::kernel_ids_text() +
           (loaded.empty() ? "; no kernel loaded" : "; loaded: " + loaded) + ")";
}

std::string WorkerSession::lost_context() const {
    if (!runner_ || !runner_->init_error().empty()) return "";
    if (cudaDeviceSynchronize() == cudaSuccess) return "";
    cudaGetLastError();  // an error that is not sticky is cleared here
    const cudaError_t again = cudaDeviceSynchronize();
    if (again == cudaSuccess) return "";
    return std::string(cudaGetErrorString(again)) + " (" + cudaGetErrorName(again) + ")";
}

void WorkerSession::hello(const HelloRequest& request, Replier& reply) {
    if (const std::string refusal = protocol_refusal(request.protocol); !refusal.empty()) {
        reply.error(ErrorKind::kProtocol, refusal);
        return;
    }
    HelloResult result = this_worker_hello();
    result.system = profiling::query_system();
    result.mixes = this_build_mixes(mix_sm(result.system));
    reply.result(to_json(result));
}

void WorkerSession::load(const LoadRequest& request, Replier& reply) {
    const auto compiled = compile_ref(request.ref, reply);
    if (!compiled) {
        reply.error(ErrorKind::kUsage, compiled.error());
        return;
    }
    LoadResult result;
    result.form = kernels::user::form_name(compiled->discovered.form);
    result.path = request.ref.substr(0, compiled->ref.path.size());
    result.function = compiled->discovered.function.qualified;
    result.compile_ms = compiled->compile_seconds * 1e3;
    result.warnings = lines_of(compiled->warnings);
    const bool exercise = compiled->discovered.form == kernels::user::KernelForm::kFragmentExercise;
    if (exercise && !request.compile_only) {
        reply.error(
            ErrorKind::kUsage,
            request.ref + " is a fragment exercise (" + compiled->discovered.function.qualified +
                ", one " + compiled->discovered.exercise_layout +
                " on one warp), not a GEMM to bench or profile: run it with tclens exercise");
        return;
    }
    if (request.compile_only) {
        result.instruction_mix_missing = "compiled only: the mix is read when it is loaded";
        result.descriptor = compiled_descriptor(*compiled);
        for (const kernels::GemmProblem& problem : request.problems)
            result.can_run.push_back(compiled_can_run(*compiled, problem));
    } else {
        const profiling::SystemReport system = profiling::query_system();
        if (!system.has_gpu()) {
            reply.error(ErrorKind::kNeedsResource,
                        compiled->id + " compiled, but loading it needs an NVIDIA GPU (" +
                            system.no_gpu_reason + ")");
            return;
        }
        reply.progress({"load", "loading " + compiled->id, -1, -1, kLoadAllowS});
        const auto loaded = kernels::user::load_user_kernel(*compiled);
        if (!loaded) {
            reply.error(ErrorKind::kFailed, loaded.error());
            return;
        }
        const kernels::KernelDescriptor& descriptor = (*loaded)->descriptor;
        result.descriptor = profiling::to_json(descriptor);
        result.load_ms = (*loaded)->load_seconds * 1e3;
        result.loaded = true;
        for (const kernels::GemmProblem& problem : request.problems)
            result.can_run.push_back(loaded_can_run(descriptor, problem));
        // The SASS the GPU runs: the cubin it was built into, counted as a rung's census is.
        const profiling::CubinMix mix = profiling::cubin_instruction_mix(
            (*loaded)->cubin_path, compiled->arch, profiling::find_disassembly_tools());
        if (mix.mix) {
            const profiling::DeviceFacts& gpu = system.devices.front();
            result.instruction_mix = profiling::RecordedInstructionMix{
                descriptor.id, gpu.cc_major * 10 + gpu.cc_minor, *mix.mix};
        }
        result.instruction_mix_missing = mix.missing;
        loaded_[descriptor.id] = *loaded;
        loaded_sources_[descriptor.id] = {{compiled->path, compiled->source}};
    }
    reply.result(to_json(result));
}

bool WorkerSession::before_bench(const BenchRequest& request, const profiling::SystemReport& system,
                                 Replier& reply, BenchResult& result) {
    if (request.check_counters && system.has_gpu()) {
        profiling::KernelProfiler check;
        const profiling::MetricResolution resolution =
            check.resolve_metrics(profiling::metric_set("default"));
        if (!resolution.error.ok()) {
            reply.error(
                resolution.error.needs_resource() ? ErrorKind::kNeedsResource : ErrorKind::kFailed,
                resolution.error.message);
            return false;
        }
    }
    if (request.dram && system.has_gpu()) {
        reply.progress({"peaks", "measuring the DRAM bandwidth", -1, -1, kPeaksAllowS});
        kernels::DramMeasurement measured;
        result.dram_error = kernels::measure_dram_bandwidth(measured);
        if (result.dram_error.empty())
            result.dram = profiling::DramBandwidth{measured.bytes_per_s, measured.method};
    }
    return true;
}

void WorkerSession::bench(const BenchRequest& request, Replier& reply) {
    kernels::BenchRequest bench;
    for (const std::string& id : request.kernels) {
        if (const auto it = loaded_.find(id); it != loaded_.end()) {
            bench.loaded.push_back(&it->second->descriptor);
        } else if (kernels::find_kernel(id) != nullptr) {
            bench.kernel_ids.push_back(id);
        } else {
            reply.error(ErrorKind::kUsage, unknown_kernel(id));
            return;
        }
    }
    // As `tclens bench`: an injected launch failure is reported on every row, GPU or not.
    const bool launch_fault = kernels::injected_fault() == kernels::Fault::kLaunchFailure;
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu() && !launch_fault) {
        reply.error(ErrorKind::kNeedsResource,
                    "bench needs an NVIDIA GPU (" + system.no_gpu_reason + ")");
        return;
    }
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();
    if (!runner_->init_error().empty() && !launch_fault) {
        reply.error(ErrorKind::kNeedsResource, runner_->init_error());
        return;
    }
    bench.problems = request.problems;
    bench.run.timed_runs = request.runs;
    bench.run.warmup_runs = request.warmup;
    bench.run.seed = request.seed;
    bench.measure_peaks = request.peaks;
    bench.measured_instruction_peaks = instruction_peaks_;
    bench.with_references = request.references;
    GpuTurn turn;  // this GPU's turn, held while the request times or profiles on it
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    BenchResult result;
    if (!before_bench(request, system, reply, result)) return;
    std::atomic<bool> cancel{false};
    bench.run.cancel = &cancel;
    std::string lost;
    if (bench.measure_peaks && instruction_peaks_.empty()) {
        reply.progress({"peaks",
                        "measuring the peaks of " +
                            (system.has_gpu() ? system.devices.front().name : "the GPU"),
                        -1, -1, kPeaksAllowS});
    }
    const std::string gpu_id = system.has_gpu() ? system.devices.front().pci_bus_id : "";
    const GpuNeighbours before = gpu_neighbours(gpu_id);
    kernels::BenchReport report = kernels::run_bench(
        bench, *runner_,
        [&](int index, int total, const kernels::KernelDescriptor& kernel,
            const kernels::GemmProblem& problem) {
            if (index > 0 && lost.empty()) lost = lost_context();
            if (!lost.empty()) {
                cancel = true;  // every later run would fail the same way
                return;
            }
            // A kernel of yours gets the client's limit; tclens's own
            // rungs and references may take longer at large sizes.
            const double allow_s = kernel.checked_timing ? 0 : kRungRunAllowS;
            reply.progress({"run", run_text(kernel, problem), index, total, allow_s});
        });
    if (lost.empty()) lost = lost_context();
    if (!lost.empty()) {
        std::string where = "a kernel";
        for (const kernels::BenchRow& row : report.rows) {
            if (!row.result.error.empty()) {
                where = row.result.kernel_id + " on " + kernels::problem_text(row.result.problem);
                break;
            }
        }
        reply.error(ErrorKind::kFault, where + " faulted: " + lost + "; the CUDA context is lost",
                    true);
        return;
    }
    report.shared_gpu = shared_gpu_note(before, gpu_neighbours(gpu_id));
    if (report.peak_error.empty() && !report.instruction_peaks.empty()) {
        instruction_peaks_ = report.instruction_peaks;
    }
    for (const kernels::BenchRow& row : report.rows) {
        const kernels::RunResult& r = row.result;
        result.times.push_back({r.kernel_id, r.problem, r.verify_ms, r.time_ms});
    }
    result.report = std::move(report);
    reply.result(to_json(result));
}

void WorkerSession::profile(const WorkerProfileRequest& request, Replier& reply) {
    const kernels::KernelDescriptor* kernel = runnable(request.kernel, request.problem, reply);
    if (kernel == nullptr) return;
    // As `tclens profile`: an injected CUPTI fault is reported by the profiler, GPU or not.
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu() && !kernels::is_cupti_fault(kernels::injected_fault())) {
        reply.error(ErrorKind::kNeedsResource,
                    "profile needs an NVIDIA GPU (" + system.no_gpu_reason + ")");
        return;
    }
    GpuTurn turn;  // this GPU's turn, held while the request times or profiles on it
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    if (system.has_gpu() &&
        !ran_once_before_cupti(*kernel, request.problem, request.seed, 0, 1, reply)) {
        return;
    }
    ProfileResult result;
    if (request.timeline) {
        reply.progress({"timeline", run_text(*kernel, request.problem), -1, -1,
                        kCuptiAllowS + request.timeline->duration_ms / 1e3});
        profiling::KernelTimelineRequest timeline;
        timeline.kernel = kernel;
        timeline.problem = request.problem;
        timeline.options.metrics = request.timeline->metrics;
        timeline.options.interval_ns = request.timeline->interval_ns;
        timeline.options.duration_ms = request.timeline->duration_ms;
        timeline.seed = request.seed;
        result.timeline = profiling::record_timeline(timeline);
        if (!result.timeline->ok()) {
            reply.error(kind_of(result.timeline->error), result.timeline->error.message);
            return;
        }
    } else {
        reply.progress({"profile", run_text(*kernel, request.problem), -1, -1, kCuptiAllowS});
        profiling::KernelProfileRequest profile;
        profile.kernel = kernel;
        profile.problem = request.problem;
        profile.metrics = request.metrics;
        profile.options.drop_unavailable = request.drop_unavailable;
        profile.options.flush_l2 = request.flush_l2;
        profile.seed = request.seed;
        result.profile = profiling::profile_kernel(profile);
        if (!result.profile->ok()) {
            reply.error(kind_of(result.profile->error), result.profile->error.message);
            return;
        }
    }
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(ErrorKind::kFault,
                    run_text(*kernel, request.problem) + " faulted while profiled: " + lost +
                        "; the CUDA context is lost",
                    true);
        return;
    }
    reply.result(to_json(result));
}

void WorkerSession::exercise(const ExerciseRequest& request, Replier& reply) {
    const auto compiled = compile_ref(request.ref, reply);
    if (!compiled) {
        reply.error(ErrorKind::kUsage, compiled.error());
        return;
    }
    if (compiled->discovered.form != kernels::user::KernelForm::kFragmentExercise) {
        reply.error(ErrorKind::kUsage,
                    request.ref + " is a " + kernels::user::form_name(compiled->discovered.form) +
                        ", not a fragment exercise: bench or profile it instead");
        return;
    }
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) {
        reply.error(ErrorKind::kNeedsResource,
                    "running an exercise needs an NVIDIA GPU (" + system.no_gpu_reason + ")");
        return;
    }
    if (!runner_) runner_ = std::make_unique<kernels::GemmRunner>();
    reply.progress(
        {"run", compiled->id + " (" + compiled->discovered.exercise_layout + ")", 0, 1, 0});
    const auto report = kernels::user::run_fragment_exercise(*compiled);
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(ErrorKind::kFault,
                    compiled->id + " faulted: " + lost + "; the CUDA context is lost", true);
        return;
    }
    if (!report) {
        reply.error(ErrorKind::kFailed, report.error());
        return;
    }
    ExerciseResult result;
    result.report = *report;
    result.summary = report->summary();
    reply.result(to_json(result));
}

void WorkerSession::source(const WorkerSourceRequest& request, Replier& reply) {
    const kernels::KernelDescriptor* kernel = runnable(request.kernel, request.problem, reply);
    if (kernel == nullptr) return;
    // As `tclens profile`: an injected CUPTI fault is reported by the collector, GPU or not.
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu() && !kernels::is_cupti_fault(kernels::injected_fault())) {
        reply.error(ErrorKind::kNeedsResource,
                    "source needs an NVIDIA GPU (" + system.no_gpu_reason +
                        "); run it on a GPU machine, or open a recording with source profiles in "
                        "the GUI's Source panel");
        return;
    }
    if (system.has_gpu() && !runner_) runner_ = std::make_unique<kernels::GemmRunner>();
    GpuTurn turn;  // this GPU's turn, held while the request times or profiles on it
    if (!wait_for_gpu_turn(system, reply, turn)) return;
    profiling::SourceRequest collect;
    collect.kernel_id = kernel->id;
    collect.kernel = kernel;  // with its launch (the GPU registry's, or a loaded kernel's)
    if (const auto loaded = loaded_.find(kernel->id); loaded != loaded_.end()) {
        collect.cubin_path = loaded->second->cubin_path;
        collect.sources = loaded_sources_[kernel->id];
    }
    collect.problem = request.problem;
    collect.seed = request.seed;
    collect.target_samples = request.target_samples;
    collect.period_log2 = request.period_log2;
    const std::string what = run_text(*kernel, request.problem);
    // The kernel's first launch (its verification) runs under the client's time limit; CUPTI's
    // set-up, and its launches after a passed verification, may take longer.
    collect.on_step = [&](profiling::SourceStep step) {
        switch (step) {
            case profiling::SourceStep::kSetUp:
                reply.progress({"profile", "PC sampling set-up for " + what, -1, -1, kCuptiAllowS});
                break;
            case profiling::SourceStep::kVerify:
                reply.progress({"run", what, 0, 1, 0});
                break;
            case profiling::SourceStep::kCollect:
                reply.progress({"profile", what, -1, -1, kCuptiAllowS});
                break;
        }
    };
    SourceResult result;
    result.profile = profiling::collect_source_profile(collect);
    if (const std::string lost = lost_context(); !lost.empty()) {
        reply.error(ErrorKind::kFault,
                    what + " faulted while profiled: " + lost + "; the CUDA context is lost", true);
        return;
    }
    if (!result.profile.ok()) {
        reply.error(kind_of(result.profile.error), result.profile.error.message);
        return;
    }
    reply.result(to_json(result));
}

}  // namespace tclens::worker
