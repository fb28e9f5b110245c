#include "kernels/bench_result.h"

#include <cstdio>

#include "common/text.h"
#include "kernels/problem_text.h"
#include "viz/roofline.h"

namespace tclens::kernels {

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

double pct_of_memory_roof(const RunResult& result, double dram_bytes_per_s) {
    if (!result.counts() || result.median_ms <= 0 || dram_bytes_per_s <= 0) return 0;
    const GemmProblem& p = result.problem;
    const double bytes = viz::compulsory_bytes(p.m, p.n, p.k, storage_bytes(result.precision), 4);
    return 100.0 * bytes / (result.median_ms * 1e-3) / dram_bytes_per_s;
}

}  // namespace tclens::kernels
