#include "kernels/fp8_dispatch_rules.h"

#include <algorithm>
#include <string>

#include "common/text.h"
#include "kernels/13_wgmma_fp8.h"

namespace tclens::kernels {

static_assert(has_tile<wgmma_fp8::Fp8Shape>(kPersistentWideTile) &&
                  has_tile<wgmma_fp8::Fp8Shape192>(kPersistentNarrowTile) &&
                  has_tile<wgmma_fp8::Fp8Shape128>(kFp8Tile128),
              "the rules count the tiles the FP8 configurations run");

namespace {

// "128 x 192: 384 tiles, 3 rounds 97 % filled"
std::string waves_text(const PersistentWaves& w) {
    return common::format_text("%d x %d: %s, %s %.0f %% filled", w.tile.block_m, w.tile.block_n,
                               common::count_text(w.tiles, "tile").c_str(),
                               common::count_text(w.rounds, "round").c_str(), 100 * w.filled());
}

}  // namespace

GemmProblem fp8_padded_problem(const GemmProblem& problem) {
    return {problem.m, tiles_covering(problem.n, 4) * 4, tiles_covering(problem.k, 16) * 16};
}

GemmProblem sixteen_bit_equivalent(const GemmProblem& padded) {
    return padded_problem({padded.m, padded.n, padded.k / 2});
}

DispatchChoice choose_fp8_dispatch(const GemmProblem& problem, int sms) {
    DispatchChoice choice;
    choice.padded = fp8_padded_problem(problem);
    const GemmProblem& p = choice.padded;
    const std::string padding = padding_reason(problem, p);

    const GemmProblem sixteen = sixteen_bit_equivalent(p);
    const DispatchChoice as_sixteen = choose_dispatch(sixteen, sms);
    if (as_sixteen.config == DispatchConfig::kTmaTiles ||
        as_sixteen.config == DispatchConfig::kSplitK) {
        choice.config = as_sixteen.config;
        choice.tile = as_sixteen.tile;
        choice.splits = as_sixteen.splits;  // the same ranges of K tiles (the header)
        choice.reason = padding +
                        common::format_text("e4m3 as 16-bit %lldx%lldx%lld: ", (long long)sixteen.m,
                                            (long long)sixteen.n, (long long)sixteen.k) +
                        as_sixteen.reason;
        return choice;
    }
    const int clusters = std::max(1, sms / kFp8Tile128.cluster_m);
    const PersistentWaves all[] = {persistent_waves(p, kPersistentWideTile, clusters),
                                   persistent_waves(p, kPersistentNarrowTile, clusters),
                                   persistent_waves(p, kFp8Tile128, clusters)};
    const DispatchConfig configs[] = {DispatchConfig::kFp8Tile256, DispatchConfig::kFp8Tile192,
                                      DispatchConfig::kFp8Tile128};
    int best = 0;  // the fewest rows loaded per K step, ties to the larger tile
    for (int i = 1; i < 3; ++i) {
        if (all[i].load_cost() < all[best].load_cost()) best = i;
    }
    const PersistentWaves& w = all[best];
    std::string others;
    for (int i = 0; i < 3; ++i) {
        if (i != best) others += (others.empty() ? "" : "; ") + waves_text(all[i]);
    }
    const std::string tiles =
        common::format_text("%s on %d SMs (%s)", waves_text(w).c_str(), w.ctas, others.c_str());

    choice.config = configs[best];
    choice.reason = padding + (best == 0 ? "rung 13, " : "FP8 ") + tiles;
    return choice;
}

}  // namespace tclens::kernels
