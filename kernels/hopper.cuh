#pragma once
// Device helpers shared by the Hopper rungs (09_wgmma_tma.cu, 10_wgmma_warp_specialized.cu,
// 11_wgmma_persistent.cu): mbarriers, TMA loads and stores, wgmma with both operands in shared
// memory, 128-byte-swizzle matrix descriptors, setmaxnreg, named and cluster barriers. Each
// wrapper is one PTX instruction (or one wait loop); semantics are those of the PTX ISA.
// Included only by .cu files.
//
// These instructions exist in the sm_90a feature set alone. Everything that emits one is
// compiled only when TCLENS_HOPPER_DEVICE is defined (the sm_90a device pass); kernels guard
// their bodies the same way and are stubs for every other target (their descriptors say
// min_sm = 90, so the runner never launches a stub). The constants are plain C++ for host and
// device alike (kernels/hopper_shapes.h); the block orders are kernels/block_order.h's.
//
// The shared-memory operand layout all three rungs use, for 16-bit elements and 128-byte swizzle
// (TMA writes it, wgmma reads it; tile bases 1024-byte aligned):
//   every row is 128 bytes (64 elements); 16-byte chunk c of row r sits at chunk c ^ (r % 8).
//   A (M x K, K contiguous): one TMA box of 64 (k) x BM (m) rows per stage: "K-major".
//   B (K x N, N contiguous): BN / 64 boxes of 64 (n) x BK (k) rows, box after box: "MN-major",
//     so wgmma reads it with the transpose flag (imm-trans-b = 1).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/hopper_shapes.h"
#include "kernels/ptx.cuh"
#include "kernels/tma_gemm.h"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCLENS_HOPPER_DEVICE 1
#endif

namespace tclens::kernels::hopper {

static_assert(kBoxElems == static_cast<int>(kTmaBoxElems),
              "device and host agree on the box width");

// The TMA element type of a 16-bit operand.
template <typename Element>
constexpr CUtensorMapDataType tma_type() {
    return std::is_same_v<Element, __half> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                           : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
}

#if defined(TCLENS_HOPPER_DEVICE)

using ptx::smem_addr;

// The first 1024-byte boundary at or after p (dynamic shared memory is only 16-byte aligned;
// every kernel allocates 1 KiB of slack for this).
__device__ __forceinline__ unsigned char* align_1024(unsigned char* p) {
    const std::uint32_t a = smem_addr(p);
    return p + ((kSwizzleAtomBytes - (a % kSwizzleAtomBytes)) % kSwizzleAtomBytes);
}

// ---- mbarrier --------------------------------------------------------------------------------
// A phase completes when `count` arrivals have happened and the transaction count (bytes
// announced by expect_tx, minus bytes delivered by TMA) is back at zero. Waits name the parity
// of the phase they wait for; a fresh barrier is in phase 0, so waiting for parity 1 returns at
// once ("the phase before the first is complete"), which is how producers start on empty slots.

__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count)
                 : "memory");
}
// Makes mbarrier.init visible to the async proxy (TMA) and to the other CTAs of the cluster;
// follow it with a CTA (or cluster) barrier before any other thread uses the barriers.
__device__ __forceinline__ void fence_barrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// One arrival that also announces `bytes` more to come from TMA in this phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
// One arrival on the barrier at the same offset in CTA `cta_rank` of the cluster (which may be
// this CTA). Default semantics (release at CTA scope), as CUTLASS's ClusterBarrier::arrive: the
// arrival only says "my wgmma reads of this slot are done" (wgmma.wait_group already waited for
// them), so nothing needs ordering at cluster scope; .release.cluster would add a cluster-scope
// memory fence to every arrival, in the consumers' K loop (rung 11's first version did that and
// ran at half the speed of its cluster-less build).
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint64_t* bar,
                                                        std::uint32_t cta_rank) {
    asm volatile(
        "{\n.reg .b32 remote;\n"
        "mapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem_addr(bar)),
        "r"(cta_rank)
        : "memory");
}
// Blocks until the phase of parity `parity` has completed (try_wait suspends in hardware for a
// while before it returns false, so the loop does not hammer the barrier).
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
    const std::uint32_t addr = smem_addr(bar);
    std::uint32_t done = 0;
    do {
        asm volatile(
            "{\n.reg .pred p;\n"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            "selp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(addr), "r"(parity)
            : "memory");
    } while (done == 0);
}

