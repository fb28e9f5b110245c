// Times every configuration rung 14 could pick for each shape given, beside its own choice and
// same-run cuBLAS (cuBLASLt for e4m3), through the runner (verified first, timed behind the stream
// gate): the measurements that rung 14's rules (kernels/dispatch_rules.cpp,
// kernels/fp8_dispatch_rules.cpp) are derived from.
//   dispatch_candidates [bf16|f16|e4m3] [--only NAME] MxNxK [MxNxK ...]
// (--only: the configurations named exactly NAME, "rung 9 64x64 deep", and no rung 14 row: for a
// profiler's launch count; a NAME no configuration of a shape has, or a shape the reference
// cannot run (e4m3 K not a multiple of 16 for cuBLASLt), is an error before any GPU work) prints
// one markdown row per (shape, configuration): its median, its % of cuBLAS, and the line the runner
// gives where it did not count. The configurations: kernels::dispatch_candidates
// (kernels/14_dispatch.h). Rung 14's row names its choice for this GPU's SM count. Exit 0, or 1
// with one line on stderr.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "kernels/14_dispatch.h"
#include "kernels/gpu_registry.h"
#include "kernels/ladder_launches.h"
#include "kernels/problem_text.h"
#include "kernels/runner.h"

namespace {

using namespace tclens::kernels;

int fail(const std::string& line) {
    std::fprintf(stderr, "dispatch_candidates: %s\n", line.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    int first = 1;
    Precision precision = Precision::kBF16;
    if (argc > 1) {
        const std::string name = argv[1];
        if (name == "bf16" || name == "f16" || name == "e4m3") {
            precision = name == "f16"    ? Precision::kF16
                        : name == "e4m3" ? Precision::kE4M3
                                         : Precision::kBF16;
            first = 2;
        }
    }
    std::string only;
    if (first < argc && std::string(argv[first]) == "--only") {
        if (first + 1 < argc) only = argv[first + 1];
        first += 2;
    }
    if (first >= argc) {
        return fail("usage: dispatch_candidates [bf16|f16|e4m3] [--only NAME] MxNxK [MxNxK ...]");
    }
    const std::string suffix = std::string(".") + precision_name(precision);
    const KernelDescriptor* dispatch = find_gpu_kernel("dispatch" + suffix);
    const KernelDescriptor* cublas =
        dispatch == nullptr ? nullptr : find_gpu_kernel(dispatch->reference_id);
    if (cublas == nullptr || dispatch == nullptr) return fail("no cuBLAS or rung 14 of " + suffix);
    // Every shape, the reference's acceptance of it, and with --only a configuration of that name
    // for each, before any GPU work.
    std::vector<GemmProblem> problems;
    for (int i = first; i < argc; ++i) {
        const std::optional<GemmProblem> problem = parse_problem(argv[i]);
        if (!problem) return fail(problem_error(argv[i]));
        if (const std::string refused = cublas->can_run(*problem); !refused.empty()) {
            return fail(argv[i] + (": " + cublas->id + " cannot run it: ") + refused);
        }
        const std::vector<DispatchCandidate> candidates = dispatch_candidates(*problem, precision);
        if (!only.empty() && std::none_of(candidates.begin(), candidates.end(),
                                          [&](const auto& c) { return c.name == only; })) {
            return fail("--only '" + only + "': no configuration of " + argv[i] +
                        " has that name (\"rung 9 64x64 deep split 2\", \"rung 11\", ...)");
        }
        problems.push_back(*problem);
    }
    GemmRunner runner;
    if (!runner.init_error().empty()) return fail(runner.init_error());
    int device = 0;
    int sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        return fail("cannot ask the GPU its SM count");
    }
    RunOptions options;
    options.warmup_runs = 2;
    options.timed_runs = 20;
    std::printf(
        "| shape | configuration | median us | %% of cuBLAS | note |\n|---|---|---|---|---|\n");
    for (int i = first; i < argc; ++i) {
        const GemmProblem* problem = &problems[static_cast<std::size_t>(i - first)];
        const RunResult reference = runner.run(*cublas, *problem, options);
        if (!reference.counts())
            return fail(argv[i] + std::string(": cuBLAS: ") + run_status(reference));
        const auto row = [&](const std::string& name, const RunResult& r) {
            if (!r.counts()) {
                std::printf("| %s | %s | - | - | %s |\n", argv[i], name.c_str(),
                            run_status(r).c_str());
                return;
            }
            std::printf("| %s | %s | %.2f | %.1f | |\n", argv[i], name.c_str(), r.median_ms * 1e3,
                        100 * reference.median_ms / r.median_ms);
        };
        row("cuBLAS", reference);
        if (only.empty()) {
            const DispatchChoice chosen = choose_dispatch_for(precision, *problem, sms);
            row("rung 14: " + chosen.reason, runner.run(*dispatch, *problem, options));
        }
        for (const auto& [name, choice] : dispatch_candidates(*problem, precision)) {
            if (!only.empty() && name != only) continue;
            KernelDescriptor candidate = *dispatch;
            candidate.id = "candidate" + suffix;
            candidate.launch = [choice = choice, precision](const GemmOperands& operands,
                                                            GpuStream stream) {
                return dispatch_choice_launch(choice, precision, operands, stream);
            };
            row(name, runner.run(candidate, *problem, options));
        }
        std::fflush(stdout);
    }
    return 0;
}
