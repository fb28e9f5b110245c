// Rung 13's descriptor (its kernel and launch: 13_wgmma_fp8.cu) and those of rung 14's other FP8
// configurations (their launch: kernels/fp8_dispatch.cu).
#include "kernels/13_wgmma_fp8.h"

#include <string>

#include "kernels/hopper_shapes.h"
#include "kernels/ladder.h"
#include "kernels/persistent_gemm.h"
#include "kernels/tma_rung_descriptor.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {
namespace {

// The fields of an FP8 configuration of the persistent kernel with Shape's numbers (all but
// id, rung and title): rung 13's, and rung 14's smaller tiles.
template <typename Shape>
KernelDescriptor fp8_persistent_descriptor() {
    using C = Shape;
    KernelDescriptor d;
    d.adds =
        "e4m3 inputs (1 byte, twice the tensor-core FLOP per clock of f16), k32 wgmma with both "
        "operands K-major (B stored as B^T, N x K), K tiles of 128, scales of 1";
    describe_tma_rung<C>(d, 1, C::kConsumers, 16);  // warpgroup 0 is the producer
    describe_persistent_schedule<C>(d);
    set_fp8_inputs<C>(d);
    return d;
}

// "rung 11's persistent kernel (2x1 clusters, ...) with 2 wgmma.m64n256k32 consumers, 128 x 256
// tiles".
template <typename Shape>
std::string fp8_persistent_title() {
    using C = Shape;
    return "rung 11's persistent kernel (" + std::to_string(C::kClusterM) +
           "x1 clusters, TMA multicast, TMA-store epilogue) with 2 wgmma.m64n" +
           std::to_string(C::kWgmmaN) + "k32 consumers, " + std::to_string(C::kBlockM) + " x " +
           std::to_string(C::kBlockN) + " tiles";
}

// A rung 14 configuration of Shape's tile, named `id`.
template <typename Shape>
KernelDescriptor fp8_tile_descriptor(const char* id) {
    KernelDescriptor d = fp8_persistent_descriptor<Shape>();
    d.id = id;
    d.rung = 14;
    d.title = "FP8 e4m3, " + std::to_string(Shape::kBlockN) +
              "-wide tiles: " + fp8_persistent_title<Shape>();
    return d;
}

}  // namespace

KernelDescriptor wgmma_fp8_kernel() {
    KernelDescriptor d = fp8_persistent_descriptor<wgmma_fp8::Fp8Shape>();
    d.id = "wgmma_fp8.e4m3";
    d.rung = 13;
    d.title = "FP8 e4m3: " + fp8_persistent_title<wgmma_fp8::Fp8Shape>();
    return d;
}

KernelDescriptor wgmma_fp8_tile_descriptor(int block_n) {
    if (block_n == wgmma_fp8::Fp8Shape192::kBlockN) {
        return fp8_tile_descriptor<wgmma_fp8::Fp8Shape192>("wgmma_fp8_192.e4m3");
    }
    if (block_n != wgmma_fp8::Fp8Shape128::kBlockN) return wgmma_fp8_kernel();
    return fp8_tile_descriptor<wgmma_fp8::Fp8Shape128>("wgmma_fp8_128.e4m3");
}

}  // namespace tclens::kernels
