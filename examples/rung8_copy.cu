// A loaded copy of ladder rung 8 (kernels/08_mma_cp_async.cu, bf16): a host launcher that
// includes the rung's own source and calls its launch. tclens builds it with nvcc like any
// user's file; benching it next to the built-in `mma_cp_async.bf16` shows what the loader adds
// to the timed region (nothing measurable is the goal: issue 16 asks for within 2 %).
//
//   --kernel examples/rung8_copy.cu (run from the repository root; docs/your-kernel.md)
//
// `include=..` adds the repository root to nvcc's include path, where the rung's own includes
// ("kernels/ladder.h", ...) live. 08_mma_cp_async.cpp is the rung's descriptor (without its
// launch, which the .cu attaches); gemm.cpp, smem_opt_in.cpp, sixteen_bit_rung.cpp and
// sixteen_bit_launch.cpp hold the host helpers the rung calls. The copy accepts what the rung
// accepts: K and N multiples of 8.
// tclens: include=.. type=bf16
#include "kernels/08_mma_cp_async.cpp"
#include "kernels/08_mma_cp_async.cu"
#include "kernels/gemm.cpp"
#include "kernels/sixteen_bit_launch.cpp"
#include "kernels/sixteen_bit_rung.cpp"
#include "kernels/smem_opt_in.cpp"

void launch_rung8_copy(int M, int N, int K, const __nv_bfloat16* A, const __nv_bfloat16* B,
                       float* C) {
    using namespace tclens::kernels;
    static const KernelDescriptor rung = [] {
        KernelDescriptor d = mma_cp_async_kernel(Precision::kBF16);
        attach_mma_cp_async_launches(d);
        return d;
    }();
    rung.launch(GemmOperands{A, B, C, GemmProblem{M, N, K}}, nullptr);
}
