#pragma once
// The GEMM every rung of the ladder computes, and the descriptor each rung exposes.
//
//   C (M x N, f32) = A (M x K) * B (K x N)
//
// All three matrices are row-major and dense: lda = K, ldb = N, ldc = N (the layout of the
// lab and puzzle texts). A and B hold `storage_type(precision)` elements; C is always f32,
// accumulated in f32. One exception, kE4M3: B is stored transposed, as the N x K row-major
// matrix B^T (ldb = K, "K-major"), because wgmma reads 8-bit operands only K-major from shared
// memory and cuBLASLt's FP8 GEMM takes only that "TN" layout (b_is_k_major below); B[k][n] is
// element n * K + k. Kernels write every element of C (no beta: C's old contents never
// matter, which is how the runner's poisoned output catches unwritten elements).
//
// A rung is one idea in one file (kernels/NN_<idea>.cu). Its descriptor says what the idea is
// and what shapes it uses, so the views can draw it: `layout_ids` open in the fragment atlas,
// `swizzle` and `shared_accesses` in the bank lab, the tiles and `schedule` in the tile map.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/trace_sink.h"
#include "viz/tile_map.h"

// The CUDA runtime's stream handle, declared here so that this header (and the descriptors built
// from it) needs no CUDA headers: the same type as cudaStream_t, which <cuda_runtime.h> defines
// as `struct CUstream_st*`.
struct CUstream_st;

namespace tclens::kernels {

using GpuStream = CUstream_st*;
// What a launch returns: a cudaError_t's value (0 = cudaSuccess) as an int, which a header
// without <cuda_runtime.h> can name. CUDA code turns it back with as_cuda_error (cuda_util.h).
using GpuStatus = int;

// What the multiply-adds run on. A and B are stored as f32 for kF32 and kTF32 (TF32 rounds
// inside the kernel), as IEEE half for kF16, as bfloat16 for kBF16 and as FP8 e4m3 (1 sign,
// 4 exponent, 3 mantissa bits, bias 7, largest 448, no infinities) for kE4M3.
enum class Precision { kF32, kTF32, kF16, kBF16, kE4M3 };

// "f32", "tf32", "f16", "bf16", "e4m3".
const char* precision_name(Precision precision);
// The input types a user's kernel may declare (kernels/user): the inverse of precision_name for
// f32, tf32, f16 and bf16; nullopt for any other text, "e4m3" included (only rung 13 and its
// cuBLASLt reference run FP8).
std::optional<Precision> precision_from_name(std::string_view name);
// Bytes of one stored A or B element: 4, 4, 2, 2, 1.
int storage_bytes(Precision precision);
// True when B is stored K-major, as the N x K row-major B^T (kE4M3 only; see the header).
bool b_is_k_major(Precision precision);

struct GemmProblem {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
};

inline bool same_problem(const GemmProblem& a, const GemmProblem& b) {
    return a.m == b.m && a.n == b.n && a.k == b.k;
}

// Elements in one stored row of B: N, or K for a K-major B (b_is_k_major).
std::int64_t b_row_length(Precision precision, const GemmProblem& problem);

// Device pointers of one GEMM, laid out as in the header comment. Never null when launched.
// lda, ldb, ldc: elements from one row to the next, 0 for dense (K, b_row_length, N). Only the
// configurations rung 14 runs honour other strides (rungs 9 to 13 and the split-K GEMM: it
// hands them padded copies of A or B without padding the problem); every other kernel takes
// dense operands only.
struct GemmOperands {
    const void* a = nullptr;
    const void* b = nullptr;
    float* c = nullptr;
    GemmProblem problem;
    std::int64_t lda = 0;
    std::int64_t ldb = 0;
    std::int64_t ldc = 0;
};

// The row strides of `operands`, in elements: its own, or the dense ones where 0.
inline std::int64_t a_stride(const GemmOperands& operands) {
    return operands.lda > 0 ? operands.lda : operands.problem.k;
}
std::int64_t b_stride(Precision precision, const GemmOperands& operands);
inline std::int64_t c_stride(const GemmOperands& operands) {
    return operands.ldc > 0 ? operands.ldc : operands.problem.n;
}

// m x n x k of one tile level; 0 where a level does not exist (no warp tile in the naive rung).
struct TileShape {
    int m = 0;
    int n = 0;
    int k = 0;
};

// One block tile of C: rows row * block_tile.m .., columns col * block_tile.n ..; row -1 (the
// default) for none.
struct TileIndex {
    int row = -1;
    int col = -1;
};

// (block, round) -> the C tile a kernel's block computes there: `block` is the block's linear id
// (kernels/block_order.h), `round` which of its tiles (0 = its first; > 0 only in persistent
// kernels, else none), `blocks` the launch's block count, tiles_m x tiles_n the grid of C tiles.
// None past the block's last tile.
using BlockTileFunction = TileIndex (*)(int block, int round, int blocks, int tiles_m, int tiles_n);

// One warp-wide shared-memory instruction of a kernel, for the bank lab: the lanes of warp 0
// in the instruction's first instance (first K step, first fragment, first copy) address
// exactly what `pattern` (viz/access_pattern.h, lane_access) addresses on the operand's tile
// (kernels/shared_access.h: the logical block_tile.m x block_tile.k tile of A or
// block_tile.k x block_tile.n of B, row-major) stored under the kernel's `swizzle`; the bank
// lab prices that instance. An instruction whose lanes match no viz pattern is not listed; the
// kernel file says so next to its list.
struct SharedAccess {
    std::string label;    // unique in the kernel, no spaces: operand '.' instruction, "A.ldmatrix"
    char operand = 'A';   // 'A' or 'B': which tile it reads or writes
    std::string pattern;  // a viz pattern name, e.g. "ldmatrix.x4", "cp.async.16"
};

// The traced launch's shape on one problem: what the trace buffers are sized from.
struct TracedShape {
    std::int64_t grid_blocks = 0;  // blocks the launch runs (the grid)
    int warps_per_block = 0;       // warps of each block (a trace slot each)
    // The most phases one warp of any block records (its K tiles, output tiles, fix-ups ...).
    std::int64_t records_per_warp = 0;
};

// A kernel's traced variant (kernels/trace.cuh): the same GEMM with trace points at its phase
// boundaries, recording into a TraceSink (kernels/trace_capture.h sizes and reads it). `shape`
// null: the kernel has no trace points (traceable()). A rung's descriptor of the registry
// (kernels/registry.h) has its shape and wgmma_per_phase but no launch; the GPU registry's copy
// (kernels/gpu_registry.h) has the launch too.
struct TracedLaunch {
    // Like KernelDescriptor::launch, recording into `sink` (blocks 0 .. sink.blocks - 1).
    std::function<GpuStatus(const GemmOperands& operands, const TraceSink& sink, GpuStream stream)>
        launch;
    // Tensor-core instructions (per warp, as the profile counts them) one multiply phase
    // (viz::is_multiply_phase) stands for: wgmma per kWgmma phase, mma.sync per kMmaSync phase.
    // Where one warp records for its warpgroup (rungs 11 and 12), its four warps' wgmma.
    int wgmma_per_phase = 0;
    // The launch's shape for `problem`. The persistent rungs' grid (and so their work per
    // block) depends on the current device (its SMs, the clusters that fit); without one they
    // assume the H100's 132 SMs (kernels/tile_map_spec.h, kDefaultPersistentSms). Rung 12's
    // small-M mode has fewer warps than its wide mode.
    std::function<TracedShape(const GemmProblem& problem)> shape;

