#include "kernels/bench.h"

#include <algorithm>
#include <cstdio>

#include "common/text.h"
#include "kernels/gpu_registry.h"
#include "kernels/problem_text.h"
#include "viz/roofline.h"

namespace tclens::kernels {
namespace {

const RunResult* find_result(const std::vector<BenchRow>& rows, const std::string& id,
                             const GemmProblem& p) {
    for (const BenchRow& row : rows) {
        const GemmProblem& q = row.result.problem;
        if (row.result.kernel_id == id && same_problem(q, p)) return &row.result;
    }
    return nullptr;
}

double ratio(const RunResult& result, const RunResult* base) {
    if (!result.counts() || base == nullptr || !base->counts()) return 0;
    return result.tflops / base->tflops;
}

}  // namespace

std::vector<GemmProblem> preset_problems(const std::string& name) {
    std::vector<GemmProblem> problems;
    if (name == "lab6") {
        for (std::int64_t m : {3072, 2048, 1024, 512, 256, 128, 64, 32, 16})
            problems.push_back({m, 3072, 3072});
    } else if (name == "square") {
        for (std::int64_t s : {512, 1024, 2048, 3072, 4096, 8192}) problems.push_back({s, s, s});
    } else if (name == "llm") {
        problems = {{4096, 14336, 4096},
                    {4096, 4096, 14336},
                    {8192, 8192, 1024},
                    {16, 8192, 8192},
                    {128, 8192, 8192}};
    }
    return problems;
}

const std::vector<std::string>& preset_list() {
    static const std::vector<std::string> names = {"lab6", "llm", "square"};
    return names;
}

std::string preset_names() { return common::join(preset_list(), ", "); }

std::vector<GemmProblem> parse_problems(const std::vector<std::string>& sizes,
                                        const std::string& preset, std::string& error) {
    error.clear();
    std::vector<GemmProblem> problems;
    for (const std::string& size : sizes) {
        const auto problem = parse_problem(size);
        if (!problem) {
            error = problem_error(size);
            return {};
        }
        problems.push_back(*problem);
    }
    if (!preset.empty()) {
        const std::vector<GemmProblem> named = preset_problems(preset);
        if (named.empty()) {
            error = "unknown preset '" + preset + "'; valid: " + preset_names();
            return {};
        }
        problems.insert(problems.end(), named.begin(), named.end());
    }
    return problems;
}

std::vector<const KernelDescriptor*> bench_kernels(const std::vector<std::string>& ids,
                                                   std::string& error, bool with_references) {
    std::vector<std::string> wanted;
    for (const std::string& id : ids) {
        const KernelDescriptor* kernel = find_gpu_kernel(id);
        if (kernel == nullptr) {
            error =
                "unknown kernel '" + id + "'; valid: " +
                common::join(all_gpu_kernels(), ", ",
                             [](const KernelDescriptor& k) -> const std::string& { return k.id; });
            return {};
        }
        wanted.push_back(kernel->id);
        if (!with_references) continue;
        if (!kernel->reference_id.empty()) wanted.push_back(kernel->reference_id);
        if (kernel->precision == Precision::kTF32 && kernel->rung > 0)
            wanted.push_back("cublas.sgemm");
    }
    std::vector<const KernelDescriptor*> kernels;
    for (const KernelDescriptor& kernel : all_gpu_kernels()) {
        if (std::find(wanted.begin(), wanted.end(), kernel.id) != wanted.end())
            kernels.push_back(&kernel);
    }
    error.clear();
    return kernels;
}

std::vector<const KernelDescriptor*> request_kernels(const BenchRequest& request,
                                                     std::string& error) {
    std::vector<std::string> ids = request.kernel_ids;
    if (request.with_references) {
        for (const KernelDescriptor* kernel : request.loaded) {
            if (!kernel->reference_id.empty()) ids.push_back(kernel->reference_id);
            if (kernel->precision == Precision::kTF32) ids.push_back("cublas.sgemm");
        }
    }
    std::vector<const KernelDescriptor*> kernels =
        bench_kernels(ids, error, request.with_references);
    if (!error.empty()) return {};
    kernels.insert(kernels.end(), request.loaded.begin(), request.loaded.end());
    return kernels;
}

std::string above_peak(const RunResult& result, const std::vector<PeakMeasurement>& peaks) {
    for (const PeakMeasurement& peak : peaks) {
        if (peak.precision != result.precision || peak.tflops <= 0 || !result.counts() ||
            result.tflops <= peak.tflops) {
            continue;
        }
        char text[240];
        std::snprintf(text, sizeof text,
                      "impossible: %.1f TFLOP/s is %.2fx this GPU's measured %s peak of %.1f "
                      "TFLOP/s (%s): the time does not hold the work",
                      result.tflops, result.tflops / peak.tflops, precision_name(peak.precision),
                      peak.tflops, peak.instruction.c_str());
        return text;
    }
    return "";
}

BenchReport run_bench(const BenchRequest& request, GemmRunner& runner,
                      const BenchProgress& progress) {
    BenchReport report;
    if (request.measure_peaks) {
        if (request.measured_instruction_peaks.empty()) {
            report.peak_error = measure_instruction_peaks(report.instruction_peaks);
        } else {
            report.instruction_peaks = request.measured_instruction_peaks;
        }
        if (report.peak_error.empty()) report.peaks = best_per_precision(report.instruction_peaks);
    }
    // A kernel of yours is held to the peaks even when the report leaves them out: measured once
    // per process (a watching worker builds version after version).
    std::vector<PeakMeasurement> unreported_peaks;
    const bool yours = std::any_of(request.loaded.begin(), request.loaded.end(),
                                   [](const KernelDescriptor* k) { return k->checked_timing; });
    if (!request.measure_peaks && yours) {
        static const std::vector<PeakMeasurement> once = [] {
            std::vector<PeakMeasurement> instructions;
            return measure_instruction_peaks(instructions).empty()
                       ? best_per_precision(instructions)
                       : std::vector<PeakMeasurement>{};
        }();
        unreported_peaks = once;
    }
    const std::vector<PeakMeasurement>& held_to =
        request.measure_peaks ? report.peaks : unreported_peaks;
    std::string error;
    const std::vector<const KernelDescriptor*> kernels = request_kernels(request, error);
    const int total = static_cast<int>(kernels.size() * request.problems.size());
    int index = 0;
    for (const GemmProblem& problem : request.problems) {
        for (const KernelDescriptor* kernel : kernels) {
            if (request.run.cancel != nullptr && request.run.cancel->load()) return report;
            if (progress) progress(index, total, *kernel, problem);
            ++index;
            BenchRow row;
            row.rung = kernel->rung;
            row.reference_id = kernel->reference_id;
            row.result = runner.run(*kernel, problem, request.run);
            report.rows.push_back(std::move(row));
        }
    }
    // No row counts above the peak of its precision: such a time cannot hold the work.
    for (BenchRow& row : report.rows) {
        if (const std::string why = above_peak(row.result, held_to); !why.empty()) {
            row.result.refuse(why);
        }
    }
    for (BenchRow& row : report.rows) {
        const GemmProblem& p = row.result.problem;
        row.pct_of_reference =
            row.reference_id.empty()
                ? (row.result.counts() ? 100.0 : 0.0)
                : 100.0 * ratio(row.result, find_result(report.rows, row.reference_id, p));
        if (row.result.precision == Precision::kTF32) {
            row.speedup_vs_sgemm = ratio(row.result, find_result(report.rows, "cublas.sgemm", p));
        }
        for (const PeakMeasurement& peak : report.peaks) {
            if (peak.precision == row.result.precision && peak.tflops > 0 && row.result.counts()) {
                row.pct_of_peak = 100.0 * row.result.tflops / peak.tflops;
            }
        }
    }
    return report;
}

double pct_of_memory_roof(const RunResult& result, double dram_bytes_per_s) {
    if (!result.counts() || result.median_ms <= 0 || dram_bytes_per_s <= 0) return 0;
    const GemmProblem& p = result.problem;
    const double bytes = viz::compulsory_bytes(p.m, p.n, p.k, storage_bytes(result.precision), 4);
    return 100.0 * bytes / (result.median_ms * 1e-3) / dram_bytes_per_s;
}

}  // namespace tclens::kernels
