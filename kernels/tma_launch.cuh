#pragma once
// The host launch the TMA rungs with one block per C tile share (09_wgmma_tma.cu,
// 10_wgmma_warp_specialized.cu): shared-memory opt-in, the tensor maps of A and B, and a 1-D
// grid of one block per block_m x block_n tile of C. Included only by .cu files.

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/gemm.h"
#include "kernels/hopper.cuh"
#include "kernels/smem_opt_in.h"
#include "kernels/tma_gemm.h"

namespace tclens::kernels {

// Enqueues `kernel`(a_map, b_map, C, M, N, K, tiles_m, tiles_n) on `stream` with tiles_m x
// tiles_n blocks of Config::kThreads threads and Config::kSmemBytes of dynamic shared memory,
// after opting the kernel in to that much (`max_carveout`: and to the largest shared-memory
// carveout, as opt_in_shared_memory says). The maps describe A and B as Element, in boxes of
// Config::kBlockM and Config::kBlockK rows (encode_operand_maps). Returns the opt-in's error,
// cudaErrorInvalidValue when a map cannot be encoded, else the launch's (cudaGetLastError).
template <typename Element, typename Config, typename Kernel>
cudaError_t launch_tma_tiles(Kernel kernel, const GemmOperands& operands, cudaStream_t stream,
                             bool max_carveout) {
    const GemmProblem& p = operands.problem;
    const cudaError_t status = opt_in_shared_memory(reinterpret_cast<const void*>(kernel),
                                                    Config::kSmemBytes, max_carveout);
    if (status != cudaSuccess) {
        return status;
    }
    CUtensorMap a_map;
    CUtensorMap b_map;
    if (!encode_operand_maps(operands, hopper::tma_type<Element>(), Config::kBlockM,
                             Config::kBlockK, &a_map, &b_map)
             .empty()) {
        return cudaErrorInvalidValue;
    }
    const int tiles_m = static_cast<int>(tiles_covering(p.m, Config::kBlockM));
    const int tiles_n = static_cast<int>(tiles_covering(p.n, Config::kBlockN));
    kernel<<<static_cast<unsigned>(std::int64_t{tiles_m} * tiles_n), Config::kThreads,
             Config::kSmemBytes, stream>>>(a_map, b_map, operands.c, static_cast<int>(p.m),
                                           static_cast<int>(p.n), static_cast<int>(p.k), tiles_m,
                                           tiles_n);
    return cudaGetLastError();
}

}  // namespace tclens::kernels