    // True when the kernel has trace points: `shape` is set (with or without `launch`).
    bool traceable() const { return shape != nullptr; }
};

struct KernelDescriptor {
    std::string id;     // stable name for CLI and recordings, e.g. "mma_ldmatrix_xor.f16"
    int rung = 0;       // position on the ladder, 1..; 0 for the cuBLAS references
    std::string title;  // short, e.g. "mma.sync f16 + ldmatrix + XOR swizzle"
    std::string adds;   // one line: what this rung adds to the one below it
    Precision precision = Precision::kF32;   // what A and B hold and the multiply-adds read
    Precision accumulate = Precision::kF32;  // what the sums are kept in: f32 in every rung and
                                             // reference (CUBLAS_COMPUTE_32F*), C's type
    TileShape block_tile;                    // C tile (and K step) of one thread block
    TileShape warp_tile;                     // C tile of one warp (k = 0)
    TileShape thread_tile;                   // C tile of one thread in FMA rungs (k = 0), else 0
    TileShape mma_tile;   // one tensor-core instruction, e.g. 16 x 8 x 16; 0 in FMA rungs
    int stages = 1;       // shared-memory buffers in the K loop (1 = no pipelining)
    int k_ranges = 1;     // CTAs per C tile, each a range of K (rung 14's split-K), else 1
    int ctas_per_sm = 1;  // CTAs one SM holds at once where a wave model counts more than one
                          // (rung 14's narrower rung 9 tiles: 2), else 1
    std::string swizzle;  // shared-memory layout as a viz swizzle spec ("none", "pad:16", "xor")
    // How the kernel runs its blocks, warps and copies (viz/tile_map.h): block order, warp
    // layout, instruction, who copies what, how the stages are kept busy. Filled from the
    // constants the kernel and its launch use; the tile map (kernels/tile_map_spec.h) reads it
    // as it is, with the tiles above. Left default, with block_tile_of null, where the kernel
    // has no tile map (cuBLAS).
    viz::TileSchedule schedule;
    // The kernel's own block -> C tile mapping: the __host__ __device__ function (block_order.h)
    // its kernel calls, in `schedule.raster` order (block_order_test.cpp holds them together).
    BlockTileFunction block_tile_of = nullptr;
    std::vector<std::string> layout_ids;        // fragment atlas IDs of the instructions it uses
    std::vector<SharedAccess> shared_accesses;  // its shared-memory instructions that the bank
                                                // lab models (none for cuBLAS)
    int threads = 0;                            // threads per block
    int dynamic_smem_bytes = 0;  // dynamic shared memory per block (0: static only, <= 48 KiB)
    int min_sm = 80;             // compute capability x 10 it needs (90 = sm_90a features)
    std::string reference_id;    // the cuBLAS descriptor of the same precision ("" for cuBLAS)

