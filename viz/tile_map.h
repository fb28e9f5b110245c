#pragma once
// Warp tile maps: how one GEMM kernel cuts C = A * B into work, as pure functions of a plain
// description of the kernel (TileMapSpec). viz/ knows no kernels: kernels/tile_map_spec.h
// builds the spec from a registry descriptor, its tiles and its TileSchedule.
//
// Coordinates: C is M x N, A is M x K, B is K x N, all row-major (kernels/gemm.h). A block tile
// is block_m x block_n of C and moves through K in steps of block_k ("K tiles"); its A tile is
// block_m x block_k, its B tile block_k x block_n. Rows and columns inside a block tile, A tile
// or B tile are local (0 = the tile's first).
//
// What the model answers, each in the kernel's own order:
//   block_tiles      every block tile of C in launch order (persistent kernels: schedule order)
//   warp_regions     which warp computes which rows and columns of a block tile
//   work_tiles       inside those, the MMA tiles (or, for FMA kernels, the threads' sub-tiles)
//   load_map         which thread copies which 16-byte chunk of the A and B tiles into which
//                    shared-memory stage (or which TMA box lands it)
//   stage_ring       at K step s, which K tile each stage holds and what is being done with it
#include <cstdint>
#include <string>
#include <vector>

namespace tclens::viz {

// How consecutive blocks (in launch order) walk the grid of block tiles.
enum class RasterOrder {
    // order b -> tile (b / tiles_n, b % tiles_n): blockIdx.x along N, blockIdx.y along M, or a
    // 1-D grid split the same way.
    kRowMajor,
    // Bands of raster_group tile rows (the last band may be narrower); inside a band down each
    // column first, then along the band: order b -> band b / (group * tiles_n), row
    // first_row + i % rows, column i / rows, i = b mod (group * tiles_n), rows = the band's.
    kColumnBands,
    // Persistent clusters: clusters of cluster_m CTAs cover cluster_m vertically adjacent tile
    // rows (CTA rank r takes row cluster_row * cluster_m + r). Cluster tile u (u = 0, 1, ...,
    // in kColumnBands order over the cluster_rows x tiles_n grid of cluster tiles) is computed
    // by cluster u mod clusters, as that cluster's round u / clusters; cluster q's CTA of rank r
    // is block q * cluster_m + r. Order (u, r) -> u * cluster_m + r.
    kPersistent,
};

// How the warps of a block share its C tile.
enum class WarpLayout {
    // warp w -> warp tile (w / warps_n, w % warps_n), warp_m x warp_n each, warps_n =
    // block_n / warp_n.
    kGrid,
    // wgmma: consumer warpgroup c (warpgroup first_consumer_warpgroup + c) owns rows
    // c * block_m / consumers .. of all block_n columns, done as m64 wgmma tiles; within each,
    // warp w of the warpgroup (block warp 4 (first + c) + w) holds rows 16 w .. 16 w + 15.
    kWarpgroups,
};

// What computes a work tile.
enum class WorkKind {
    kFma,    // FFMA: each lane's sub-tiles of its thread tile
    kMma,    // one warp's mma.sync (or WMMA) tiles
    kWgmma,  // one warpgroup's wgmma tiles
};

// How the A and B tiles reach shared memory.
enum class LoadKind {
    kNone,     // nothing staged: threads read A and B straight from global memory
    kThreads,  // every copying thread moves units (16-byte chunks, or 4-byte words) itself
    kTma,      // one thread issues one TMA per box; the copy engine lands the whole box
};

// kThreads: the copying threads t < copy_threads form a rows x cols grid (t -> (t / cols,
// t % cols)) laid over the operand tile's grid of units again and again: copy (i, j) of thread
// t is unit row i * rows + t / cols, unit column j * cols + t % cols; i outer, j inner, so the
// thread's copy number is i * (unit columns / cols) + j.
// Example (rung 8's A tile, 128 x 8 chunks, 256 threads as 32 x 8): thread 9, copy 1 -> row
// 32 + 1 = 33, chunk 1.
struct ThreadLoadLayout {
    int rows = 0;
    int cols = 0;
};

// How a kernel runs its blocks, warps and copies, apart from its tile sizes: what a GEMM
// kernel's descriptor says about its schedule (kernels/gemm.h, KernelDescriptor::schedule,
// filled from the constants the kernel itself uses) and the tile map reads as it is.
struct TileSchedule {
    RasterOrder raster = RasterOrder::kRowMajor;
    int raster_group = 1;  // kColumnBands, kPersistent: (cluster) tile rows per band
    int cluster_m = 1;     // kPersistent: CTAs per cluster

    WarpLayout warp_layout = WarpLayout::kGrid;
    int consumer_warpgroups = 0;       // kWarpgroups
    int first_consumer_warpgroup = 0;  // kWarpgroups: warpgroups before it load only

