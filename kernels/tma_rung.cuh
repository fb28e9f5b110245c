#pragma once
// Host code the TMA rungs share (09_wgmma_tma.cu, 10_wgmma_warp_specialized.cu,
// 11_wgmma_persistent.cu, 12_wgmma_stream_k.cu, 13_wgmma_fp8.cu): their traced launches,
// their operand maps, and the launch of the rungs with one block per C tile (09, 10). Included
// only by .cu files; the descriptor fields they fill alike are kernels/tma_rung_descriptor.h.

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/hopper.cuh"
#include "kernels/smem_opt_in.h"
#include "kernels/tma_gemm.h"
#include "kernels/tma_rung_descriptor.h"

namespace tclens::kernels {

// The traced variant's launch (gemm.h, TracedLaunch) for d.precision: traced_f16 or
// traced_bf16; none for another precision. Its shape and wgmma_per_phase are the descriptor's
// (kernels/tma_rung_descriptor.h).
template <typename TracedFunction>
void attach_tma_traced_launch(KernelDescriptor& d, TracedFunction traced_f16,
                              TracedFunction traced_bf16) {
    if (d.precision == Precision::kF16) d.traced.launch = traced_f16;
    if (d.precision == Precision::kBF16) d.traced.launch = traced_bf16;
}

// A TMA launch's operands: the tensor maps of A and B and the grid of C tiles.
struct TmaTileOperands {
    CUtensorMap a_map;
    CUtensorMap b_map;
    int tiles_m = 0;
    int tiles_n = 0;
};

// The maps of A and B as Element in Config's boxes: A in boxes of kBlockM rows; B (K x N) in boxes
// of kBlockK rows of 64 n (encode_operand_maps), or, where Config::kBKMajor, e4m3 A and B^T in
// boxes of kBlockM and 64 rows (encode_k_major_fp8_maps). "" or the first encoder error.
template <typename Element, typename Config>
std::string encode_config_operand_maps(const GemmOperands& operands, CUtensorMap* a_map,
                                       CUtensorMap* b_map) {
    if constexpr (Config::kBKMajor) {
        return encode_k_major_fp8_maps(operands, Config::kBlockM, hopper::kBoxElems, a_map, b_map);
    } else {
        return encode_operand_maps(operands, hopper::tma_type<Element>(), Config::kBlockM,
                                   Config::kBlockK, a_map, b_map);
    }
}

// encode_config_operand_maps and the kBlockM x kBlockN tiles covering C. False when a map cannot
// be encoded.
template <typename Element, typename Config>
bool encode_tma_tile_operands(const GemmOperands& operands, TmaTileOperands* out) {
    const GemmProblem& p = operands.problem;
    if (!encode_config_operand_maps<Element, Config>(operands, &out->a_map, &out->b_map).empty()) {
        return false;
    }
    out->tiles_m = static_cast<int>(tiles_covering(p.m, Config::kBlockM));
    out->tiles_n = static_cast<int>(tiles_covering(p.n, Config::kBlockN));
    return true;
}

// Enqueues `kernel`(a_map, b_map, C, M, N, ldc, K, tiles_m, tiles_n, extra...) on `stream` with
// tiles_m x tiles_n x `ranges` (gridDim.y) blocks of Config::kThreads threads and
// Config::kSmemBytes of dynamic shared memory, after opting the kernel in to that much
// (`max_carveout`: and to the largest shared-memory carveout, as opt_in_shared_memory says). The
// maps describe A and B as Element, in boxes of Config::kBlockM and Config::kBlockK rows
// (encode_operand_maps). Returns the opt-in's error, cudaErrorInvalidValue when a map cannot be
// encoded, else the launch's (cudaGetLastError).
template <typename Element, typename Config, typename Kernel, typename... Extra>
cudaError_t launch_tma_tiles(Kernel kernel, const GemmOperands& operands, cudaStream_t stream,
                             bool max_carveout, int ranges = 1, Extra... extra) {
    const GemmProblem& p = operands.problem;
    const cudaError_t status = opt_in_shared_memory(reinterpret_cast<const void*>(kernel),
                                                    Config::kSmemBytes, max_carveout);
    if (status != cudaSuccess) {
        return status;
    }
    TmaTileOperands t;
    if (!encode_tma_tile_operands<Element, Config>(operands, &t)) {
        return cudaErrorInvalidValue;
    }
    const dim3 grid(static_cast<unsigned>(std::int64_t{t.tiles_m} * t.tiles_n),
                    static_cast<unsigned>(ranges));
    kernel<<<grid, Config::kThreads, Config::kSmemBytes, stream>>>(
        t.a_map, t.b_map, operands.c, static_cast<int>(p.m), static_cast<int>(p.n),
        c_stride(operands), static_cast<int>(p.k), t.tiles_m, t.tiles_n, extra...);
    return cudaGetLastError();
}

}  // namespace tclens::kernels
