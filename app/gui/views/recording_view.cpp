#include "app/gui/views/recording_view.h"

#include <algorithm>
#include <filesystem>

#include "app/gui/views/user_kernel_runs.h"
#include "app/worker/worker_mix.h"
#include "common/text.h"
#include "kernels/instruction_mix.h"
#include "tclens_version.h"

namespace tclens::gui {
namespace {

bool bench_ran(const BenchResults* bench) {
    return bench != nullptr && bench->error.empty() && !bench->report.rows.empty();
}

bool profiled(const LiveProfile* live) {
    return live != nullptr && (live->has_profile() || live->timeline);
}

bool built_yours(const UserKernels* yours) {
    return yours != nullptr && !user_kernel_results(*yours).empty();
}

// The session measured something on this machine's GPU.
bool has_live_results(const profiling::SystemReport* system, const BenchResults* bench,
                      const LiveProfile* live, const UserKernels* yours) {
    return system != nullptr && system->has_gpu() &&
           (bench_ran(bench) || profiled(live) || built_yours(yours));
}

}  // namespace

std::string recording_date(const profiling::Recording& recording) {
    // "2026-11-22T10:00:00Z" -> "2026-11-22 10:00 UTC"
    const std::string& t = recording.created_utc;
    return t.size() >= 16 && t[10] == 'T' ? t.substr(0, 10) + " " + t.substr(11, 5) + " UTC"
                                          : (t.empty() ? std::string("unknown date") : t);
}

std::string recording_caption(const profiling::Recording& recording) {
    const std::string gpu =
        recording.system.has_gpu() ? recording.system.devices.front().name : std::string("no GPU");
    return gpu + ", " + recording_date(recording);
}

std::string recording_origin(const std::string& path, const profiling::Recording& recording) {
    std::vector<std::string> parts;  // what made it, the parts the recording has
    if (!recording.system.driver_version.empty()) {
        parts.push_back("driver " + recording.system.driver_version);
    }
    if (recording.system.runtime_version > 0) {
        parts.push_back("CUDA runtime " +
                        profiling::format_cuda_version(recording.system.runtime_version));
    }
    if (!recording.tclens_version.empty()) parts.push_back("tclens " + recording.tclens_version);
    const std::string made_with = common::join(parts, ", ");
    return std::filesystem::path(path).filename().string() + ": recorded on " +
           recording_caption(recording) + (made_with.empty() ? "" : " (" + made_with + ")");
}

std::string recording_status(const std::string& path, const profiling::Recording& recording) {
    return "showing " + std::filesystem::path(path).filename().string() + ": " +
           recording_caption(recording) + " (recorded, not live)";
}

std::shared_ptr<const BenchResults> recorded_bench(const profiling::Recording& recording) {
    auto results = std::make_shared<BenchResults>();
    results->device = recording_caption(recording) + ", recorded";
    results->report.rows = recording.bench;
    results->report.peaks = recording.peaks;
    results->report.peak_error = recording.peak_error;
    results->workers = recording.workers;
    results->row_worker = recording.bench_worker;
    results->notes = recording.notes;
    for (const kernels::BenchRow& row : recording.bench) {
        std::vector<kernels::GemmProblem>& problems = results->request.problems;
        const kernels::GemmProblem& problem = row.result.problem;
        if (std::none_of(problems.begin(), problems.end(), [&](const kernels::GemmProblem& p) {
                return kernels::same_problem(p, problem);
            })) {
            problems.push_back(problem);
        }
        std::vector<std::string>& ids = results->request.kernels;
        if (std::find(ids.begin(), ids.end(), row.result.kernel_id) == ids.end()) {
            ids.push_back(row.result.kernel_id);
        }
    }
    return results;
}

std::vector<std::string> recorded_profile_kernels(const profiling::Recording& recording) {
    std::vector<std::string> ids;
    const auto add = [&ids](const std::string& id) {
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    };
    for (const profiling::KernelProfile& profile : recording.profiles) add(profile.kernel_id);
    for (const profiling::KernelTimeline& timeline : recording.timelines) add(timeline.kernel_id);
    return ids;
}

std::shared_ptr<const LiveProfile> recorded_profile(const profiling::Recording& recording,
                                                    const std::vector<std::string>& kernel_ids) {
    auto live = std::make_shared<LiveProfile>();
    live->device = recording_caption(recording) + ", recorded";
    live->recorded = recording_date(recording);
    live->request.history = 1;
    const profiling::KernelTimeline* timeline = nullptr;
    for (const std::string& id : kernel_ids) {
        const auto profile =
            std::find_if(recording.profiles.begin(), recording.profiles.end(),
                         [&](const profiling::KernelProfile& p) { return p.kernel_id == id; });
        if (profile != recording.profiles.end()) {
            KernelLive kernel;
            kernel.kernel_id = id;
            kernel.error = profile->error.message;
            kernel.updates = 1;
            kernel.latest = std::make_shared<const profiling::KernelProfile>(*profile);
            for (const profiling::MetricValue& metric : profile->metrics) {
                kernel.history.push_back({metric.value});
            }
            live->request.kernel_ids.push_back(id);
            live->request.problem = profile->problem;
            live->updates += 1;
            live->kernels.push_back(std::move(kernel));
        }
        const auto found =
            std::find_if(recording.timelines.begin(), recording.timelines.end(),
                         [&](const profiling::KernelTimeline& t) { return t.kernel_id == id; });
        if (timeline == nullptr && found != recording.timelines.end()) timeline = &*found;
    }
    if (live->kernels.empty() && timeline == nullptr) return nullptr;
    if (live->kernels.size() == 1) live->error = live->kernels.front().error;

    if (timeline != nullptr) {
        if (live->kernels.empty()) {
            live->request.mode = ProfileMode::kTimeline;
            live->request.kernel_ids = {timeline->kernel_id};
            live->request.problem = timeline->problem;
            live->error = timeline->error.message;
        }
        live->request.history = std::max<std::size_t>(1, timeline->samples.size());
        live->request.interval_ns = timeline->interval_ns;
        live->timeline_metrics = timeline->metrics;
        live->timeline_history.assign(timeline->metrics.size(), {});
        for (const profiling::PmSample& sample : timeline->samples) {
            for (std::size_t m = 0; m < sample.values.size() && m < timeline->metrics.size(); ++m) {
                live->timeline_history[m].push_back(sample.values[m]);
            }
        }
        live->samples = timeline->samples.size();
        live->timeline = std::make_shared<const profiling::KernelTimeline>(*timeline);
    }
    return live;
}

bool session_has_recording(const profiling::Recording* open, const profiling::SystemReport* system,
                           const BenchResults* bench, const LiveProfile* live,
                           const UserKernels* yours) {
    return open != nullptr || has_live_results(system, bench, live, yours);
}

std::optional<profiling::Recording> session_recording(
    const profiling::Recording* open, const profiling::SystemReport* system,
    const BenchResults* bench, const LiveProfile* live, const std::string& created_utc,
    const UserKernels* yours, const worker::HelloResult* hello) {
    if (!has_live_results(system, bench, live, yours)) {
        if (open == nullptr) return std::nullopt;
        return *open;
    }
    profiling::Recording recording;
    recording.tclens_version = TCLENS_VERSION;
    recording.created_utc = created_utc;
    recording.command = "tclens (GUI): File > Save recording as";
    recording.system = *system;
    if (bench_ran(bench)) {
        recording.peaks = bench->report.peaks;
        recording.peak_error = bench->report.peak_error;
        recording.bench = bench->report.rows;
    }
    if (live != nullptr) {
        for (const KernelLive& kernel : live->kernels) {
            if (kernel.latest && kernel.latest->ok()) recording.profiles.push_back(*kernel.latest);
        }
    }
    if (live != nullptr && live->timeline) recording.timelines.push_back(*live->timeline);
    if (yours != nullptr) {
        UserKernelResults results = user_kernel_results(*yours);
        for (kernels::BenchRow& row : results.rows) recording.bench.push_back(std::move(row));
        for (profiling::KernelProfile& profile : results.profiles) {
            if (profile.ok()) recording.profiles.push_back(std::move(profile));
        }
        for (profiling::KernelTimeline& timeline : results.timelines) {
            if (timeline.ok()) recording.timelines.push_back(std::move(timeline));
        }
    }
    // The bench's rows name the workers that ran them; the rest of the rows (kernels of yours)
    // come from this machine's worker, the first.
    if (bench_ran(bench) && !bench->workers.empty()) {
        recording.workers = bench->workers;
        recording.bench_worker = bench->row_worker;
        recording.notes = bench->notes;
    } else {
        recording.workers = {profiling::RecordingWorker{"", *system}};
    }
    recording.bench_worker.resize(recording.bench.size(), 0);
    recording.traces_missing = "saved from the GUI, which keeps no warp traces yet (tclens record)";
    // The instruction mix of every kernel it holds, for the live GPU's cubin.
    std::vector<std::string> ids;
    for (const kernels::BenchRow& row : recording.bench) ids.push_back(row.result.kernel_id);
    for (const profiling::KernelProfile& profile : recording.profiles) {
        ids.push_back(profile.kernel_id);
    }
    for (const profiling::KernelTimeline& timeline : recording.timelines) {
        ids.push_back(timeline.kernel_id);
    }
    recording.instruction_mixes = worker::worker_mixes(hello, ids, worker::mix_sm(*system),
                                                       recording.instruction_mixes_missing);
    // Kernels of yours carry the mix the worker read from their cubins.
    if (yours != nullptr) {
        profiling::add_missing_mixes(recording.instruction_mixes,
                                     user_kernel_results(*yours).mixes);
    }
    if (!recording.instruction_mixes.empty()) recording.instruction_mixes_missing.clear();
    return recording;
}

ShownMix shown_instruction_mix(const profiling::Recording* recording,
                               const worker::HelloResult* hello, const std::string& kernel_id,
                               int sm) {
    if (recording != nullptr) {
        if (const profiling::RecordedInstructionMix* recorded =
                profiling::find_mix(recording->instruction_mixes, kernel_id)) {
            return {recorded->mix,
                    "SASS of " + kernel_id + " (" + recorded->mix.arch +
                        ", recorded): " + kernels::instruction_mix_text(recorded->mix)};
        }
    }
    worker::KernelMix shown = worker::worker_mix(hello, kernel_id, sm);
    return {std::move(shown.mix), std::move(shown.line)};
}

}  // namespace tclens::gui