    WorkKind work = WorkKind::kMma;
    // kMma: > 1 when MMA tile j of every group of mma_n * mma_col_stride columns takes the
    // columns j, j + stride, j + 2 stride, ... of the group instead of mma_n adjacent ones.
    int mma_col_stride = 1;
    bool serpentine = false;  // kMma issue order: odd MMA rows run along N backwards
    std::string instruction;  // e.g. "mma.sync.m16n8k16", "wgmma.m64n256k16", "FFMA"
    // kFma: lanes_m x lanes_n lanes per warp tile (lane l -> (l / lanes_n, l % lanes_n)), each
    // with a thread_m x thread_n tile (TileMapSpec) made of sub_m x sub_n sub-tiles that repeat
    // every lanes_m * sub_m rows and lanes_n * sub_n columns of the warp tile.
    int lanes_m = 0, lanes_n = 0, sub_m = 0, sub_n = 0;

    LoadKind load = LoadKind::kThreads;
    int unit_bytes = 16;   // kThreads: bytes one copy moves
    int copy_threads = 0;  // kThreads: threads 0 .. copy_threads - 1 copy; the rest do not
    ThreadLoadLayout a_load, b_load;
    int tma_thread = 0;            // kTma: the thread that issues every box of its CTA
    int tma_box_cols = 64;         // kTma: box width in elements (A: block_m rows, B: block_k rows)
    std::string load_instruction;  // e.g. "cp.async 16 B", "TMA 2-D box"

