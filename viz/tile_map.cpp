#include "viz/tile_map.h"

#include <algorithm>

namespace tclens::viz {

namespace {

constexpr int kWarpThreads = 32;
constexpr int kWarpgroupWarps = 4;
constexpr int kWgmmaRows = 64;     // m of every wgmma
constexpr int kWarpBandRows = 16;  // rows of a wgmma tile one warp of the warpgroup holds
constexpr int kTmaUnitBytes = 16;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Linear id -> (row, col) of a rows x cols grid walked in bands of `group` rows, down each
// column of a band first (RasterOrder::kColumnBands).
void column_band(std::int64_t id, std::int64_t rows, std::int64_t cols, int group,
                 std::int64_t& row, std::int64_t& col) {
    const std::int64_t band_tiles = group * cols;
    const std::int64_t band = id / band_tiles;
    const std::int64_t first_row = band * group;
    const std::int64_t band_rows = std::min<std::int64_t>(rows - first_row, group);
    const std::int64_t in_band = id - band * band_tiles;
    row = first_row + in_band % band_rows;
    col = in_band / band_rows;
}

// Cluster rows of a kPersistent grid: ceil(tiles_m / cluster_m).
std::int64_t cluster_rows(const TileMapSpec& spec) {
    return ceil_div(tiles_m(spec), spec.cluster_m);
}

int unit_columns(const TileMapSpec& spec, char operand) {
    const int bytes = (operand == 'A' ? spec.block_k : spec.block_n) * spec.elem_bytes;
    return bytes / load_unit_bytes(spec);
}

int unit_rows(const TileMapSpec& spec, char operand) {
    return operand == 'A' ? spec.block_m : spec.block_k;
}

std::string check_thread_layout(const TileMapSpec& spec, char operand,
                                const ThreadLoadLayout& layout) {
    const std::string name = std::string(1, operand) + " load layout ";
    if (layout.rows < 1 || layout.cols < 1 || layout.rows * layout.cols != spec.copy_threads) {
        return name + std::to_string(layout.rows) + " x " + std::to_string(layout.cols) +
               " must have copy_threads = " + std::to_string(spec.copy_threads) + " threads";
    }
    const int rows = unit_rows(spec, operand);
    const int cols = unit_columns(spec, operand);
    if (rows % layout.rows != 0 || cols % layout.cols != 0) {
        return name + std::to_string(layout.rows) + " x " + std::to_string(layout.cols) +
               " does not tile the " + std::to_string(rows) + " x " + std::to_string(cols) +
               "-unit " + std::string(1, operand) + " tile";
    }
    return "";
}

// kThreads: the thread grid laid over the operand's unit grid (ThreadLoadLayout).
void thread_copies(const TileMapSpec& spec, char operand, const ThreadLoadLayout& layout, int stage,
                   std::vector<ChunkCopy>& out) {
    const int rows = unit_rows(spec, operand);
    const int cols = unit_columns(spec, operand);
    const size_t first = out.size();
    out.resize(first + static_cast<size_t>(rows) * static_cast<size_t>(cols));
    const int reps_i = rows / layout.rows;
    const int reps_j = cols / layout.cols;
    for (int t = 0; t < spec.copy_threads; ++t) {
        for (int i = 0; i < reps_i; ++i) {
            for (int j = 0; j < reps_j; ++j) {
                const int row = i * layout.rows + t / layout.cols;
                const int unit = j * layout.cols + t % layout.cols;
                ChunkCopy& copy = out[first + static_cast<size_t>(row) * cols + unit];
                copy = {operand, row, unit, t, i * reps_j + j, 0, stage};
            }
        }
    }
}

// kTma: `boxes` boxes side by side, each `rows` rows x tma_box_cols elements; box j issued by
// the CTA of rank issuer(j).
template <typename Issuer>
void box_copies(const TileMapSpec& spec, char operand, int rows, int boxes, Issuer issuer,
                int stage, std::vector<ChunkCopy>& out) {
    const int box_units = spec.tma_box_cols * spec.elem_bytes / kTmaUnitBytes;
    for (int row = 0; row < rows; ++row) {
        for (int box = 0; box < boxes; ++box) {
            for (int u = 0; u < box_units; ++u) {
                out.push_back(
                    {operand, row, box * box_units + u, spec.tma_thread, box, issuer(box), stage});
            }
        }
    }
}

}  // namespace

std::int64_t tiles_m(const TileMapSpec& spec) { return ceil_div(spec.m, spec.block_m); }
std::int64_t tiles_n(const TileMapSpec& spec) { return ceil_div(spec.n, spec.block_n); }
int k_tiles(const TileMapSpec& spec) { return static_cast<int>(ceil_div(spec.k, spec.block_k)); }

std::int64_t block_tile_count(const TileMapSpec& spec) {
    if (spec.raster == RasterOrder::kPersistent) {
        return cluster_rows(spec) * spec.cluster_m * tiles_n(spec);
    }
    return tiles_m(spec) * tiles_n(spec);
}

int load_unit_bytes(const TileMapSpec& spec) {
    return spec.load == LoadKind::kThreads ? spec.unit_bytes : kTmaUnitBytes;
}

std::string validate_tile_map_spec(const TileMapSpec& spec) {
    const std::string what = spec.kernel.empty() ? "tile map" : spec.kernel;
    if (spec.m < 1 || spec.n < 1 || spec.k < 1) return "M, N and K must each be at least 1";
    if (spec.block_m < 1 || spec.block_n < 1 || spec.block_k < 1 || spec.elem_bytes < 1) {
        return what + ": block tile and element size must be positive";
    }
    if (spec.threads < kWarpThreads || spec.threads % kWarpThreads != 0) {
        return what + ": threads must be a positive multiple of 32";
    }
    if (spec.raster_group < 1 || spec.cluster_m < 1 || spec.clusters < 1) {
        return what + ": raster group, cluster size and cluster count must be positive";
    }
    if (block_tile_count(spec) > kMaxBlockTiles) {
        return "M x N = " + std::to_string(spec.m) + " x " + std::to_string(spec.n) + " gives " +
               std::to_string(block_tile_count(spec)) + " block tiles of " +
               std::to_string(spec.block_m) + " x " + std::to_string(spec.block_n) +
               "; the tile map shows at most " + std::to_string(kMaxBlockTiles);
    }
    if (spec.stages < 1) return what + ": stages must be at least 1";

    if (spec.warp_layout == WarpLayout::kGrid) {
        if (spec.warp_m < 1 || spec.warp_n < 1 || spec.block_m % spec.warp_m != 0 ||
            spec.block_n % spec.warp_n != 0) {
            return what + ": warp tiles must tile the block tile";
        }
        const int warps = (spec.block_m / spec.warp_m) * (spec.block_n / spec.warp_n);
        if (warps * kWarpThreads != spec.threads) {
            return what + ": " + std::to_string(warps) + " warp tiles need " +
                   std::to_string(warps * kWarpThreads) + " threads, not " +
                   std::to_string(spec.threads);
        }
        if (spec.work == WorkKind::kWgmma) return what + ": wgmma needs the warpgroup layout";
    } else {
        const int consumers = spec.consumer_warpgroups;
        if (consumers < 1 || spec.first_consumer_warpgroup < 0 ||
            spec.block_m % (consumers * kWgmmaRows) != 0) {
            return what + ": consumer warpgroups must split the block rows into m64 tiles";
        }
        if ((spec.first_consumer_warpgroup + consumers) * kWarpgroupWarps * kWarpThreads !=
            spec.threads) {
            return what + ": warpgroups do not match " + std::to_string(spec.threads) + " threads";
        }
        if (spec.work != WorkKind::kWgmma) return what + ": the warpgroup layout needs wgmma";
    }

    switch (spec.work) {
        case WorkKind::kFma:
            if (spec.lanes_m * spec.lanes_n != kWarpThreads || spec.sub_m < 1 || spec.sub_n < 1 ||
                spec.thread_m % spec.sub_m != 0 || spec.thread_n % spec.sub_n != 0 ||
                spec.warp_m != spec.lanes_m * spec.thread_m ||
                spec.warp_n != spec.lanes_n * spec.thread_n) {
                return what + ": 32 lanes' thread tiles must tile the warp tile";
            }
            break;
        case WorkKind::kMma:
            if (spec.mma_m < 1 || spec.mma_n < 1 || spec.mma_k < 1 || spec.mma_col_stride < 1 ||
                spec.warp_m % spec.mma_m != 0 ||
                spec.warp_n % (spec.mma_n * spec.mma_col_stride) != 0 ||
                spec.block_k % spec.mma_k != 0) {
                return what + ": MMA tiles must tile the warp tile and the K step";
            }
            break;
        case WorkKind::kWgmma:
            if (spec.mma_m != kWgmmaRows || spec.mma_n < 1 || spec.mma_k < 1 ||
                spec.block_n % spec.mma_n != 0 || spec.block_k % spec.mma_k != 0) {
                return what + ": wgmma tiles (m64) must tile the block tile and the K step";
            }
            break;
    }

    if (spec.load == LoadKind::kThreads) {
        if (spec.unit_bytes < 1 || spec.copy_threads < 1 || spec.copy_threads > spec.threads ||
            (spec.block_k * spec.elem_bytes) % spec.unit_bytes != 0 ||
            (spec.block_n * spec.elem_bytes) % spec.unit_bytes != 0) {
            return what + ": copy units must divide the A and B rows, by at most every thread";
        }
        if (std::string e = check_thread_layout(spec, 'A', spec.a_load); !e.empty()) {
            return what + ": " + e;
        }
        if (std::string e = check_thread_layout(spec, 'B', spec.b_load); !e.empty()) {
            return what + ": " + e;
        }
    } else if (spec.load == LoadKind::kTma) {
        if (spec.tma_box_cols < 1 || (spec.tma_box_cols * spec.elem_bytes) % kTmaUnitBytes != 0 ||
            spec.block_k % spec.tma_box_cols != 0 || spec.block_n % spec.tma_box_cols != 0 ||
            spec.tma_thread < 0 || spec.tma_thread >= spec.threads) {
            return what + ": TMA boxes must tile the A and B tiles";
        }
    }
    return "";
}

std::vector<BlockTile> block_tiles(const TileMapSpec& spec) {
    const std::int64_t rows = tiles_m(spec);
    const std::int64_t cols = tiles_n(spec);
    std::vector<BlockTile> tiles;
    tiles.reserve(static_cast<size_t>(block_tile_count(spec)));
    const auto place = [&](BlockTile tile, std::int64_t tile_row, std::int64_t tile_col) {
        tile.tile_row = static_cast<int>(tile_row);
        tile.tile_col = static_cast<int>(tile_col);
        tile.row = tile_row * spec.block_m;
        tile.col = tile_col * spec.block_n;
        tile.inside = tile.row < spec.m;
        tile.rows = tile.inside ? std::min<std::int64_t>(spec.block_m, spec.m - tile.row) : 0;
        tile.cols = std::min<std::int64_t>(spec.block_n, spec.n - tile.col);
        tiles.push_back(tile);
    };
    if (spec.raster == RasterOrder::kPersistent) {
        // Cluster tile u -> (cluster row, column); cluster u mod clusters, round u / clusters.
        const std::int64_t cluster_tiles = cluster_rows(spec) * cols;
        for (std::int64_t u = 0; u < cluster_tiles; ++u) {
            std::int64_t cluster_row = 0;
            std::int64_t col = 0;
            column_band(u, cluster_rows(spec), cols, spec.raster_group, cluster_row, col);
            for (int rank = 0; rank < spec.cluster_m; ++rank) {
                BlockTile tile;
                tile.order = static_cast<int>(u * spec.cluster_m + rank);
                tile.block = static_cast<int>(u % spec.clusters) * spec.cluster_m + rank;
                tile.round = static_cast<int>(u / spec.clusters);
                tile.cluster_rank = rank;
                place(tile, cluster_row * spec.cluster_m + rank, col);
            }
        }
        return tiles;
    }
    for (std::int64_t b = 0; b < rows * cols; ++b) {
        BlockTile tile;
        tile.order = static_cast<int>(b);
        tile.block = static_cast<int>(b);
        if (spec.raster == RasterOrder::kColumnBands) {
            std::int64_t row = 0;
            std::int64_t col = 0;
            column_band(b, rows, cols, spec.raster_group, row, col);
            place(tile, row, col);
        } else {
            place(tile, b / cols, b % cols);
        }
    }
    return tiles;
}

int rounds_of_block(const TileMapSpec& spec, int block) {
    if (spec.raster != RasterOrder::kPersistent) return 1;
    const std::int64_t cluster = block / spec.cluster_m;
    const std::int64_t cluster_tiles = cluster_rows(spec) * tiles_n(spec);
    if (cluster >= cluster_tiles) return 0;
    return static_cast<int>(ceil_div(cluster_tiles - cluster, spec.clusters));
}

std::vector<WarpRegion> warp_regions(const TileMapSpec& spec) {
    std::vector<WarpRegion> regions;
    if (spec.warp_layout == WarpLayout::kGrid) {
        const int warps_n = spec.block_n / spec.warp_n;
        const int warps = (spec.block_m / spec.warp_m) * warps_n;
        for (int w = 0; w < warps; ++w) {
            regions.push_back({w, (w / warps_n) * spec.warp_m, (w % warps_n) * spec.warp_n,
                               spec.warp_m, spec.warp_n});
        }
        return regions;
    }
    const int consumer_rows = spec.block_m / spec.consumer_warpgroups;
    for (int c = 0; c < spec.consumer_warpgroups; ++c) {
        for (int w = 0; w < kWarpgroupWarps; ++w) {
            const int warp = (spec.first_consumer_warpgroup + c) * kWarpgroupWarps + w;
            for (int t = 0; t < consumer_rows / kWgmmaRows; ++t) {
                regions.push_back({warp, c * consumer_rows + t * kWgmmaRows + w * kWarpBandRows, 0,
                                   kWarpBandRows, spec.block_n});
            }
        }
    }
    return regions;
}

std::vector<WorkTile> work_tiles(const TileMapSpec& spec) {
    std::vector<WorkTile> tiles;
    if (spec.work == WorkKind::kWgmma) {
        const int consumer_rows = spec.block_m / spec.consumer_warpgroups;
        const int tiles_per_row = spec.block_n / spec.mma_n;
        for (int c = 0; c < spec.consumer_warpgroups; ++c) {
            for (int t = 0; t < consumer_rows / kWgmmaRows; ++t) {
                for (int nt = 0; nt < tiles_per_row; ++nt) {
                    WorkTile tile;
                    tile.index = t * tiles_per_row + nt;
                    tile.warpgroup = spec.first_consumer_warpgroup + c;
                    tile.row = c * consumer_rows + t * kWgmmaRows;
                    tile.rows = kWgmmaRows;
                    tile.col = nt * spec.mma_n;
                    tile.cols = spec.mma_n;
                    tiles.push_back(tile);
                }
            }
        }
        return tiles;
    }
    for (const WarpRegion& warp : warp_regions(spec)) {
        if (spec.work == WorkKind::kMma) {
            // (mt, j) -> MMA tile (mt, nt), nt = j or, on odd rows of a serpentine, its mirror.
            const int tiles_m_w = spec.warp_m / spec.mma_m;
            const int tiles_n_w = spec.warp_n / spec.mma_n;
            const int stride = spec.mma_col_stride;
            for (int mt = 0; mt < tiles_m_w; ++mt) {
                for (int j = 0; j < tiles_n_w; ++j) {
                    const int nt = spec.serpentine && mt % 2 == 1 ? tiles_n_w - 1 - j : j;
                    WorkTile tile;
                    tile.index = mt * tiles_n_w + j;
                    tile.warp = warp.warp;
                    tile.row = warp.row + mt * spec.mma_m;
                    tile.rows = spec.mma_m;
                    tile.col = warp.col + (nt / stride) * spec.mma_n * stride + nt % stride;
                    tile.cols = spec.mma_n;
                    tile.col_stride = stride;
                    tiles.push_back(tile);
                }
            }
            continue;
        }
        // kFma: (lane, i, j) -> sub-tile at lane (lm, ln), repeated every lanes * sub.
        const int reps_m = spec.thread_m / spec.sub_m;
        const int reps_n = spec.thread_n / spec.sub_n;
        for (int lane = 0; lane < kWarpThreads; ++lane) {
            const int lm = lane / spec.lanes_n;
            const int ln = lane % spec.lanes_n;
            for (int i = 0; i < reps_m; ++i) {
                for (int j = 0; j < reps_n; ++j) {
                    WorkTile tile;
                    tile.index = i * reps_n + j;
                    tile.warp = warp.warp;
                    tile.lane = lane;
                    tile.row = warp.row + i * spec.lanes_m * spec.sub_m + lm * spec.sub_m;
                    tile.rows = spec.sub_m;
                    tile.col = warp.col + j * spec.lanes_n * spec.sub_n + ln * spec.sub_n;
                    tile.cols = spec.sub_n;
                    tiles.push_back(tile);
                }
            }
        }
    }
    return tiles;
}

int k_substeps(const TileMapSpec& spec) {
    return spec.work == WorkKind::kFma ? spec.block_k : spec.block_k / spec.mma_k;
}

int instructions_per_k_step(const TileMapSpec& spec) {
    switch (spec.work) {
        case WorkKind::kFma:
            return spec.thread_m * spec.thread_n * spec.block_k;
        case WorkKind::kMma:
            return (spec.warp_m / spec.mma_m) * (spec.warp_n / spec.mma_n) * k_substeps(spec);
        case WorkKind::kWgmma:
            return (spec.block_m / spec.consumer_warpgroups / kWgmmaRows) *
                   (spec.block_n / spec.mma_n) * k_substeps(spec);
    }
    return 0;
}

int work_owners(const TileMapSpec& spec) {
    if (spec.warp_layout == WarpLayout::kWarpgroups) return spec.consumer_warpgroups;
    return (spec.block_m / spec.warp_m) * (spec.block_n / spec.warp_n);
}

int tma_b_boxes(const TileMapSpec& spec) { return spec.block_n / spec.tma_box_cols; }

int tma_b_boxes_per_cta(const TileMapSpec& spec) {
    return static_cast<int>(ceil_div(tma_b_boxes(spec), spec.cluster_m));
}

int stage_of(const TileMapSpec& spec, const BlockTile& tile, int k_tile) {
    const int base = spec.ring_across_tiles ? tile.round * k_tiles(spec) : 0;
    return (base + k_tile) % spec.stages;
}

std::vector<ChunkCopy> load_map(const TileMapSpec& spec, const BlockTile& tile, int k_tile) {
    std::vector<ChunkCopy> copies;
    const int stage = stage_of(spec, tile, k_tile);
    if (spec.load == LoadKind::kThreads) {
        thread_copies(spec, 'A', spec.a_load, stage, copies);
        thread_copies(spec, 'B', spec.b_load, stage, copies);
    } else if (spec.load == LoadKind::kTma) {
        const int b_boxes = tma_b_boxes(spec);
        const int per_cta = tma_b_boxes_per_cta(spec);
        const int own = tile.cluster_rank;
        box_copies(
            spec, 'A', spec.block_m, spec.block_k / spec.tma_box_cols, [own](int) { return own; },
            stage, copies);
        box_copies(
            spec, 'B', spec.block_k, b_boxes, [per_cta](int j) { return j / per_cta; }, stage,
            copies);
    }
    return copies;
}

std::vector<StageSlot> stage_ring(const TileMapSpec& spec, const BlockTile& tile, int step) {
    const int per_round = k_tiles(spec);
    const bool across = spec.ring_across_tiles;
    const std::int64_t first = (across ? std::int64_t{tile.round} * per_round : 0) + step;
    const std::int64_t total =
        across ? std::int64_t{rounds_of_block(spec, tile.block)} * per_round : per_round;
    std::vector<StageSlot> slots(static_cast<size_t>(spec.stages));
    for (int j = 0; j < spec.stages; ++j) {
        const std::int64_t counter = first + j;
        StageSlot& slot = slots[static_cast<size_t>(counter % spec.stages)];
        slot.stage = static_cast<int>(counter % spec.stages);
        if (counter >= total) continue;
        slot.round = across ? static_cast<int>(counter / per_round) : 0;
        slot.k_tile = static_cast<int>(across ? counter % per_round : counter);
        slot.state = j == 0                 ? StageState::kComputing
                     : j == spec.stages - 1 ? StageState::kIssuing
                                            : StageState::kInFlight;
    }
    return slots;
}

}  // namespace tclens::viz
