// Rung 13: FP8. Rung 10's warp-specialised pipeline (one TMA producer warpgroup, two wgmma
// consumer warpgroups, full/empty mbarriers per stage, setmaxnreg) with e4m3 inputs: 1 byte per
// element, wgmma m64n256k32, f32 accumulators and an f32 C.
//
// Why FP8 doubles the tensor-core peak: a Hopper tensor core moves and multiplies a fixed number
// of operand bits per clock. An e4m3 element is half the bits of an f16 one, so each wgmma issue
// takes twice the K (k32 instead of k16: the same 32 bytes of every A and B row) in the same
// time: 8192 dense FLOP per SM per clock instead of 4096 (kernels/peak_bound.cpp), about
// 1979 TFLOP/s on an H100 SXM at its boost clock. The same bytes of shared memory and DRAM also
// carry twice the multiply-adds, so a 128 x 256 tile of K = 128 costs what rung 10's K = 64 did.
//
// Scaling: e4m3 holds +-448 at most with 3 mantissa bits, so real FP8 GEMMs quantise each tensor
// with a scale (x_e4m3 = x / s_x, s_x mapping the tensor's absolute maximum onto 448) and
// compute D = s_A s_B (A_e4m3 B_e4m3), the two scales multiplied into the f32 epilogue (cuBLASLt:
// CUBLASLT_MATMUL_DESC_A_SCALE_POINTER / B_SCALE_POINTER). Here the inputs are already in
// e4m3's range (uniform in [-1, 1), kernels/gemm_data.h), so both scales are 1 and the epilogue
// stores the accumulators as they are; cublaslt.e4m3 runs with the same scales of 1.
//
// Operand layouts (kernels/gemm.h, b_is_k_major): A is M x K row-major (K-major); B is stored
// transposed, N x K row-major (K-major too), because wgmma reads 8-bit operands from shared
// memory only K-major (no transpose immediates exist for them) and cuBLASLt's FP8 GEMM takes
// only that "TN" layout. Both land in shared memory as the 16-bit rungs' A does: 128-byte
// swizzled rows of 128 k elements, 8-row atoms 1024 bytes apart, read with k_major_descriptor.
//
// Accumulation: the wgmma accumulates straight into the f32 registers, every k32 step, with no
// promotion of partial sums into separate f32 registers (CUTLASS's "fast accumulation"; the
// verification bound in kernels/runner.h says what that costs, and cublaslt.e4m3 runs the same
// mode so the comparison is like with like).
//
// Tiling: 384 threads = warpgroup 0 (producer) + warpgroups 1, 2 (consumers). Consumer c owns C
// rows 64 c .. 64 c + 63 of the 128 x 256 block tile: one wgmma m64n256k32 per k32 step, 4 steps
// per K tile of 128, 128 accumulators per thread.
//
// Shared memory: 1 KiB alignment slack, then `stages` stages of one A box (128 rows x 128 bytes,
// 16 KiB) and one B^T box (256 rows x 128 bytes, 32 KiB), both "tma128", then full[stages],
// empty[stages]. 4 stages: 192 KiB.
//
// Pipeline: rung 10's, K tile kt in slot kt % stages (see 10_wgmma_warp_specialized.cu).
//
// Edges: TMA reads zeros past M, N and K (so K tails add nothing), C stores are guarded per row
// and float2 pair; can_run asks K % 16 == 0 (TMA row strides) and N even (tma_fp8_gemm_can_run).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/block_order.h"
#include "kernels/hopper.cuh"
#include "kernels/ladder.h"
#include "kernels/smem_opt_in.h"
#include "kernels/tma_rung.cuh"

namespace tclens::kernels {
namespace {

struct Fp8Config {
    static constexpr int kConsumers = 2;  // consumer warpgroups, 64 rows of C each
    static constexpr int kBlockM = kConsumers * hopper::kWgmmaM;
    static constexpr int kBlockN = 256;
    static constexpr int kBlockK = static_cast<int>(kTmaFp8BoxElems);  // one 128-byte row
    static constexpr int kStages = 4;
    static constexpr int kGroupM = 16;

    static constexpr int kThreads = (1 + kConsumers) * hopper::kWarpgroupThreads;
    static constexpr int kWgmmaN = kBlockN;

