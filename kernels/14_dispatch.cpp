// Rung 14's descriptors: the rules (kernels/dispatch_rules.h, kernels/fp8_dispatch_rules.h)
// applied to a problem give the configuration that runs it, and its reason is the launch plan
// `tclens kernels --mnk` prints. Plain C++: the GPU launch is kernels/14_dispatch.cu.
#include "kernels/14_dispatch.h"

#include <string>
#include <utility>
#include <vector>

#include "kernels/13_wgmma_fp8.h"
#include "kernels/block_order.h"
#include "kernels/fp8_dispatch_rules.h"
#include "kernels/ladder.h"
#include "kernels/registry.h"
#include "kernels/short_k_gemm.h"
#include "kernels/sixteen_bit_rung.h"
#include "kernels/split_k_gemm.h"
#include "kernels/tile_map_spec.h"
#include "kernels/tma_rung_descriptor.h"

namespace tclens::kernels {
namespace {

// Sides up to 2^30 pad to at most 2^30, which every configuration's index arithmetic takes.
constexpr std::int64_t kMaxDispatchSide = std::int64_t{1} << 30;

// Rung 14's own fields of `d` for `precision`'s rules: id "dispatch.<precision>", any size up to
// 2^30 (N and K padded), the reason line as launch plan, what runs a problem as for_problem.
// The choice on the default SM count answers can_run for every SM count: every configuration
// takes its padded problem whatever the SM count.
void make_dispatch(KernelDescriptor& d, Precision precision) {
    d.id = std::string("dispatch.") + precision_name(precision);
    d.size_multiples = {1, 1, 1};
    d.can_run = [precision](const GemmProblem& problem) -> std::string {
        if (problem.m > kMaxDispatchSide || problem.n > kMaxDispatchSide ||
            problem.k > kMaxDispatchSide) {
            return "M, N and K must each be at most 1073741824 (32-bit index arithmetic)";
        }
        return dispatch_configuration_can_run(
            choose_dispatch_for(precision, problem, kDefaultPersistentSms), precision);
    };
    d.launch_plan = [precision](const GemmProblem& problem) {
        return choose_dispatch_for(precision, problem, kDefaultPersistentSms).reason;
    };
    d.for_problem = [precision](const GemmProblem& problem, int sms) {
        return dispatch_configuration(choose_dispatch_for(precision, problem, sms), precision, sms);
    };
}

}  // namespace

KernelDescriptor split_k_descriptor(Precision precision, Rung9Tile tile, int splits) {
    KernelDescriptor d = wgmma_tma_tile_descriptor(precision, tile);  // tiles, stages, schedule
    d.id = std::string("split_k.") + precision_name(precision);
    d.rung = 14;
    d.title = "split-K: rung 9's TMA + wgmma " + std::to_string(d.block_tile.m) + " x " +
              std::to_string(d.block_tile.n) + " tiles, K in " + std::to_string(splits) + " ranges";
    d.k_ranges = splits;
    d.adds = "K cut into ranges, one CTA per (tile, range), f32 partial tiles summed in order";
    d.schedule.pipeline_note =
        "each tile is computed by one CTA per K range (blockIdx.y), rung 9's pipeline over the "
        "range's K tiles; a second kernel sums the ranges' f32 partial tiles into C in range "
        "order (the map draws one range)";
    d.can_run = [tile, precision](const GemmProblem& problem) {
        return split_k_can_run(problem, tile, precision);
    };
    d.traced = {};  // the configuration has no launch of its own (rung 14 launches it)
    return d;
}

KernelDescriptor short_k_descriptor(Precision precision) {
    using C = ShortKConfig;
    KernelDescriptor d;
    d.rung = 14;
    d.title =
        "short-K GEMM: A and B read by every thread into rung 9's swizzled stage, two "
        "warpgroups of wgmma m64n128k16, any N, K <= " +
        std::to_string(kShortKMaxK);
    d.adds = "no padded copies for N or K that TMA cannot stride: 2-byte reads, any alignment";
    describe_tma_rung<C>(d, 0, C::kWarpgroups, 16);  // both warpgroups load and multiply
    d.size_multiples = {1, 1, 1};
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = C::kGroupM;
    d.schedule.load = viz::LoadKind::kThreads;
    d.schedule.unit_bytes = 2;
    d.schedule.copy_threads = C::kThreads;
    d.schedule.a_load = {C::kARowsPerRead, C::kBlockK};
    d.schedule.b_load = {C::kBRowsPerRead, C::kBlockN};
    d.schedule.load_instruction = "ld.global 2 B, st.shared into the 128-byte swizzle";
    d.schedule.pipeline_note =
        "each K tile (at most two) is read, fenced for wgmma (fence.proxy.async), multiplied and "
        "waited for before the next; no stages overlap. C then leaves through the same stage, 64 "
        "columns at a time, each warp storing whole 128-byte row segments";
    d.block_tile_of = config_block_tile<C>;
    d.ctas_per_sm = C::kBlocksPerSm;
    set_sixteen_bit_inputs(d, precision, "short_k", short_k_can_run);
    return d;
}

DispatchChoice choose_dispatch_for(Precision precision, const GemmProblem& problem, int sms) {
    return precision == Precision::kE4M3 ? choose_fp8_dispatch(problem, sms)
                                         : choose_dispatch(problem, sms);
}

KernelDescriptor dispatch_configuration(const DispatchChoice& choice, Precision precision,
                                        int sms) {
    switch (choice.config) {
        case DispatchConfig::kSplitK:
            return split_k_descriptor(precision, choice.tile, choice.splits);
        case DispatchConfig::kShortK:
            return short_k_descriptor(precision);
        case DispatchConfig::kTmaTiles:
            return wgmma_tma_tile_descriptor(precision, choice.tile);
        case DispatchConfig::kFp8Tile192:
            return wgmma_fp8_tile_descriptor(kPersistentNarrowTile.block_n);
        case DispatchConfig::kFp8Tile128:
            return wgmma_fp8_tile_descriptor(kFp8Tile128.block_n);
        default:
            break;
    }
    const KernelDescriptor* rung = find_kernel(dispatch_config_id(choice.config, precision));
    if (rung == nullptr) return KernelDescriptor{};
    return rung->for_problem ? rung->for_problem(choice.padded, sms) : *rung;
}

std::string dispatch_configuration_can_run(const DispatchChoice& choice, Precision precision) {
    if (choice.config == DispatchConfig::kSplitK || choice.config == DispatchConfig::kTmaTiles) {
        return split_k_can_run(choice.padded, choice.tile, precision);
    }
    if (choice.config == DispatchConfig::kShortK) return short_k_can_run(choice.padded);
    if (is_fp8_tile_configuration(choice.config)) {
        return dispatch_configuration(choice, precision, kDefaultPersistentSms)
            .can_run(choice.padded);
    }
    const std::string id = dispatch_config_id(choice.config, precision);
    const KernelDescriptor* rung = find_kernel(id);
    if (rung == nullptr) return id + " is not registered";
    return rung->can_run(choice.padded);
}

std::vector<DispatchCandidate> dispatch_candidates(const GemmProblem& problem,
                                                   Precision precision) {
    std::vector<DispatchCandidate> out;
    const bool fp8 = precision == Precision::kE4M3;
    const GemmProblem padded = fp8 ? fp8_padded_problem(problem) : padded_problem(problem);
    const auto add = [&](std::string name, DispatchConfig config, Rung9Tile tile, int splits,
                         const GemmProblem& runs) {
        DispatchChoice choice;
        choice.config = config;
        choice.tile = tile;
        choice.splits = splits;
        choice.padded = runs;
        if (dispatch_configuration_can_run(choice, precision).empty()) {
            out.push_back({std::move(name), choice});
        }
    };
    for (const Rung9Tile tile : kRung9Tiles) {
        const std::string name = "rung 9 " + rung9_tile_name(tile);
        for (const int splits : {1, 2, 3, 4, 6, 8, 12, 16}) {
            if (split_k_ranges(padded.k, splits, split_k_block_k(precision)) != splits) continue;
            add(splits == 1 ? name : name + " split " + std::to_string(splits),
                splits == 1 ? DispatchConfig::kTmaTiles : DispatchConfig::kSplitK, tile, splits,
                padded);
        }
    }
    if (fp8) {
        add("rung 13", DispatchConfig::kFp8Tile256, Rung9Tile::kSquare, 1, padded);
        add("FP8 128x192", DispatchConfig::kFp8Tile192, Rung9Tile::kSquare, 1, padded);
        add("FP8 128x128", DispatchConfig::kFp8Tile128, Rung9Tile::kSquare, 1, padded);
        return out;
    }
    add("rung 11", DispatchConfig::kPersistent, Rung9Tile::kSquare, 1, padded);
    add("rung 12", DispatchConfig::kStreamK, Rung9Tile::kSquare, 1, padded);
    // The short-K GEMM where N or K needs the copies it does without.
    if (needs_padding(problem)) {
        add("short-K", DispatchConfig::kShortK, Rung9Tile::kSquare, 1, problem);
    }
    return out;
}

// "dispatch.f16" / ".bf16": its own tile fields are rung 11's (the configuration of the large
// problems). "dispatch.e4m3": rung 13's. Any other precision: rung 11's refusing descriptor
// (set_sixteen_bit_inputs), rung 14.
KernelDescriptor dispatch_kernel(Precision precision) {
    const bool fp8 = precision == Precision::kE4M3;
    KernelDescriptor d = fp8 ? wgmma_fp8_kernel() : wgmma_persistent_kernel(precision);
    d.rung = 14;
    d.title =
        fp8 ? "FP8 dispatch: rung 9's kernel in its tiles, K split or not, where the 16-bit "
              "rules run it on half the K, else rung 13's kernel on 128 x 256, 192 or 128 tiles, "
              "on zero-padded copies where N or K needs it"
            : "dispatch: rung 9 (in 128 x 128, 128 x 64, 64 x 128 or 64 x 64 tiles), 11, 12 or "
              "split-K per shape, on zero-padded copies where N or K is not a multiple of 8";
    d.adds =
        fp8 ? "an FP8 configuration per (M, N, K): rung 9's kernel where the 16-bit rules pick "
              "it on half the K, else the persistent tile that fills the SMs' rounds best, with "
              "its reason (kernels --mnk); any M, N, K"
            : "a configuration per (M, N, K) by rules from measurements, with its reason (kernels "
              "--mnk); any M, N, K";
    d.traced = TracedLaunch{};  // no trace points of its own
    d.launch = nullptr;         // attach_dispatch_launches (14_dispatch.cu)
    if (d.id.empty()) return d;
    make_dispatch(d, precision);
    return d;
}

}  // namespace tclens::kernels