// ---- TMA -------------------------------------------------------------------------------------
// `map` is the address of a __grid_constant__ CUtensorMap kernel parameter. Coordinates are
// elements, innermost (column) first; boxes that reach past the tensor read zeros there and
// still deliver (and count) the whole box's bytes.

__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}
// Global -> shared box at `dst`; its bytes complete_tx on `bar`.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, std::uint64_t* bar,
                                            int col, int row) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_addr(dst)),
        "l"(map), "r"(col), "r"(row), "r"(smem_addr(bar))
        : "memory");
}
// The same box written to `dst` in every CTA of `cta_mask` (bit r: cluster rank r), each copy
// signalling the barrier at `bar`'s offset in its own CTA.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map,
                                                      std::uint64_t* bar, int col, int row,
                                                      std::uint16_t cta_mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(smem_addr(dst)),
        "l"(map), "r"(col), "r"(row), "r"(smem_addr(bar)), "h"(cta_mask)
        : "memory");
}
// Shared -> global box from `src`; elements outside the tensor are not written. Part of the
// thread's current bulk group (commit with bulk_commit_group).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int col,
                                             int row) {
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(map),
        "r"(col), "r"(row), "r"(smem_addr(src))
        : "memory");
}
__device__ __forceinline__ void bulk_commit_group() {
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
// Until at most `pending` of the thread's bulk groups still read their shared-memory source.
template <int pending>
__device__ __forceinline__ void bulk_wait_group_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(pending) : "memory");
}
// Until at most `pending` of the thread's bulk groups are incomplete (writes done).
template <int pending>
__device__ __forceinline__ void bulk_wait_group() {
    asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(pending) : "memory");
}
// Orders this thread's generic-proxy shared-memory writes before later async-proxy accesses
// (a TMA store or a wgmma reading them).
__device__ __forceinline__ void fence_proxy_async_shared() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Lets the grid launched after this one as its programmatic dependent start (it waits for this
// grid's memory before reading it: cudaGridDependencySynchronize) once every CTA of this grid has
// called this or exited.
__device__ __forceinline__ void launch_dependents() {
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}

// ---- wgmma -----------------------------------------------------------------------------------

// 14-bit field of a matrix descriptor: address or byte offset >> 4.
__device__ __forceinline__ std::uint64_t descriptor_field(std::uint32_t bytes) {
    return static_cast<std::uint64_t>((bytes & 0x3ffffu) >> 4);
}
constexpr std::uint64_t kDescriptorSwizzle128B = std::uint64_t{1} << 62;  // layout type 1

// Descriptor of a K-major operand tile at `tile` (rows of 128 swizzled bytes, 8-row atoms
// 1024 bytes apart: SBO = 1024; LBO is unused for swizzled K-major layouts, 16 by convention).
// The k16 steps inside a row are reached by adding kAStepBytes >> 4 to the descriptor (the
// start address field): the hardware applies the XOR to the final address, which is why tiles
// must be 1024-byte aligned (base offset 0).
__device__ __forceinline__ std::uint64_t k_major_descriptor(const void* tile) {
    return descriptor_field(smem_addr(tile)) | descriptor_field(16) << 16 |
           descriptor_field(kSwizzleAtomBytes) << 32 | kDescriptorSwizzle128B;
}
// Descriptor of an MN-major operand tile (B: rows along K, each 64 contiguous N elements).
// Canonical 128B-swizzle MN-major layout, in 16-byte units ((8, n), (8, k)) : ((1, LBO), (8, SBO)):
// LBO = bytes between consecutive 64-element column blocks (our TMA boxes: `box_bytes`),
// SBO = bytes between consecutive 8-row groups along K (1024). Worked example, BK = 64: LBO =
// 64 rows x 128 bytes = 8192, so an n256 wgmma reads boxes 0..3 of the stage.
__device__ __forceinline__ std::uint64_t mn_major_descriptor(const void* tile,
                                                             std::uint32_t box_bytes) {
    return descriptor_field(smem_addr(tile)) | descriptor_field(box_bytes) << 16 |
           descriptor_field(kSwizzleAtomBytes) << 32 | kDescriptorSwizzle128B;
}
// desc moved on by `bytes` (a multiple of 16) within the same shared-memory tile.
__device__ __forceinline__ std::uint64_t advance_descriptor(std::uint64_t desc,
                                                            std::uint32_t bytes) {
    return desc + (bytes >> 4);
}

__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit_group() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Until at most `pending` of the warp's committed wgmma groups are still running.
template <int pending>
__device__ __forceinline__ void wgmma_wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(pending) : "memory");
}
// A compiler-only barrier on the accumulators: no instruction, but the compiler may not move
// reads or writes of d across it (or across the wgmma statements around it).
template <int R>
__device__ __forceinline__ void fence_accumulators(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) {
        asm volatile("" : "+f"(d[i])::"memory");
    }
}