    static constexpr int kABytes = kBlockM * hopper::kSwizzleRowBytes;
    static constexpr int kBBytes = kBlockN * hopper::kSwizzleRowBytes;  // one B^T box
    static constexpr int kStageBytes = kABytes + kBBytes;
    static constexpr int kSmemBytes =
        hopper::kSwizzleAtomBytes + kStages * kStageBytes + 2 * kStages * 8;
    // Bytes between the k32 steps of a K tile, in A and in B^T alike: 32 one-byte elements.
    static constexpr int kStepBytes = hopper::kWgmmaKFp8;

    static_assert(kBlockN <= 256, "one TMA box of B^T holds at most 256 rows");
    static_assert(kSmemBytes <= 227 * 1024, "shared memory must fit one H100 block");

    // Block id -> (tile row, tile col) of C, as rung 10: bands of kGroupM tile rows.
    __host__ __device__ static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                               int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroupM, tile_m, tile_n);
    }
};

__global__ void __launch_bounds__(Fp8Config::kThreads, 1)
    fp8_gemm(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
             float* __restrict__ c, int m, int n, int k, int tiles_m, int tiles_n) {
#if defined(TCLENS_HOPPER_DEVICE)
    using C = Fp8Config;
    namespace hp = hopper;
    constexpr int kSteps = C::kBlockK / hp::kWgmmaKFp8;  // k32 steps per K tile
    constexpr int kAccumulators = C::kWgmmaN / 2;        // per consumer thread
    constexpr int kConsumerWarps = C::kConsumers * 4;    // arrivals that empty a slot
    extern __shared__ unsigned char smem_raw[];
    unsigned char* smem = hp::align_1024(smem_raw);
    std::uint64_t* full = reinterpret_cast<std::uint64_t*>(smem + C::kStages * C::kStageBytes);
    std::uint64_t* empty = full + C::kStages;

    const int tid = threadIdx.x;
    const int warpgroup = tid / hp::kWarpgroupThreads;
    int tile_m = 0;
    int tile_n = 0;
    C::block_tile(blockIdx.x, tiles_m, tiles_n, tile_m, tile_n);
    const int block_m = tile_m * C::kBlockM;
    const int block_n = tile_n * C::kBlockN;
    const int k_tiles = (k + C::kBlockK - 1) / C::kBlockK;

    if (tid == 0) {
        hp::prefetch_tensor_map(&a_map);
        hp::prefetch_tensor_map(&b_map);
#pragma unroll
        for (int s = 0; s < C::kStages; ++s) {
            hp::mbarrier_init(&full[s], 1);
            hp::mbarrier_init(&empty[s], kConsumerWarps);
        }
        hp::fence_barrier_init();
    }
    __syncthreads();

    if (warpgroup == 0) {
        hp::setmaxnreg_decrease<hp::kProducerRegisters>();
        if (tid == 0) {
            for (int kt = 0; kt < k_tiles; ++kt) {
                const int s = kt % C::kStages;
                unsigned char* stage = smem + s * C::kStageBytes;
                hp::mbarrier_wait(&empty[s], (kt / C::kStages + 1) % 2);
                hp::mbarrier_arrive_expect_tx(&full[s], C::kStageBytes);
                hp::tma_load_2d(stage, &a_map, &full[s], kt * C::kBlockK, block_m);
                hp::tma_load_2d(stage + C::kABytes, &b_map, &full[s], kt * C::kBlockK, block_n);
            }
        }
        return;
    }

    hp::setmaxnreg_increase<hp::kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const int lane = tid % 32;
    const std::uint64_t a_desc =
        hp::k_major_descriptor(smem + consumer * hp::kWgmmaM * hp::kSwizzleRowBytes);
    const std::uint64_t b_desc = hp::k_major_descriptor(smem + C::kABytes);
    float acc[kAccumulators] = {};
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % C::kStages;
        hp::mbarrier_wait(&full[s], (kt / C::kStages) % 2);
        hp::wgmma_fence();
#pragma unroll
        for (int step = 0; step < kSteps; ++step) {
            const std::uint32_t offset = s * C::kStageBytes + step * C::kStepBytes;
            hp::wgmma_ss_e4m3<C::kWgmmaN>(acc, hp::advance_descriptor(a_desc, offset),
                                          hp::advance_descriptor(b_desc, offset), (kt | step) != 0);
        }
        hp::wgmma_commit_group();
        hp::wgmma_wait_group<1>();
        hp::fence_accumulators(acc);
        if (kt > 0 && lane == 0) {
            hp::mbarrier_arrive(&empty[(kt - 1) % C::kStages]);
        }
    }
    hp::wgmma_wait_group<0>();
    hp::fence_accumulators(acc);

    // Accumulators: (thread, i) -> (16 warp + g + 8 ((i % 4) / 2), 8 (i / 4) + 2 t + i % 2)
    // of the consumer's 64 x 256 tile (the f32 D layout does not depend on the input type).
    const int warp = (tid / 32) % 4;
    const int g = lane / 4;
    const int t = lane % 4;
