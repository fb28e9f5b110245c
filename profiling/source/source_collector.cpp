#include "profiling/source/source_collector.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <future>
#include <map>
#include <sstream>

#include "common/elapsed.h"
#include "common/text.h"
#include "kernels/cuda_util.h"
#include "kernels/gpu_registry.h"
#include "profiling/device_info.h"
#include "profiling/device_query.h"
#include "profiling/kernel_profile.h"
#include "profiling/source/disassembler.h"
#include "profiling/source/pc_sampler.h"
#include "profiling/source/sass_metrics.h"
#include "profiling/source/source_join.h"

namespace tclens::profiling {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uintmax_t kMaxSourceBytes = 4u << 20;
// SM sub-partitions (warp schedulers) per SM from Volta to Hopper: each samples on its own.
constexpr int kSubPartitionsPerSm = 4;

// Where a kernel's SASS is: tclens's own binary (a rung), the cubin it was built into (a user's
// kernel), or nowhere tclens can read (cuBLAS's kernels).
enum class SassHome { kOwnBinary, kCubin, kNone };

SassHome sass_home(const kernels::KernelDescriptor& kernel, const SourceRequest& request) {
    if (!request.cubin_path.empty()) return SassHome::kCubin;
    return kernel.rung > 0 ? SassHome::kOwnBinary : SassHome::kNone;
}

// Errors that would stop every collector as well: the profile fails with them.
bool stops_everything(const ProfilerError& error) {
    switch (error.problem) {
        case ProfilerProblem::kNoGpu:
        case ProfilerProblem::kPermission:
        case ProfilerProblem::kBusy:
        case ProfilerProblem::kOtherTool:
            return true;
        default:
            return false;
    }
}

}  // namespace

bool read_source_file(const std::string& path, std::string& text) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    if (size < 0 || static_cast<std::uintmax_t>(size) > kMaxSourceBytes) return false;
    in.seekg(0);
    std::ostringstream content;
    content << in.rdbuf();
    text = content.str();
    return true;
}

