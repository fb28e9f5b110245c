// Rung 13's descriptor (its kernel and launch: 13_wgmma_fp8.cu).
#include "kernels/13_wgmma_fp8.h"

#include <string>

#include "kernels/hopper_shapes.h"
#include "kernels/ladder.h"
#include "kernels/persistent_gemm.h"
#include "kernels/tma_rung_descriptor.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

KernelDescriptor wgmma_fp8_kernel() {
    using C = wgmma_fp8::Fp8Shape;
    const std::string wgmma = "wgmma.m64n" + std::to_string(C::kWgmmaN) + "k32";
    KernelDescriptor d;
    d.id = "wgmma_fp8.e4m3";
    d.rung = 13;
    d.precision = Precision::kE4M3;
    d.reference_id = "cublaslt.e4m3";
    d.title = "FP8 e4m3: rung 11's persistent kernel (" + std::to_string(C::kClusterM) +
              "x1 clusters, TMA multicast, TMA-store epilogue) with 2 " + wgmma + " consumers, " +
              std::to_string(C::kBlockM) + " x " + std::to_string(C::kBlockN) + " tiles";
    d.adds =
        "e4m3 inputs (1 byte, twice the tensor-core FLOP per clock of f16), k32 wgmma with both "
        "operands K-major (B stored as B^T, N x K), K tiles of 128, scales of 1";
    describe_tma_rung<C>(d, 1, C::kConsumers, 16);  // warpgroup 0 is the producer
    describe_persistent_schedule<C>(d);
    // What describe_tma_rung fills for 16-bit rungs and FP8 changes: the k32 instruction, its
    // atlas layout, 128-element boxes and the FP8 size rules.
    d.mma_tile = {hopper::kWgmmaM, C::kWgmmaN, hopper::kWgmmaKFp8};
    d.layout_ids = {wgmma + ".e4m3"};
    d.schedule.instruction = wgmma;
    d.schedule.tma_box_cols = C::kBlockK;
    d.size_multiples = {1, 4, 16};
    d.can_run = tma_tile_fp8_can_run<C>;
    return d;
}

}  // namespace tclens::kernels
