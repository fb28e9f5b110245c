#include "app/gui/views/profile_view.h"

#include "profiling/metric_catalogue.h"

namespace tclens::gui {
namespace {

constexpr std::int64_t kTileMultiple = 16;
constexpr std::int64_t kAlignBytes = 16;

ChecklistLine multiple_line(char side, std::int64_t value) {
    const std::string name(1, side);
    const std::string number = std::to_string(value);
    if (value % kTileMultiple == 0) {
        return {name + " is a multiple of 16", true, name + " = " + number};
    }
    const std::int64_t padded = (value / kTileMultiple + 1) * kTileMultiple;
    return {name + " is a multiple of 16", false,
            name + " = " + number + " is not; pad " + name + " to " + std::to_string(padded) +
                " (zeros) so whole 16-wide tiles cover it"};
}

// "A rows: K x 2 = 200 bytes" and whether that is a multiple of 16.
std::string row_text(const char* matrix, char side, std::int64_t elements, int bytes) {
    return std::string(matrix) + " rows: " + side + " x " + std::to_string(bytes) + " = " +
           std::to_string(elements * bytes) + " bytes";
}

}  // namespace

std::string timeline_chart_title(const std::string& label, const std::string& recorded) {
    if (recorded.empty()) return label;
    const std::string live = " (live)";
    const bool ends_live = label.size() >= live.size() &&
                           label.compare(label.size() - live.size(), live.size(), live) == 0;
    return (ends_live ? label.substr(0, label.size() - live.size()) : label) + " (recorded " +
           recorded + ")";
}

std::vector<MetricCard> metric_cards(const profiling::KernelProfile& profile) {
    std::vector<MetricCard> cards;
    for (const profiling::MetricValue& metric : profile.metrics) {
        MetricCard card;
        card.name = metric.name;
        card.label = metric.label.empty() ? metric.name : metric.label;
        card.unit = metric.unit;
        card.value = metric.value;
        card.value_text = profiling::format_metric_value(metric.value, metric.unit);
        if (const profiling::MetricInfo* info = profiling::find_metric(metric.name)) {
            card.meaning = info->meaning;
        }
        cards.push_back(std::move(card));
    }
    return cards;
}

bool tensor_cores_idle(const kernels::KernelDescriptor& kernel, double tensor_pipe_pct) {
    return kernel.precision != kernels::Precision::kF32 && tensor_pipe_pct < kTensorIdlePct;
}

std::vector<ChecklistLine> tensor_idle_checklist(const kernels::KernelDescriptor& kernel,
                                                 const kernels::GemmProblem& problem) {
    std::vector<ChecklistLine> lines;
    const std::string type = kernels::precision_name(kernel.precision);
    if (kernel.precision == kernels::Precision::kF32) {
        lines.push_back({"inputs are TF32, FP16 or BF16", false,
                         "A and B are f32: FP32 multiplies run on the FMA pipe, never on the "
                         "tensor cores; use TF32 (same storage), FP16 or BF16"});
    } else {
        lines.push_back({"inputs are TF32, FP16 or BF16", true, "A and B are " + type});
    }

    const bool has_mma = kernel.mma_tile.m > 0 && kernel.mma_tile.n > 0 && kernel.mma_tile.k > 0;
    if (kernel.rung == 0) {
        lines.push_back({"kernel issues tensor-core instructions", true,
                         "cuBLAS chooses its own kernel; its name shows which"});
    } else if (has_mma) {
        lines.push_back({"kernel issues tensor-core instructions", true,
                         "its MMA tile is " + std::to_string(kernel.mma_tile.m) + "x" +
                             std::to_string(kernel.mma_tile.n) + "x" +
                             std::to_string(kernel.mma_tile.k)});
    } else {
        lines.push_back({"kernel issues tensor-core instructions", false,
                         "it has no MMA tile: every multiply-add is an FMA; pick a wmma, "
                         "mma.sync or wgmma rung"});
    }

    lines.push_back(multiple_line('M', problem.m));
    lines.push_back(multiple_line('N', problem.n));
    lines.push_back(multiple_line('K', problem.k));

    const int bytes = kernels::storage_bytes(kernel.precision);
    const bool a_aligned = problem.k * bytes % kAlignBytes == 0;
    const bool b_aligned = problem.n * bytes % kAlignBytes == 0;
    std::string detail =
        row_text("A", 'K', problem.k, bytes) + ", " + row_text("B", 'N', problem.n, bytes);
    if (a_aligned && b_aligned) {
        detail += "; buffers from cudaMalloc (256-byte aligned)";
    } else {
        detail += ": a row that is not a multiple of 16 bytes starts unaligned; pad " +
                  std::string(a_aligned ? "N" : "K") + " to a multiple of " +
                  std::to_string(kAlignBytes / bytes);
    }
    lines.push_back({"rows start 16-byte aligned", a_aligned && b_aligned, detail});

    const std::string reason = kernel.can_run ? kernel.can_run(problem) : "";
    lines.push_back({"kernel accepts this size", reason.empty(),
                     reason.empty() ? "can_run has no objection" : reason});
    return lines;
}

}  // namespace tclens::gui