namespace {

// Step 3: one launch sampled, at the request's period or, without one, at the period that gives
// about the samples it targets (one launch timed first). A hardware buffer that filled up is
// sampled again at a quarter of the rate. Timing the launch failing sets profile.error.
PcSamplingResult sample_one_launch(PcSampler& sampler, const Workload& launch,
                                   const SourceRequest& request,
                                   const kernels::KernelDescriptor& kernel,
                                   const DeviceFacts* device, SourceProfile& profile) {
    PcSamplingOptions options;
    options.period_log2 = request.period_log2;
    if (options.period_log2 == 0) {
        const Clock::time_point timed = Clock::now();
        std::string failure = launch();
        const cudaError_t synced = cudaDeviceSynchronize();
        if (failure.empty() && synced != cudaSuccess) failure = kernels::cuda_text(synced);
        if (!failure.empty()) {
            profile.error = profiler_error(ProfilerProblem::kFailed,
                                           "timing one launch of " + kernel.id + ": " + failure);
            return {};
        }
        options.period_log2 = choose_sampling_period(
            common::ms_since(timed), device ? device->sm_count : 0, kSubPartitionsPerSm,
            device ? device->sm_clock_khz : 0, request.target_samples);
    }
    PcSamplingResult sampling = sampler.sample(launch, options);
    if (!sampling.error.ok() &&
        sampling.error.message.find("hardware buffer") != std::string::npos &&
        options.period_log2 + 2 <= 31) {
        options.period_log2 += 2;  // a quarter of the samples
        sampling = sampler.sample(launch, options);
    }
    profile.period_log2 = options.period_log2;
    return sampling;
}

// The functions the samples fall in, in record order, each once per run of records.
std::vector<std::string> sampled_functions(const PcSamplingResult& sampling) {
    std::vector<std::string> functions;
    for (const PcSampleRecord& record : sampling.records) {
        if (functions.empty() || functions.back() != record.function) {
            functions.push_back(record.function);
        }
    }
    return functions;
}

// The SASS of `functions` disassembled in the background, into the disassembler's cache (none
// for cuBLAS's kernels, which are not in tclens's binary).
std::future<void> disassemble_meanwhile(const kernels::KernelDescriptor& kernel,
                                        const std::vector<std::string>& functions, int sm,
                                        const DisassemblyTools& tools) {
    if (kernel.rung == 0 || functions.empty()) return {};
    return std::async(std::launch::async, [&tools, sm, sampled = functions] {
        for (const std::string& function : sampled) {
            if (!function.empty()) disassemble_function(own_binary(), sm, function, tools);
        }
    });
}

// Step 4: the per-instruction counts the chip offers (`chosen` says which), collected over one
// launch; profile.chip is the collector's chip.
SassMetricsResult count_instructions(int device, const Workload& launch, ChosenCounters& chosen,
                                     SourceProfile& profile) {
    SassMetricsResult counters;
    SassMetricsCollector collector(device);
    counters.error = collector.open();
    if (counters.error.ok()) {
        chosen = choose_source_counters(collector.available_metrics());
        const std::vector<std::string> names = chosen.all_metrics();
        if (names.empty()) {
            counters.error = profiler_error(ProfilerProblem::kUnsupported,
                                            "this GPU gives none of the per-instruction counts");
        } else {
            counters = collector.collect(names, launch);
        }
    }
    profile.chip = collector.chip_name();
    return counters;
}

// Why counts are missing: the collector's error, then each counter the chip lacks; "; " apart.
std::string counters_missing(const SassMetricsResult& counters, const ChosenCounters& chosen) {
    std::vector<std::string> notes;
    if (!counters.error.ok()) notes.push_back(counters.error.message);
    notes.insert(notes.end(), chosen.missing.begin(), chosen.missing.end());
    return common::join(notes, "; ");
}

// Step 5's totals by metric name (none when the profile failed).
std::map<std::string, double> totals_by_metric(const KernelProfile& totals) {
    std::map<std::string, double> by_name;
    if (!totals.ok()) return by_name;
    for (const MetricValue& metric : totals.metrics) by_name[metric.name] = metric.value;
    return by_name;
}

std::string no_line_info(const kernels::KernelDescriptor& kernel) {
    return kernel.id + " has no line info (built without -lineinfo): SASS only, no CUDA lines";
}

// Step 6: the SASS of each function the samples and counts name, from tclens's binary (after the
// cubin extraction and the early disassembly end), into inputs.listing; profile.sass_how and
// sass_missing say how, or why there is none. Returns why there are no CUDA lines when only
// cuobjdump was found ("" otherwise).
std::string disassemble_functions(const kernels::KernelDescriptor& kernel,
                                  const std::vector<std::string>& functions, int sm,
                                  const DisassemblyTools& tools, std::future<void>& extraction,
                                  std::future<void>& early_disassembly, SourceInputs& inputs,
                                  SourceProfile& profile) {
    if (kernel.rung == 0) {
        profile.sass_missing = kernel.id +
                               " runs cuBLAS's own kernels, which are not in tclens's binary: no "
                               "SASS text; samples and counts are shown by PC offset";
        return "";
    }
    if (functions.empty()) {
        profile.sass_missing =
            "neither PC sampling nor the SASS metrics named a function, so no "
            "cubin was looked for";
        return "";
    }
    if (extraction.valid()) extraction.wait();
    if (early_disassembly.valid()) early_disassembly.wait();
    std::vector<std::string> done;
    for (const std::string& function : functions) {
        if (function.empty() || find_function(inputs.listing, function) != nullptr) continue;
        if (std::find(done.begin(), done.end(), function) != done.end()) continue;
        done.push_back(function);
        const Disassembly disassembly = disassemble_function(own_binary(), sm, function, tools);
        if (!disassembly.error.empty()) {
            profile.sass_missing = disassembly.error;
            continue;
        }
        profile.sass_how = disassembly.how;
        for (const SassFunction& listed : disassembly.functions) {
            if (find_function(inputs.listing, listed.name) == nullptr) {
                inputs.listing.push_back(listed);
            }
        }
    }
    if (inputs.listing.empty() && profile.sass_missing.empty()) {
        profile.sass_missing = missing_tools_message(tools);
    }
    if (!inputs.listing.empty()) profile.sass_missing.clear();
    return tools.nvdisasm.empty() ? missing_tools_message(tools) : "";
}

// Step 6 for a kernel handed over as a cubin: every function of the cubin it was built into
// (`cubin`, disassembled meanwhile), into inputs.listing; profile.sass_how or sass_missing. Returns
// why there are no CUDA lines when only cuobjdump was found ("" otherwise).
std::string list_cubin(std::future<Disassembly>& cubin, const DisassemblyTools& tools,
                       SourceInputs& inputs, SourceProfile& profile) {
    const Disassembly disassembly = cubin.get();
    if (!disassembly.error.empty()) {
        profile.sass_missing = disassembly.error;
        return "";
    }
    profile.sass_how = disassembly.how;
    inputs.listing = disassembly.functions;
    return tools.nvdisasm.empty() ? missing_tools_message(tools) : "";
}

}  // namespace