// Operand numbering of every wgmma statement: %0 .. %(R-1) the R = N / 2 accumulators, then the
// A descriptor, the B descriptor and the scale-d flag (0: D = A B, else D += A B).
#define TCLENS_WGMMA_D8(i)                                                                      \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
        "+f"(d[i + 6]), "+f"(d[i + 7])
#define TCLENS_WGMMA_D_OPS_32 \
    TCLENS_WGMMA_D8(0), TCLENS_WGMMA_D8(8), TCLENS_WGMMA_D8(16), TCLENS_WGMMA_D8(24)
#define TCLENS_WGMMA_D_OPS_64                                                             \
    TCLENS_WGMMA_D_OPS_32, TCLENS_WGMMA_D8(32), TCLENS_WGMMA_D8(40), TCLENS_WGMMA_D8(48), \
        TCLENS_WGMMA_D8(56)
#define TCLENS_WGMMA_D_OPS_96                                                             \
    TCLENS_WGMMA_D_OPS_64, TCLENS_WGMMA_D8(64), TCLENS_WGMMA_D8(72), TCLENS_WGMMA_D8(80), \
        TCLENS_WGMMA_D8(88)
#define TCLENS_WGMMA_D_OPS_128                                                              \
    TCLENS_WGMMA_D_OPS_96, TCLENS_WGMMA_D8(96), TCLENS_WGMMA_D8(104), TCLENS_WGMMA_D8(112), \
        TCLENS_WGMMA_D8(120)
#define TCLENS_WGMMA_D_REGS_32                                                    \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, " \
    "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TCLENS_WGMMA_D_REGS_64                                                           \
    TCLENS_WGMMA_D_REGS_32                                                               \
    ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TCLENS_WGMMA_D_REGS_96                                                           \
    TCLENS_WGMMA_D_REGS_64                                                               \
    ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define TCLENS_WGMMA_D_REGS_128                                                                \
    TCLENS_WGMMA_D_REGS_96                                                                     \
    ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, " \
    "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, "     \
    "%125, %126, %127"
// wgmma with A and B from shared memory; scale-a = scale-b = 1, A K-major (trans-a 0), B
// MN-major (trans-b 1). `shape_types`: e.g. "m64n256k16.f32.bf16.bf16"; `regs` / `ops`: the
// accumulator list; `a`, `b`, `s`: the operand numbers of the descriptors and scale-d.
#define TCLENS_WGMMA_SS(shape_types, regs, ops, a, b, s)                              \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " s                                \
                 ", 0;\n"                                                             \
                 "wgmma.mma_async.sync.aligned." shape_types " {" regs "}, " a ", " b \
                 ", p, 1, 1, 0, 1;\n}\n"                                              \
                 : ops                                                                \
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d))

