// wgmma shared-memory view probe: one warpgroup (128 threads) per experiment. Each copies its A
// and B tiles into shared memory, each tile starting on a 1024-byte boundary (so the swizzle
// pattern starts with the tile and the descriptor's base offset is 0), then runs one
// wgmma.mma_async m64n64 with scale-d = 0: the RS form (A from its register image, B through the
// B descriptor) or the SS form (A and B through their descriptors), and stores D as the registers
// came out. Plans and decoding: wgmma_smem_probe_plan.cpp.
//
// As in wgmma_probe.cu, the real body exists only for sm_90a; other targets raise the
// "not compiled" flag.
#include <cuda_runtime.h>

#include "kernels/probes/wgmma_smem_probe_plan.h"

namespace tclens::kernels {
namespace {

constexpr int kDRegs = kWgmmaSmemN / 2;

template <WgmmaKind K, bool Trans>
struct WgmmaSmem;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

// Operands: %0..%31 the accumulators (outputs), then for the RS form %32..%35 the A registers,
// %36 the B descriptor and %37 scale-d; for the SS form %32 the A descriptor, %33 the B
// descriptor and %34 scale-d. One asm statement runs fence, mma_async, commit and wait, so the
// accumulators are final when it ends.
#define TCLENS_SMEM_D                                                                             \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
    "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define TCLENS_SMEM_D_OPS                                                                          \
    "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),            \
        "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]),    \
        "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), \
        "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), \
        "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])

// shape_types: "k<K>.<dtype>.<atype>.<btype>[.and.popc]"; rs_tail and ss_tail: the immediates
// after scale-d (imm-scale-a, imm-scale-b and, for f16, imm-trans-b, or imm-trans-a and
// imm-trans-b; none for b1).
#define TCLENS_WGMMA_SMEM(kind, trans, shape_types, rs_tail, ss_tail)                        \
    template <>                                                                              \
    struct WgmmaSmem<WgmmaKind::kind, trans> {                                               \
        __device__ static void rs(uint32_t (&d)[kDRegs], const uint32_t (&a)[kWgmmaARegs],   \
                                  uint64_t b_desc) {                                         \
            asm volatile(                                                                    \
                "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"                                 \
                "wgmma.fence.sync.aligned;\n"                                                \
                "wgmma.mma_async.sync.aligned.m64n64" shape_types " " TCLENS_SMEM_D          \
                ", {%32, %33, %34, %35}, %36, p" rs_tail                                     \
                ";\n"                                                                        \
                "wgmma.commit_group.sync.aligned;\n"                                         \
                "wgmma.wait_group.sync.aligned 0;\n"                                         \
                "}\n"                                                                        \
                : TCLENS_SMEM_D_OPS                                                          \
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(0u)           \
                : "memory");                                                                 \
        }                                                                                    \
        __device__ static void ss(uint32_t (&d)[kDRegs], uint64_t a_desc, uint64_t b_desc) { \
            asm volatile(                                                                    \
                "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                 \
                "wgmma.fence.sync.aligned;\n"                                                \
                "wgmma.mma_async.sync.aligned.m64n64" shape_types " " TCLENS_SMEM_D          \
                ", %32, %33, p" ss_tail                                                      \
                ";\n"                                                                        \
                "wgmma.commit_group.sync.aligned;\n"                                         \
                "wgmma.wait_group.sync.aligned 0;\n"                                         \
                "}\n"                                                                        \
                : TCLENS_SMEM_D_OPS                                                          \
                : "l"(a_desc), "l"(b_desc), "r"(0u)                                          \
                : "memory");                                                                 \
        }                                                                                    \
    };

// clang-format off
TCLENS_WGMMA_SMEM(F16, false, "k16.f32.f16.f16", ", 1, 1, 0", ", 1, 1, 0, 0")
TCLENS_WGMMA_SMEM(F16, true, "k16.f32.f16.f16", ", 1, 1, 1", ", 1, 1, 1, 1")
TCLENS_WGMMA_SMEM(Tf32, false, "k8.f32.tf32.tf32", ", 1, 1", ", 1, 1")
TCLENS_WGMMA_SMEM(E4m3, false, "k32.f32.e4m3.e4m3", ", 1, 1", ", 1, 1")
TCLENS_WGMMA_SMEM(B1, false, "k256.s32.b1.b1.and.popc", "", "")
// clang-format on

#undef TCLENS_WGMMA_SMEM

// Copies `bytes` (a multiple of 16) from global to shared memory, 16 bytes per thread and step.
__device__ void copy_tile(uint8_t* to, const uint8_t* from, size_t bytes) {
    for (size_t i = threadIdx.x * 16; i < bytes; i += kWgmmaThreads * 16) {
        *reinterpret_cast<uint4*>(to + i) = *reinterpret_cast<const uint4*>(from + i);
    }
}

#endif  // __CUDA_ARCH_FEAT_SM90_ALL

template <WgmmaKind K, bool Trans>
__global__ void __launch_bounds__(kWgmmaThreads)
    wgmma_smem_probe_kernel(const uint8_t* a_tiles, const uint8_t* b_tiles,
                            const uint32_t* a_registers, const int32_t* a_from_registers,
                            size_t a_tile_bytes, size_t b_tile_bytes, uint64_t a_descriptor,
                            uint64_t b_descriptor, uint32_t* d_out, int* not_compiled) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ __align__(16) uint8_t smem_raw[];
    // Round the dynamic shared memory up to the 1024-byte boundary the swizzles repeat on.
    const uint32_t raw = uint32_t(__cvta_generic_to_shared(smem_raw));
    const uint32_t pad =
        uint32_t(kWgmmaSmemAlignment - raw % kWgmmaSmemAlignment) % uint32_t(kWgmmaSmemAlignment);
    uint8_t* a_smem = smem_raw + pad;
    uint8_t* b_smem = a_smem + a_tile_bytes;
    const size_t e = blockIdx.x;
    const bool from_registers = a_from_registers[e] != 0;
    if (!from_registers) copy_tile(a_smem, a_tiles + e * a_tile_bytes, a_tile_bytes);
    copy_tile(b_smem, b_tiles + e * b_tile_bytes, b_tile_bytes);
    // wgmma reads shared memory through the async proxy: make these generic-proxy writes
    // visible to it, then wait until every thread has written its share.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    const size_t thread = e * kWgmmaThreads + threadIdx.x;
    uint32_t d[kDRegs];
    for (int i = 0; i < kDRegs; ++i) {
        d[i] = 0xffffffffu;  // NaN / -1: with scale-d = 0 it must never be read
    }
    const auto address = [](const uint8_t* p) {
        return uint64_t((uint32_t(__cvta_generic_to_shared(p)) & 0x3ffffu) >> 4);
    };
    const uint64_t b_desc = b_descriptor | address(b_smem);
    if (from_registers) {
        uint32_t a[kWgmmaARegs];
        for (int i = 0; i < kWgmmaARegs; ++i) {
            a[i] = a_registers[thread * kWgmmaARegs + i];
        }
        WgmmaSmem<K, Trans>::rs(d, a, b_desc);
    } else {
        WgmmaSmem<K, Trans>::ss(d, a_descriptor | address(a_smem), b_desc);
    }
    for (int i = 0; i < kDRegs; ++i) {
        d_out[thread * kDRegs + i] = d[i];
    }
#else
    (void)a_tiles, (void)b_tiles, (void)a_registers, (void)a_from_registers, (void)a_tile_bytes,
        (void)b_tile_bytes, (void)a_descriptor, (void)b_descriptor, (void)d_out;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *not_compiled = 1;
    }
#endif
}