    // "" when the kernel computes `problem` correctly (any M, N, K >= 1 it accepts), else one
    // line saying why not ("K must be a multiple of 8: rows are copied in 16-byte pieces").
    // Pure: no CUDA calls. The runner checks M, N, K >= 1 and min_sm itself.
    // A std::function so that a loaded user kernel (kernels/user/) can bind its directive; the
    // rungs assign plain functions.
    std::function<std::string(const GemmProblem& problem)> can_run;
    // can_run's contract in numbers: it takes every M, N and K from 1 to kMaxProblemSide
    // (problem_text.h) that are multiples of these, and refuses the others. Rows copied in
    // 16-byte pieces make N and K multiples of 8 (2-byte elements) or 4 (4-byte ones).
    // registry.h's outside_documented_sizes reads it; registry_test checks can_run against it.
    TileShape size_multiples = {1, 1, 1};

    // Optional (null for most rungs): one line saying how the kernel will run `problem` where it
    // picks a mode or split per problem (rung 12: its mode and stream-K split on 132 SMs).
    // `tclens kernels --mnk` prints it after "can run".
    std::function<std::string(const GemmProblem& problem)> launch_plan;
    // Optional (null for most rungs): where the kernel picks its tile per problem (rung 11:
    // 128 x 192 or 128 x 256, kernels/wave_choice.h), the descriptor of what runs `problem` on a
    // GPU of `sms` SMs: the same id, with that tile's block, warp and MMA tiles, instruction,
    // shared memory and title, and no for_problem of its own. The tile map draws that one;
    // the fields above describe the kernel's default tile.
    std::function<KernelDescriptor(const GemmProblem& problem, int sms)> for_problem;

    // Enqueues the whole GEMM on `stream` and returns the launch error (cudaGetLastError, as a
    // GpuStatus). Null in the registry's descriptors (kernels/registry.h, buildable without
    // CUDA); the GPU registry's copies (kernels/gpu_registry.h) and a loaded user kernel have it.
    // Precondition: can_run(operands.problem) == "". Sets any function attributes it needs
    // (e.g. more than 48 KiB of dynamic shared memory) itself. A std::function so that a loaded
    // user kernel can hold its module (and keep it loaded as long as any copy lives).
    std::function<GpuStatus(const GemmOperands& operands, GpuStream stream)> launch;

    // True for a user's host launcher (kernels/user/user_kernel.h): its code takes no stream
    // and enqueues on the legacy default stream; launch() orders that work after the given
    // stream's earlier work and the stream's later work after it (event waits), unless it is
    // given cudaStreamLegacy itself. A timer that records its events on cudaStreamLegacy and
    // passes that stream times the user's kernels alone. False for every rung.
    bool launches_on_legacy_stream = false;

    // True for every kernel of yours (kernels/user): each timed launch is checked as well as
    // timed (runner.h, step 4), so that a number is the time of the work it claims. False for the
    // rungs and the cuBLAS references, whose code is tclens's own.
    bool checked_timing = false;

    TracedLaunch traced;  // rungs 8 to 12; none (traced.traceable() false) elsewhere
};

}  // namespace tclens::kernels
