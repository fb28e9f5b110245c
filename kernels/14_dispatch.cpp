// Rung 14's descriptor: the rules (kernels/dispatch_rules.h) applied to a problem give the
// configuration that runs it, and its reason is the launch plan `tclens kernels --mnk` prints.
// Plain C++: the GPU launch is kernels/14_dispatch.cu.
#include "kernels/14_dispatch.h"

#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/registry.h"
#include "kernels/split_k_gemm.h"
#include "kernels/tile_map_spec.h"

namespace tclens::kernels {
namespace {

// Sides up to 2^30 pad to at most 2^30, which every configuration's index arithmetic takes.
constexpr std::int64_t kMaxDispatchSide = std::int64_t{1} << 30;

}  // namespace

KernelDescriptor split_k_descriptor(Precision precision) {
    KernelDescriptor d;
    d.id = std::string("split_k.") + precision_name(precision);
    d.rung = 14;
    d.title = "split-K: mma.sync + ldmatrix + 3-stage cp.async on 64 x 64 tiles, K in ranges";
    d.adds = "K cut into ranges, one CTA per (tile, range), f32 partial tiles summed in order";
    d.precision = precision;
    d.block_tile = {kSplitKBlockM, kSplitKBlockN, kSplitKBlockK};
    d.warp_tile = {kSplitKBlockM / kSplitKWarpsM, kSplitKBlockN / kSplitKWarpsN, 0};
    d.mma_tile = {16, 8, 16};
    d.stages = kSplitKStages;
    d.swizzle = "pad:16";
    d.schedule.raster = viz::RasterOrder::kRowMajor;
    d.schedule.instruction = "mma.sync.m16n8k16";
    d.schedule.copy_threads = kSplitKThreads;
    d.schedule.a_load = {kSplitKThreads / kSplitKAChunksPerRow, kSplitKAChunksPerRow};
    d.schedule.b_load = {kSplitKThreads / kSplitKBChunksPerRow, kSplitKBChunksPerRow};
    d.schedule.load_instruction = "cp.async 16 B";
    d.schedule.pipeline_note =
        "each tile is computed by one CTA per K range (blockIdx.z); a second kernel sums the "
        "ranges' f32 partial tiles into C in range order (the map draws one range)";
    d.block_tile_of = row_major_block_tile;  // blockIdx.x -> (x / tiles_n, x % tiles_n)
    d.layout_ids = {"mma.m16n8k16." + std::string(precision_name(precision)), "ldmatrix.x4",
                    "ldmatrix.x4.trans"};
    d.threads = kSplitKThreads;
    d.min_sm = 80;
    d.reference_id = std::string("cublas.") + precision_name(precision);
    d.size_multiples = {1, 8, 8};
    d.can_run = split_k_can_run;
    return d;
}

KernelDescriptor dispatch_configuration(const DispatchChoice& choice, Precision precision,
                                        int sms) {
    if (choice.config == DispatchConfig::kSplitK) return split_k_descriptor(precision);
    const KernelDescriptor* rung = find_kernel(dispatch_config_id(choice.config, precision));
    if (rung == nullptr) return KernelDescriptor{};
    return rung->for_problem ? rung->for_problem(choice.padded, sms) : *rung;
}

std::string dispatch_configuration_can_run(const DispatchChoice& choice, Precision precision) {
    if (choice.config == DispatchConfig::kSplitK) return split_k_can_run(choice.padded);
    const std::string id = dispatch_config_id(choice.config, precision);
    const KernelDescriptor* rung = find_kernel(id);
    if (rung == nullptr) return id + " is not registered";
    return rung->can_run(choice.padded);
}

// The 16-bit inputs' descriptor, "dispatch.f16" / ".bf16". Its own tile fields are rung 11's
// (the configuration of the large problems); for_problem gives what runs a given problem.
// Any other precision: rung 11's refusing descriptor (set_sixteen_bit_inputs), rung 14.
KernelDescriptor dispatch_kernel(Precision precision) {
    KernelDescriptor d = wgmma_persistent_kernel(precision);
    d.rung = 14;
    d.title =
        "dispatch: rung 9, 11, 12 or split-K per shape, on zero-padded copies where N or K "
        "is not a multiple of 8";
    d.adds =
        "a configuration per (M, N, K) by rules from measurements, with its reason (kernels "
        "--mnk); any M, N, K";
    d.traced = TracedLaunch{};  // no trace points of its own
    d.launch = nullptr;         // attach_dispatch_launches (14_dispatch.cu)
    if (d.id.empty()) return d;
    d.id = std::string("dispatch.") + precision_name(precision);
    d.size_multiples = {1, 1, 1};
    // Every configuration takes N and K multiples of 8 up to 2^30 (the padded problem), so the
    // choice on the default SM count answers for every SM count.
    d.can_run = [precision](const GemmProblem& problem) -> std::string {
        if (problem.m > kMaxDispatchSide || problem.n > kMaxDispatchSide ||
            problem.k > kMaxDispatchSide) {
            return "M, N and K must each be at most 1073741824 (32-bit index arithmetic)";
        }
        return dispatch_configuration_can_run(choose_dispatch(problem, kDefaultPersistentSms),
                                              precision);
    };
    d.launch_plan = [](const GemmProblem& problem) {
        return choose_dispatch(problem, kDefaultPersistentSms).reason;
    };
    d.for_problem = [precision](const GemmProblem& problem, int sms) {
        return dispatch_configuration(choose_dispatch(problem, sms), precision, sms);
    };
    return d;
}

}  // namespace tclens::kernels