template <WgmmaKind K, bool Trans>
DeviceRun launch_wgmma_smem(const WgmmaSmemProbePlan& plan) {
    const size_t count = plan.experiments.size();
    const size_t register_words = size_t(kWgmmaThreads) * kWgmmaARegs;
    if (count < 1 || plan.a_tile_bytes % kWgmmaSmemAlignment != 0 ||
        plan.b_tile_bytes % kWgmmaSmemAlignment != 0 ||
        plan.a_tiles.size() != count * plan.a_tile_bytes ||
        plan.b_tiles.size() != count * plan.b_tile_bytes ||
        plan.a_registers.size() != count * register_words ||
        plan.a_from_registers.size() != count) {
        return DeviceRun{"wgmma shared-memory probe: inconsistent plan", false, {}};
    }
    const size_t smem_bytes = plan.a_tile_bytes + plan.b_tile_bytes + kWgmmaSmemAlignment;
    const size_t out_words = count * kWgmmaThreads * kDRegs;
    return run_on_device(
        {{plan.a_tiles.data(), plan.a_tiles.size()},
         {plan.b_tiles.data(), plan.b_tiles.size()},
         {plan.a_registers.data(), plan.a_registers.size() * sizeof(uint32_t)},
         {plan.a_from_registers.data(), plan.a_from_registers.size() * sizeof(int32_t)}},
        out_words, [&](const std::vector<const void*>& in, uint32_t* out, int* flag) {
            wgmma_smem_probe_kernel<K, Trans><<<unsigned(count), kWgmmaThreads, smem_bytes>>>(
                static_cast<const uint8_t*>(in[0]), static_cast<const uint8_t*>(in[1]),
                static_cast<const uint32_t*>(in[2]), static_cast<const int32_t*>(in[3]),
                plan.a_tile_bytes, plan.b_tile_bytes, plan.a_descriptor, plan.b_descriptor, out,
                flag);
        });
}

}  // namespace

DeviceRun run_wgmma_smem_probe(const WgmmaSmemProbePlan& plan) {
    switch (plan.kind) {
        case WgmmaKind::F16:
            return plan.mn_major ? launch_wgmma_smem<WgmmaKind::F16, true>(plan)
                                 : launch_wgmma_smem<WgmmaKind::F16, false>(plan);
        case WgmmaKind::Tf32:
            if (!plan.mn_major) return launch_wgmma_smem<WgmmaKind::Tf32, false>(plan);
            break;
        case WgmmaKind::E4m3:
            if (!plan.mn_major) return launch_wgmma_smem<WgmmaKind::E4m3, false>(plan);
            break;
        case WgmmaKind::B1:
            if (!plan.mn_major) return launch_wgmma_smem<WgmmaKind::B1, false>(plan);
            break;
        default:
            break;
    }
    return DeviceRun{
        "wgmma shared-memory probe: no kernel for this type and major-ness", false, {}};
}

}  // namespace tclens::kernels