SourceProfile collect_source_profile(const SourceRequest& request) {
    const Clock::time_point started = Clock::now();
    SourceProfile profile;
    profile.kernel_id = request.kernel_id;
    profile.problem = request.problem;
    const auto announce = [&request](SourceStep step) {
        if (request.on_step) request.on_step(step);
    };
    const kernels::KernelDescriptor* kernel =
        request.kernel != nullptr ? request.kernel : kernels::find_gpu_kernel(request.kernel_id);
    if (kernel == nullptr) {
        profile.error = profiler_error(ProfilerProblem::kInvalidRequest,
                                       "unknown kernel '" + request.kernel_id + "'");
        return profile;
    }
    profile.kernel_id = kernel->id;
    profile.precision = kernel->precision;
    // The cubins of tclens's binary are taken out meanwhile (cuobjdump reads the whole binary),
    // or a user's kernel's cubin is disassembled; step 6 waits for it. cuBLAS's kernels are in
    // neither.
    const SassHome home = sass_home(*kernel, request);
    const DisassemblyTools tools = find_disassembly_tools();
    std::future<void> extraction;
    std::future<Disassembly> user_cubin;
    if (home == SassHome::kOwnBinary) {
        extraction =
            std::async(std::launch::async, [&tools] { extract_cubins_once(own_binary(), tools); });
    } else if (home == SassHome::kCubin) {
        user_cubin = std::async(std::launch::async, [&tools, path = request.cubin_path] {
            return disassemble_cubin(path, tools);
        });
    }

    // 1. PC sampling before the kernel's first launch.
    announce(SourceStep::kSetUp);
    PcSampler sampler(request.device);
    const ProfilerError sampler_opened = sampler.open();
    if (stops_everything(sampler_opened)) {
        profile.error = sampler_opened;
        return profile;
    }

    // 2. Verify and prepare.
    Clock::time_point step = Clock::now();
    KernelProfiler profiler(request.device);
    announce(SourceStep::kVerify);
    profile.error = profiler.prepare(*kernel, request.problem, request.seed);
    profile.prepare_ms = common::ms_since(step);
    if (!profile.ok()) return profile;
    announce(SourceStep::kCollect);
    const auto launch = profiler.launch_once();

    const SystemReport system = query_system();
    const DeviceFacts* device = request.device < static_cast<int>(system.devices.size())
                                    ? &system.devices[static_cast<std::size_t>(request.device)]
                                    : nullptr;
    if (device != nullptr) profile.device = device->name;

    // 3. Time one launch, then sample one.
    step = Clock::now();
    PcSamplingResult sampling;
    if (!sampler_opened.ok()) {
        sampling.error = sampler_opened;
    } else {
        sampling = sample_one_launch(sampler, launch, request, *kernel, device, profile);
        if (!profile.ok()) return profile;
    }
    sampler.close();
    profile.sampling_ms = common::ms_since(step);
    if (stops_everything(sampling.error)) {
        profile.error = sampling.error;
        return profile;
    }
    if (!sampling.error.ok()) profile.sampling_missing = sampling.error.message;
    profile.dropped_samples = sampling.dropped_samples;

    // The sampled functions' SASS is disassembled meanwhile (steps 4 and 5 keep the GPU busy);
    // step 6 finds it in the disassembler's cache.
    const int sm = device != nullptr ? device->cc_major * 10 + device->cc_minor : 0;
    std::vector<std::string> functions = sampled_functions(sampling);
    std::future<void> early_disassembly;
    if (home == SassHome::kOwnBinary)
        early_disassembly = disassemble_meanwhile(*kernel, functions, sm, tools);

    // 4. Per-instruction counts.
    step = Clock::now();
    ChosenCounters chosen;
    const SassMetricsResult counters = count_instructions(request.device, launch, chosen, profile);
    profile.counters_ms = common::ms_since(step);
    if (stops_everything(counters.error)) {
        profile.error = counters.error;
        return profile;
    }
    profile.counters_missing = counters_missing(counters, chosen);

    // 5. Kernel totals from the Range Profiler.
    step = Clock::now();
    ProfileOptions totals_options;
    totals_options.drop_unavailable = true;
    const KernelProfile totals = profiler.profile(totals_check_metrics(chosen), totals_options);
    profile.totals_ms = common::ms_since(step);
    profile.check = totals.check;
    if (profile.chip.empty()) profile.chip = totals.chip;
    if (stops_everything(totals.error)) {
        profile.error = totals.error;
        return profile;
    }
    const std::map<std::string, double> range_totals = totals_by_metric(totals);
    if (!totals.ok()) profile.totals_missing = totals.error.message;

    // 6. SASS text of the kernel's own cubin.
    step = Clock::now();
    SourceInputs inputs;
    inputs.kernel_id = kernel->id;
    inputs.sampling = &sampling;
    inputs.counters = &counters;
    inputs.chosen = chosen;
    inputs.range_totals = &range_totals;
    inputs.read_source = [&request](const std::string& path, std::string& text) {
        if (const auto known = request.sources.find(path); known != request.sources.end()) {
            text = known->second;
            return true;
        }
        return read_source_file(path, text);
    };
    for (const SassMetricRecord& record : counters.records) functions.push_back(record.function);
    const std::string no_nvdisasm =
        home == SassHome::kCubin ? list_cubin(user_cubin, tools, inputs, profile)
                                 : disassemble_functions(*kernel, functions, sm, tools, extraction,
                                                         early_disassembly, inputs, profile);
    join_source_profile(inputs, profile);
    if (profile.has_sass() && !profile.has_line_info()) {
        profile.line_info_missing = !no_nvdisasm.empty() ? no_nvdisasm : no_line_info(*kernel);
    }
    profile.disassembly_ms = common::ms_since(step);
    profile.total_ms = common::ms_since(started);
    return profile;
}

}  // namespace tclens::profiling
