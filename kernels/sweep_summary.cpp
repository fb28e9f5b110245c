#include "kernels/sweep_summary.h"

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "kernels/registry.h"
#include "kernels/tma_tile_limits.h"
#include "kernels/wave_slots.h"
#include "viz/roofline.h"

namespace tclens::kernels {
namespace {

// A modelled loss costs at least this share of the time before it is named.
constexpr double kNamedLoss = 0.10;

struct Loss {
    double share = 0;  // of the time lost, 0..1
    std::string text;
};

}  // namespace

std::string loss_reason(const KernelDescriptor& described, const GemmProblem& problem, int sms,
                        double ridge_flop_per_byte) {
    const KernelDescriptor kernel =
        described.for_problem && sms > 0 ? described.for_problem(problem, sms) : described;
    const TileShape tile = kernel.block_tile;
    std::vector<Loss> losses;
    if (tile.m > 0 && tile.n > 0 && sms > 0) {
        const std::int64_t tiles_m = tiles_covering(problem.m, tile.m);
        const std::int64_t tiles_n = tiles_covering(problem.n, tile.n);
        const std::int64_t tiles = tiles_m * tiles_n;
        // The CTAs: one per tile, or one per (tile, K range) where the kernel splits K.
        const int ranges = std::max(1, kernel.k_ranges);
        const std::int64_t ctas = tiles * ranges;
        const std::string work =
            ranges == 1 ? common::format_text("%lld tiles", (long long)tiles)
                        : common::format_text("%lld tiles x %d K ranges", (long long)tiles, ranges);
        // A wave: `slots` CTAs, ctas_per_sm on each SM.
        const int per_sm = std::max(1, kernel.ctas_per_sm);
        const std::int64_t slots = wave_slots(sms, per_sm);
        const std::string where = wave_slots_text(sms, per_sm);
        if (ctas < slots) {
            losses.push_back(
                {1.0 - double(ctas) / double(slots),
                 common::format_text("%s of %d x %d on %s: %lld %s idle", work.c_str(), tile.m,
                                     tile.n, where.c_str(), (long long)(slots - ctas),
                                     per_sm == 1 ? "SMs" : "CTA slots")});
        } else {
            const std::int64_t rounds = tiles_covering(ctas, slots);  // rounds of `slots` CTAs
            const double filled = double(ctas) / double(rounds * slots);
            losses.push_back(
                {1.0 - filled,
                 common::format_text("%s = %.2f waves on %s: %s %.0f %% filled", work.c_str(),
                                     double(ctas) / double(slots), where.c_str(),
                                     common::count_text(rounds, "round").c_str(), 100.0 * filled)});
        }
        const double covered = double(tiles_m * tile.m) * double(tiles_n * tile.n);
        const double output = double(problem.m) * double(problem.n);
        losses.push_back(
            {1.0 - output / covered,
             common::format_text("tiles of %d x %d cover %.2fx the output (M = %lld, N = %lld)",
                                 tile.m, tile.n, covered / output, (long long)problem.m,
                                 (long long)problem.n)});
    }
    if (tile.k > 0 && kernel.stages > 1) {
        // Per K range: a split kernel's CTA loops over its range's K tiles only.
        const int ranges = std::max(1, kernel.k_ranges);
        const std::int64_t k_tiles = tiles_covering(tiles_covering(problem.k, tile.k), ranges);
        if (k_tiles < kernel.stages) {
            const std::string where =
                ranges == 1
                    ? common::format_text("K = %lld", (long long)problem.k)
                    : common::format_text("K = %lld in %d ranges", (long long)problem.k, ranges);
            losses.push_back(
                {1.0 - double(k_tiles) / kernel.stages,
                 common::format_text("%s: %s of %d, fewer than the %d stages", where.c_str(),
                                     common::count_text(k_tiles, "K tile").c_str(), tile.k,
                                     kernel.stages)});
        }
    }
    const auto biggest =
        std::max_element(losses.begin(), losses.end(),
                         [](const Loss& a, const Loss& b) { return a.share < b.share; });
    if (biggest != losses.end() && biggest->share >= kNamedLoss) return biggest->text;

    const double intensity = viz::arithmetic_intensity(
        viz::gemm_flops(problem.m, problem.n, problem.k),
        viz::compulsory_bytes(problem.m, problem.n, problem.k, storage_bytes(kernel.precision), 4));
    if (ridge_flop_per_byte > 0 && intensity < ridge_flop_per_byte) {
        return common::format_text("memory-bound: %.0f FLOP/B, below the ridge of %.0f FLOP/B",
                                   intensity, ridge_flop_per_byte);
    }
    return "no modelled loss (tiles, waves, padding, K, memory): profile it";
}

SweepSummary summarize_sweep(const BenchReport& report, const std::vector<std::string>& kernel_ids,
                             int sms, double ridge_flop_per_byte, std::size_t worst) {
    SweepSummary summary;
    const auto shape_of = [&](const GemmProblem& problem) -> SweepShape& {
        for (SweepShape& shape : summary.shapes) {
            if (same_problem(shape.problem, problem)) return shape;
        }
        summary.shapes.push_back({problem, "", std::nullopt, "", ""});
        return summary.shapes.back();
    };
    for (const BenchRow& row : report.rows) {
        const RunResult& result = row.result;
        if (std::find(kernel_ids.begin(), kernel_ids.end(), result.kernel_id) == kernel_ids.end())
            continue;
        SweepShape& shape = shape_of(result.problem);
        if (result.counts() && row.pct_of_reference > 0) {
            const double ratio = row.pct_of_reference / 100.0;
            if (!shape.ratio || ratio > *shape.ratio) {
                shape.ratio = ratio;
                shape.best_id = result.kernel_id;
            }
        } else if (!shape.ratio && shape.reason.empty()) {
            shape.reason = result.kernel_id + ": " + run_status(result);
        }
    }
    double log_sum = 0;
    summary.minimum = summary.shapes.empty() ? 0 : 1e300;
    for (SweepShape& shape : summary.shapes) {
        if (shape.ratio) {
            ++summary.shapes_run;
            log_sum += std::log(*shape.ratio);
            if (const KernelDescriptor* kernel = find_kernel(shape.best_id)) {
                shape.reason = loss_reason(*kernel, shape.problem, sms, ridge_flop_per_byte);
                if (kernel->launch_plan) shape.plan = kernel->launch_plan(shape.problem);
            }
        }
        summary.minimum = std::min(summary.minimum, shape.ratio.value_or(0.0));
    }
    summary.geomean = summary.shapes_run > 0 ? std::exp(log_sum / summary.shapes_run) : 0;
    summary.worst = summary.shapes;
    std::stable_sort(summary.worst.begin(), summary.worst.end(),
                     [](const SweepShape& a, const SweepShape& b) {
                         return a.ratio.value_or(-1.0) < b.ratio.value_or(-1.0);
                     });
    if (summary.worst.size() > worst) summary.worst.resize(worst);
    return summary;
}

}  // namespace tclens::kernels