    // kPersistent: the ring's counter runs on across a CTA's tiles (stage of K tile t in round r
    // is (r * k_tiles + t) % stages), and the producer fills the next round's first stages
    // while this round's last ones are consumed.
    bool ring_across_tiles = false;
    std::string pipeline_note;  // one line: how the kernel keeps the stages busy
};

// One kernel on one problem: its sizes and tiles, and its schedule.
struct TileMapSpec : TileSchedule {
    std::string kernel;  // for titles, e.g. "mma_cp_async.f16"
    std::int64_t m = 0, n = 0, k = 0;
    int block_m = 0, block_n = 0, block_k = 0;
    int elem_bytes = 4;                   // bytes of one A or B element
    int threads = 0;                      // per block
    int clusters = 1;                     // kPersistent: co-resident clusters, i.e. the grid
    int ctas_per_sm = 1;                  // blocks one SM holds at once (a wave: SMs x this)
    int warp_m = 0, warp_n = 0;           // kGrid: one warp's C tile
    int mma_m = 0, mma_n = 0, mma_k = 0;  // kMma, kWgmma: one instruction's tile
    int thread_m = 0, thread_n = 0;       // kFma: one lane's C tile
    int stages = 1;  // shared-memory stages; the CTA's i-th K tile lands in stage i % stages
};

// "" when the spec is consistent, else one line naming the first problem: M, N, K >= 1,
// tiles positive, warps that tile the block (their count times 32 = threads for kGrid),
// MMA / thread tiles that tile the warp tile, load layouts that tile the operand tiles, at
// most kMaxBlockTiles block tiles.
std::string validate_tile_map_spec(const TileMapSpec& spec);

// The most block tiles the model lists (65,536 = 4096 x 4096 of C in rung 1's 8 x 32 tiles).
constexpr std::int64_t kMaxBlockTiles = 65536;

// ceil(M / block_m), ceil(N / block_n), ceil(K / block_k).
std::int64_t tiles_m(const TileMapSpec& spec);
std::int64_t tiles_n(const TileMapSpec& spec);
int k_tiles(const TileMapSpec& spec);

struct BlockTile {
    int order = 0;         // position in launch (kPersistent: schedule) order; index in block_tiles
    int block = 0;         // linear id of the block (CTA) that computes it: blockIdx.y * gridDim.x
                           // + blockIdx.x, or blockIdx.x of a 1-D grid
    int round = 0;         // kPersistent: which of that CTA's tiles it is (0 = first); else 0
    int cluster_rank = 0;  // kPersistent: the CTA's rank in its cluster; else 0
    int tile_row = 0;      // position in the grid of block tiles
    int tile_col = 0;
    std::int64_t row = 0, col = 0;    // first element of C: tile_row * block_m, tile_col * block_n
    std::int64_t rows = 0, cols = 0;  // the part inside C (0 when it lies wholly past M)
    // false only for kPersistent's CTAs whose tile row lies wholly past M (an odd number of
    // tile rows leaves the last cluster's second CTA there: it computes zeros, stores nothing).
    bool inside = true;
};

// block_tiles(spec).size() without listing them: tiles_m x tiles_n, and for kPersistent the
// cluster rows' tiles (a CTA past M included).
std::int64_t block_tile_count(const TileMapSpec& spec);

// Every block tile in launch order: result[i].order == i. Precondition: the spec validates.
// Example: kColumnBands, group 16, 32 x 16 tiles: order 37 -> tile row 5, column 2.
std::vector<BlockTile> block_tiles(const TileMapSpec& spec);

// Tiles CTA `block` computes (kPersistent: its rounds), 1 for the others.
int rounds_of_block(const TileMapSpec& spec, int block);

// One rectangle of a block tile that a warp computes (a warp may own several).
struct WarpRegion {
    int warp = 0;
    int row = 0, col = 0, rows = 0, cols = 0;
};

// (warp) -> block-tile rectangles, ordered by warp then row. kGrid: one per warp; kWarpgroups:
// one 16-row band per warp and m64 tile. Warps that compute nothing (producers) have none.
std::vector<WarpRegion> warp_regions(const TileMapSpec& spec);

// One MMA tile (kMma, kWgmma) or one sub-tile of a lane (kFma) inside a block tile.
struct WorkTile {
    int index = 0;       // issue order inside its owner in one k sub-step: 0, 1, ...
    int warp = -1;       // owning warp (kMma, kFma); -1 for kWgmma
    int warpgroup = -1;  // owning warpgroup (kWgmma); -1 otherwise
    int lane = -1;       // kFma: the lane whose sub-tile it is; -1 otherwise
    int row = 0, rows = 0;
    int col = 0, cols = 0;
    int col_stride = 1;  // its columns are col, col + col_stride, ... (cols of them)
};

// Every work tile of a block, by owner then issue order. They cover the block tile once.
// Example (rung 6: 48 x 64 warps, m16n8, stride 4): warp 1, index 9 -> rows 16..31, columns
// 64 + 1, 64 + 5, ..., 64 + 29 (tile j = 1 of the first 32-column group).
std::vector<WorkTile> work_tiles(const TileMapSpec& spec);

// k sub-steps per K step: block_k / mma_k (kFma: block_k, one FFMA per k).
int k_substeps(const TileMapSpec& spec);

// Instructions one owner (a warp; a warpgroup for kWgmma) issues per K step: its work tiles
// times k_substeps, and for kFma its lane's thread_m * thread_n FFMA per k times block_k.
int instructions_per_k_step(const TileMapSpec& spec);

// Owners with work in a block: computing warps (kMma, kFma) or consumer warpgroups (kWgmma).
int work_owners(const TileMapSpec& spec);

// One unit (16-byte chunk, or 4-byte word) of an A or B tile and who brings it in.
struct ChunkCopy {
    char operand = 'A';  // 'A' (block_m x block_k) or 'B' (block_k x block_n)
    int row = 0;         // row of the operand tile
    int unit = 0;        // column in units: bytes unit * unit_bytes .. of the row
    int thread = 0;      // the copying thread (kTma: the thread that issued the box)
    int copy = 0;        // kThreads: the thread's copy number; kTma: the box number (A: 0,
                         // B: 0 .. block_n / tma_box_cols - 1)
    int cta = 0;         // kTma: cluster rank of the CTA that issued the box (B is multicast)
    int stage = 0;       // the stage it lands in
};

// Bytes of one unit in the load map: unit_bytes (kThreads) or 16 (kTma, kNone).
int load_unit_bytes(const TileMapSpec& spec);

// kTma: the B boxes of a K tile (block_n / tma_box_cols), and how many of them one CTA of the
// cluster issues at most: ceil(boxes / cluster_m). CTA rank r issues boxes r * that .. up to
// (r + 1) * that - 1, the last ranks what is left: 3 boxes on a cluster of 2 are 2 + 1.
int tma_b_boxes(const TileMapSpec& spec);
int tma_b_boxes_per_cta(const TileMapSpec& spec);

// Every unit of the A tile (row-major), then of the B tile, of K tile `k_tile` of `tile`, with
// the thread that copies it and the stage it lands in. Empty for LoadKind::kNone. Each unit
// appears exactly once. kTma with cluster_m > 1: CTA rank r issues A itself and its
// tma_b_boxes_per_cta run of B boxes, multicast to every CTA of the cluster.
std::vector<ChunkCopy> load_map(const TileMapSpec& spec, const BlockTile& tile, int k_tile);

// The stage that K tile `k_tile` of `tile` lands in.
int stage_of(const TileMapSpec& spec, const BlockTile& tile, int k_tile);

enum class StageState {
    kComputing,  // the MMAs of this K step read it
    kInFlight,   // issued at an earlier step, read at a later one
    kIssuing,    // its copies are issued during this K step (refilling the stage freed by the
                 // previous step)
    kEmpty,      // nothing left to load into it
};

struct StageSlot {
    int stage = 0;
    int round = 0;    // which of the CTA's tiles the K tile belongs to (kPersistent), else 0
    int k_tile = -1;  // -1 when kEmpty
    StageState state = StageState::kEmpty;
};

// One slot per stage, by stage, at K step `step` of `tile`: every pipeline here runs
// stages - 1 K tiles ahead, so K tile step + j (j = 0 .. stages - 1, counted on the CTA's
// running K-tile counter) is kComputing for j = 0, kInFlight for 0 < j < stages - 1 and
// kIssuing for j = stages - 1; a stage past the CTA's last K tile is kEmpty.
// Example (4 stages, 64 K tiles, step 10): stage 2 computes tile 10, stages 3 and 0 hold tiles
// 11 and 12, stage 1 is refilled with tile 13.
std::vector<StageSlot> stage_ring(const TileMapSpec& spec, const BlockTile& tile, int step);

}  // namespace tclens::viz