#pragma unroll
    for (int j = 0; j < kAccumulators / 4; ++j) {
        const int col = block_n + 8 * j + 2 * t;
        if (col >= n) {
            continue;
        }
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = block_m + hp::kWgmmaM * consumer + 16 * warp + g + 8 * half;
            if (row < m) {
                *reinterpret_cast<float2*>(c + static_cast<std::int64_t>(row) * n + col) =
                    make_float2(acc[4 * j + 2 * half], acc[4 * j + 2 * half + 1]);
            }
        }
    }
#else
    (void)a_map, (void)b_map, (void)c, (void)m, (void)n, (void)k, (void)tiles_m, (void)tiles_n;
#endif
}

std::string fp8_can_run(const GemmProblem& problem) {
    return tma_fp8_gemm_can_run(problem, Fp8Config::kBlockM, Fp8Config::kBlockN);
}

// One block per C tile, as rung 10; the maps are the K-major FP8 ones.
cudaError_t fp8_launch(const GemmOperands& operands, cudaStream_t stream) {
    using C = Fp8Config;
    const GemmProblem& p = operands.problem;
    const cudaError_t status =
        opt_in_shared_memory(reinterpret_cast<const void*>(fp8_gemm), C::kSmemBytes, false);
    if (status != cudaSuccess) {
        return status;
    }
    CUtensorMap a_map;
    CUtensorMap b_map;
    if (!encode_k_major_fp8_maps(operands, C::kBlockM, C::kBlockN, &a_map, &b_map).empty()) {
        return cudaErrorInvalidValue;
    }
    const int tiles_m = static_cast<int>(tiles_covering(p.m, C::kBlockM));
    const int tiles_n = static_cast<int>(tiles_covering(p.n, C::kBlockN));
    fp8_gemm<<<static_cast<unsigned>(std::int64_t{tiles_m} * tiles_n), C::kThreads, C::kSmemBytes,
               stream>>>(a_map, b_map, operands.c, static_cast<int>(p.m), static_cast<int>(p.n),
                         static_cast<int>(p.k), tiles_m, tiles_n);
    return cudaGetLastError();
}

}  // namespace

KernelDescriptor wgmma_fp8_kernel() {
    using C = Fp8Config;
    const std::string wgmma = "wgmma.m64n" + std::to_string(C::kWgmmaN) + "k32";
    KernelDescriptor d;
    d.id = "wgmma_fp8.e4m3";
    d.rung = 13;
    d.precision = Precision::kE4M3;
    d.reference_id = "cublaslt.e4m3";
    d.title = "FP8 e4m3: warp-specialised TMA producer + 2 " + wgmma + " consumers, " +
              std::to_string(C::kBlockM) + " x " + std::to_string(C::kBlockN) + " tiles";
    d.adds =
        "e4m3 inputs (1 byte, twice the tensor-core FLOP per clock of f16), k32 wgmma with both "
        "operands K-major (B stored as B^T, N x K), K tiles of 128, scales of 1";
    describe_tma_rung<C>(d, 1, C::kConsumers, 16);  // warpgroup 0 is the producer
    // What describe_tma_rung fills for 16-bit rungs and FP8 changes: the k32 instruction, its
    // atlas layout, 128-element boxes and the FP8 size rules.
    d.mma_tile = {hopper::kWgmmaM, C::kWgmmaN, hopper::kWgmmaKFp8};
    d.layout_ids = {wgmma + ".e4m3"};
    d.schedule.instruction = wgmma;
    d.schedule.tma_box_cols = C::kBlockK;
    d.size_multiples = {1, 2, 16};
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = C::kGroupM;
    d.schedule.load_instruction = "TMA 2-D box (cp.async.bulk.tensor) from the producer";
    d.schedule.pipeline_note =
        "the producer refills a stage as soon as all 8 consumer warps release it (empty "
        "mbarrier); no block-wide barrier";
    d.block_tile_of = config_block_tile<C>;
    d.can_run = fp8_can_run;
    d.launch = fp8_launch;
    return d;
}

}  // namespace tclens::kernels
