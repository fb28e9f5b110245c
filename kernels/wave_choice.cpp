#include "kernels/wave_choice.h"

#include <cstdio>

#include "common/text.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {
namespace {

// "384 tiles = 2.91 waves, 3 rounds 97 % filled"
std::string waves_text(const PersistentWaves& w) {
    return common::format_text("%s = %.2f waves, %s %.0f %% filled",
                               common::count_text(w.tiles, "tile").c_str(), w.waves(),
                               common::count_text(w.rounds, "round").c_str(), 100 * w.filled());
}

}  // namespace

double PersistentWaves::waves() const { return ctas > 0 ? static_cast<double>(tiles) / ctas : 0; }

double PersistentWaves::filled() const {
    return rounds > 0 && ctas > 0
               ? static_cast<double>(tiles) / (static_cast<double>(rounds) * ctas)
               : 0;
}

std::int64_t PersistentWaves::load_cost() const { return rounds * (tile.block_m + tile.block_n); }

PersistentWaves persistent_waves(const GemmProblem& problem, PersistentTile tile, int clusters) {
    PersistentWaves w;
    w.tile = tile;
    const std::int64_t tiles_m = tiles_covering(problem.m, tile.block_m);
    const std::int64_t tiles_n = tiles_covering(problem.n, tile.block_n);
    w.tiles = tiles_m * tiles_n;
    w.cluster_tiles = tiles_covering(tiles_m, tile.cluster_m) * tiles_n;
    w.rounds = tiles_covering(w.cluster_tiles, clusters);
    w.ctas = clusters * tile.cluster_m;
    return w;
}

PersistentTile persistent_tile_for(const GemmProblem& problem, int clusters) {
    const PersistentWaves wide = persistent_waves(problem, kPersistentWideTile, clusters);
    const PersistentWaves narrow = persistent_waves(problem, kPersistentNarrowTile, clusters);
    return narrow.load_cost() < wide.load_cost() ? kPersistentNarrowTile : kPersistentWideTile;
}

std::string persistent_plan_text(const GemmProblem& problem, int clusters) {
    const PersistentTile chosen = persistent_tile_for(problem, clusters);
    const PersistentTile other = chosen.block_n == kPersistentNarrowTile.block_n
                                     ? kPersistentWideTile
                                     : kPersistentNarrowTile;
    const PersistentWaves w = persistent_waves(problem, chosen, clusters);
    const PersistentWaves o = persistent_waves(problem, other, clusters);
    char text[96];
    std::snprintf(text, sizeof text, "%d x %d tiles on %d SMs: ", chosen.block_m, chosen.block_n,
                  w.ctas);
    char alternative[32];
    std::snprintf(alternative, sizeof alternative, " (%d x %d: ", other.block_m, other.block_n);
    return text + waves_text(w) + alternative + waves_text(o) + ")";
}

}  // namespace tclens::kernels
