#pragma once
// The Profile panel's content as plain data, no ImGui: metric cards from a KernelProfile, and
// the "Why are the tensor cores idle?" checklist: the conditions a GEMM must meet before the
// tensor cores take it (tensor_idle_checklist below lists them). Pure functions, tested on the
// CPU.

#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "profiling/profile_result.h"

namespace tclens::gui {

// One metric as a card: label and value big, unit and meaning (tooltip) from the catalogue.
struct MetricCard {
    std::string name;        // CUPTI name
    std::string label;       // "tensor pipe"
    std::string value_text;  // profiling::format_metric_value: "45.6 %", "1.23 ms"
    std::string unit;        // "%"; "" outside the catalogue
    std::string meaning;     // one sentence; "" outside the catalogue
    double value = 0;
};

// One card per profile.metrics entry, in order.
std::vector<MetricCard> metric_cards(const profiling::KernelProfile& profile);

// The title of a PM-sampling chart: the catalogue's `label` as it is for a live profile; for one
// shown from a recording made `recorded` (recording_date), its "(live)" (or, without one, its
// end) says so: "tensor pipe (live)" -> "tensor pipe (recorded 2026-11-25 23:33 UTC)".
std::string timeline_chart_title(const std::string& label, const std::string& recorded);

// The catalogue's tensor pipe % metric (HMMA/HGMMA cycles), the one the checklist watches.
inline constexpr const char* kTensorPipeMetric =
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active";
// Below this tensor pipe %, the tensor cores count as idle.
inline constexpr double kTensorIdlePct = 1.0;

// True when the checklist should show: the kernel's inputs are not f32 (it is meant to use the
// tensor cores) and the measured tensor pipe % is below kTensorIdlePct.
bool tensor_cores_idle(const kernels::KernelDescriptor& kernel, double tensor_pipe_pct);

struct ChecklistLine {
    std::string check;  // what must hold, e.g. "K is a multiple of 16"
    bool passed = false;
    std::string detail;  // why it passes or fails, with the fix when it fails
};

// The requirements checked against `kernel` and `problem`, in this order:
//   1. input type: A and B are TF32, FP16 or BF16 (FP32 never reaches the tensor cores);
//   2. tensor-core instruction: the kernel declares an MMA tile (cuBLAS references pass: cuBLAS
//      picks its own), i.e. it issues mma.sync / wmma / wgmma at all. This reads the descriptor,
//      not the SASS instruction mix;
//   3-5. M, N and K are multiples of 16 (FP16/BF16 on the H100, also applied to TF32);
//   6. alignment: every row of A (K elements) and of B (N elements) starts on a 16-byte boundary,
//      the buffers coming from cudaMalloc (256-byte aligned);
//   7. the kernel accepts the size (KernelDescriptor::can_run).
// Example: tf32 rung, 4096x4096x100 -> K line fails ("K = 100 is not a multiple of 16; pad K to
// 112"), and the alignment line passes (100 x 4 = 400 bytes per row of A).
std::vector<ChecklistLine> tensor_idle_checklist(const kernels::KernelDescriptor& kernel,
                                                 const kernels::GemmProblem& problem);

}  // namespace tclens::gui
