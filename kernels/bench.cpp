#include "kernels/bench.h"

#include <algorithm>

#include "kernels/gpu_registry.h"

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

std::vector<const KernelDescriptor*> request_kernels(const BenchRequest& request,
                                                     std::string& error) {
    std::vector<std::string> ids = request.kernel_ids;
    if (request.with_references) {
        for (const KernelDescriptor* kernel : request.loaded) {
            if (!kernel->reference_id.empty()) ids.push_back(kernel->reference_id);
            if (kernel->precision == Precision::kTF32) ids.push_back("cublas.sgemm");
        }
    }
    std::vector<const KernelDescriptor*> kernels;
    for (const KernelDescriptor* described : bench_kernels(ids, error, request.with_references))
        kernels.push_back(find_gpu_kernel(described->id));
    if (!error.empty()) return {};
    kernels.insert(kernels.end(), request.loaded.begin(), request.loaded.end());
    return kernels;
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

}  // namespace tclens::kernels
