#include "kernels/fp32_grid_launch.h"

namespace tclens::kernels {

cudaError_t launch_fp32_grid(Fp32GemmKernel kernel, const GemmOperands& operands, int block_cols,
                             int block_rows, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const dim3 block(static_cast<unsigned>(block_cols), static_cast<unsigned>(block_rows));
    const dim3 grid(static_cast<unsigned>((p.n + block_cols - 1) / block_cols),
                    static_cast<unsigned>((p.m + block_rows - 1) / block_rows));
    kernel<<<grid, block, 0, stream>>>(
        static_cast<const float*>(operands.a), static_cast<const float*>(operands.b), operands.c,
        static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k));
    return cudaGetLastError();
}

}  // namespace tclens::kernels