// d (64 x N f32 of the warpgroup, N / 2 per thread) = A B (scale_d == 0) or d + A B, for one
// k16 step: A 64 x 16 K-major at desc_a, B 16 x N MN-major at desc_b. Asynchronous: the caller
// fences before (wgmma_fence), commits after and waits before it touches d. Element is __half
// or __nv_bfloat16; N is 64, 128, 192 or 256.
// Accumulators: (thread t, register i) -> (row 16 (t / 32) + (t % 32) / 4 + 8 ((i % 4) / 2),
// col 8 (i / 4) + 2 (t % 4) + i % 2): m16n8 C fragments, one per n8 block, per warp.
template <typename Element, int N>
__device__ __forceinline__ void wgmma_ss(float (&d)[N / 2], std::uint64_t desc_a,
                                         std::uint64_t desc_b, std::uint32_t scale_d) {
    constexpr bool kHalf = std::is_same_v<Element, __half>;
    static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                  "wgmma_ss is instantiated for N = 64, 128, 192, 256");
    if constexpr (N == 64) {
        if constexpr (kHalf) {
            TCLENS_WGMMA_SS("m64n64k16.f32.f16.f16", TCLENS_WGMMA_D_REGS_32, TCLENS_WGMMA_D_OPS_32,
                            "%32", "%33", "%34");
        } else {
            TCLENS_WGMMA_SS("m64n64k16.f32.bf16.bf16", TCLENS_WGMMA_D_REGS_32,
                            TCLENS_WGMMA_D_OPS_32, "%32", "%33", "%34");
        }
    } else if constexpr (N == 128) {
        if constexpr (kHalf) {
            TCLENS_WGMMA_SS("m64n128k16.f32.f16.f16", TCLENS_WGMMA_D_REGS_64, TCLENS_WGMMA_D_OPS_64,
                            "%64", "%65", "%66");
        } else {
            TCLENS_WGMMA_SS("m64n128k16.f32.bf16.bf16", TCLENS_WGMMA_D_REGS_64,
                            TCLENS_WGMMA_D_OPS_64, "%64", "%65", "%66");
        }
    } else if constexpr (N == 192) {
        if constexpr (kHalf) {
            TCLENS_WGMMA_SS("m64n192k16.f32.f16.f16", TCLENS_WGMMA_D_REGS_96, TCLENS_WGMMA_D_OPS_96,
                            "%96", "%97", "%98");
        } else {
            TCLENS_WGMMA_SS("m64n192k16.f32.bf16.bf16", TCLENS_WGMMA_D_REGS_96,
                            TCLENS_WGMMA_D_OPS_96, "%96", "%97", "%98");
        }
    } else {
        if constexpr (kHalf) {
            TCLENS_WGMMA_SS("m64n256k16.f32.f16.f16", TCLENS_WGMMA_D_REGS_128,
                            TCLENS_WGMMA_D_OPS_128, "%128", "%129", "%130");
        } else {
            TCLENS_WGMMA_SS("m64n256k16.f32.bf16.bf16", TCLENS_WGMMA_D_REGS_128,
                            TCLENS_WGMMA_D_OPS_128, "%128", "%129", "%130");
        }
    }
}

// The 8-bit form: no transpose immediates (both operands must be K-major), scale-a = scale-b
// = 1 (the only negation control; they are not FP8 scale factors).
#define TCLENS_WGMMA_SS_K_MAJOR(shape_types, regs, ops, a, b, s)                      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " s                                \
                 ", 0;\n"                                                             \
                 "wgmma.mma_async.sync.aligned." shape_types " {" regs "}, " a ", " b \
                 ", p, 1, 1;\n}\n"                                                    \
                 : ops                                                                \
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d))

// d (64 x N f32 of the warpgroup) = A B (scale_d == 0) or d + A B, for one k32 step of FP8
// e4m3: A 64 x 32 K-major at desc_a, B^T N x 32 K-major at desc_b (the 8-bit wgmma reads no
// MN-major operand from shared memory). 32 bytes of each operand row, as k16 of 16-bit types:
// the same descriptors and the same byte steps read twice the elements. N is 64, 128, 192 or
// 256; asynchronous and with the same accumulator layout as wgmma_ss.
template <int N>
__device__ __forceinline__ void wgmma_ss_e4m3(float (&d)[N / 2], std::uint64_t desc_a,
                                              std::uint64_t desc_b, std::uint32_t scale_d) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                  "wgmma_ss_e4m3 is instantiated for N = 64, 128, 192, 256");
    if constexpr (N == 64) {
        TCLENS_WGMMA_SS_K_MAJOR("m64n64k32.f32.e4m3.e4m3", TCLENS_WGMMA_D_REGS_32,
                                TCLENS_WGMMA_D_OPS_32, "%32", "%33", "%34");
    } else if constexpr (N == 128) {
        TCLENS_WGMMA_SS_K_MAJOR("m64n128k32.f32.e4m3.e4m3", TCLENS_WGMMA_D_REGS_64,
                                TCLENS_WGMMA_D_OPS_64, "%64", "%65", "%66");
    } else if constexpr (N == 192) {
        TCLENS_WGMMA_SS_K_MAJOR("m64n192k32.f32.e4m3.e4m3", TCLENS_WGMMA_D_REGS_96,
                                TCLENS_WGMMA_D_OPS_96, "%96", "%97", "%98");
    } else {
        TCLENS_WGMMA_SS_K_MAJOR("m64n256k32.f32.e4m3.e4m3", TCLENS_WGMMA_D_REGS_128,
                                TCLENS_WGMMA_D_OPS_128, "%128", "%129", "%130");
    }
}

#undef TCLENS_WGMMA_SS_K_MAJOR
#undef TCLENS_WGMMA_SS
#undef TCLENS_WGMMA_D_REGS_128
#undef TCLENS_WGMMA_D_REGS_96
#undef TCLENS_WGMMA_D_REGS_64
#undef TCLENS_WGMMA_D_REGS_32
#undef TCLENS_WGMMA_D_OPS_128
#undef TCLENS_WGMMA_D_OPS_96
#undef TCLENS_WGMMA_D_OPS_64
#undef TCLENS_WGMMA_D_OPS_32
#undef TCLENS_WGMMA_D8

// ---- registers, barriers, clusters -----------------------------------------------------------

// Every thread of the warpgroup must execute the same one.
template <int registers>
__device__ __forceinline__ void setmaxnreg_increase() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(registers));
}
template <int registers>
__device__ __forceinline__ void setmaxnreg_decrease() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(registers));
}
// Barrier `id` (1..15; 0 is __syncthreads) among `threads` threads (a multiple of 32).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ std::uint32_t cluster_cta_rank() {
    std::uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    return rank;
}
// All threads of all CTAs of the cluster; orders shared-memory accesses at cluster scope.
__device__ __forceinline__ void cluster_sync() {
    asm volatile(
        "barrier.cluster.arrive.release.aligned;\n"
        "barrier.cluster.wait.acquire.aligned;\n" ::
            : "memory");
}

// ---- flags in global memory between CTAs (rung 12's stream-K fix-up) -------------------------
// st.release.gpu: every write this thread (and, through a preceding CTA or named barrier, its
// barrier peers) made before it is visible to any thread that reads `value` with an acquire.
__device__ __forceinline__ void store_release_gpu(std::uint32_t* flag, std::uint32_t value) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(value) : "memory");
}
// ld.acquire.gpu: no later read of this thread (or of its peers after a barrier) sees memory
// older than the release that wrote the value it returns.
__device__ __forceinline__ std::uint32_t load_acquire_gpu(const std::uint32_t* flag) {
    std::uint32_t value;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(value) : "l"(flag) : "memory");
    return value;
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels::hopper
