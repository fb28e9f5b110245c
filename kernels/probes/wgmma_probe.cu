// wgmma layout probe: one warpgroup (128 threads) per experiment. Each copies its B tile into
// shared memory (canonical no-swizzle K-major layout, laid out by the plan), loads its A register
// image, runs one wgmma.mma_async with A from registers and scale-d = 0, and stores D as the
// registers came out. Decoding is the plan's business (wgmma_probe_plan.cpp).
//
// wgmma exists only in the sm_90a feature set, so the real kernel body is compiled for that
// target alone; every other target (and the host pass) gets a stub that raises the
// "not compiled" flag. N is an immediate of the instruction: every valid (type, N) is
// instantiated, 32 N for f16, tf32, e4m3 and e5m2, 18 for s8, u8 and b1.
#include <cuda_runtime.h>

#include <array>
#include <utility>

#include "kernels/probes/wgmma_probe_plan.h"

namespace tclens::kernels {
namespace {

template <WgmmaKind K, int N>
struct WgmmaRs;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

// Operand numbering in every wgmma statement: %0..%3 the A registers, %4 the B descriptor,
// %5 scale-d, %6 onwards the N / 2 accumulators (32-bit registers: f32 or s32 bits alike). Keeping
// the fixed operands first lets one register list per group of 8 columns (4 accumulators) serve
// every N. All are read-write ("+") only so that they can precede the accumulators; the
// instruction changes none of them. One asm statement holds the whole sequence, fence to wait,
// so the accumulators it outputs are final when it ends: the compiler cannot read them while the
// asynchronous wgmma still runs.
#define TCLENS_WGMMA_D4(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3])
#define TCLENS_WGMMA_D_REGS_1 "%6, %7, %8, %9"
#define TCLENS_WGMMA_D_REGS_2 TCLENS_WGMMA_D_REGS_1 ", %10, %11, %12, %13"
#define TCLENS_WGMMA_D_REGS_3 TCLENS_WGMMA_D_REGS_2 ", %14, %15, %16, %17"
#define TCLENS_WGMMA_D_REGS_4 TCLENS_WGMMA_D_REGS_3 ", %18, %19, %20, %21"
#define TCLENS_WGMMA_D_REGS_5 TCLENS_WGMMA_D_REGS_4 ", %22, %23, %24, %25"
#define TCLENS_WGMMA_D_REGS_6 TCLENS_WGMMA_D_REGS_5 ", %26, %27, %28, %29"
#define TCLENS_WGMMA_D_REGS_7 TCLENS_WGMMA_D_REGS_6 ", %30, %31, %32, %33"
#define TCLENS_WGMMA_D_REGS_8 TCLENS_WGMMA_D_REGS_7 ", %34, %35, %36, %37"
#define TCLENS_WGMMA_D_REGS_9 TCLENS_WGMMA_D_REGS_8 ", %38, %39, %40, %41"
#define TCLENS_WGMMA_D_REGS_10 TCLENS_WGMMA_D_REGS_9 ", %42, %43, %44, %45"
#define TCLENS_WGMMA_D_REGS_11 TCLENS_WGMMA_D_REGS_10 ", %46, %47, %48, %49"
#define TCLENS_WGMMA_D_REGS_12 TCLENS_WGMMA_D_REGS_11 ", %50, %51, %52, %53"
#define TCLENS_WGMMA_D_REGS_13 TCLENS_WGMMA_D_REGS_12 ", %54, %55, %56, %57"
#define TCLENS_WGMMA_D_REGS_14 TCLENS_WGMMA_D_REGS_13 ", %58, %59, %60, %61"
#define TCLENS_WGMMA_D_REGS_15 TCLENS_WGMMA_D_REGS_14 ", %62, %63, %64, %65"
#define TCLENS_WGMMA_D_REGS_16 TCLENS_WGMMA_D_REGS_15 ", %66, %67, %68, %69"
#define TCLENS_WGMMA_D_REGS_17 TCLENS_WGMMA_D_REGS_16 ", %70, %71, %72, %73"
#define TCLENS_WGMMA_D_REGS_18 TCLENS_WGMMA_D_REGS_17 ", %74, %75, %76, %77"
#define TCLENS_WGMMA_D_REGS_19 TCLENS_WGMMA_D_REGS_18 ", %78, %79, %80, %81"
#define TCLENS_WGMMA_D_REGS_20 TCLENS_WGMMA_D_REGS_19 ", %82, %83, %84, %85"
#define TCLENS_WGMMA_D_REGS_21 TCLENS_WGMMA_D_REGS_20 ", %86, %87, %88, %89"
#define TCLENS_WGMMA_D_REGS_22 TCLENS_WGMMA_D_REGS_21 ", %90, %91, %92, %93"
#define TCLENS_WGMMA_D_REGS_23 TCLENS_WGMMA_D_REGS_22 ", %94, %95, %96, %97"
#define TCLENS_WGMMA_D_REGS_24 TCLENS_WGMMA_D_REGS_23 ", %98, %99, %100, %101"
#define TCLENS_WGMMA_D_REGS_25 TCLENS_WGMMA_D_REGS_24 ", %102, %103, %104, %105"
#define TCLENS_WGMMA_D_REGS_26 TCLENS_WGMMA_D_REGS_25 ", %106, %107, %108, %109"
#define TCLENS_WGMMA_D_REGS_27 TCLENS_WGMMA_D_REGS_26 ", %110, %111, %112, %113"
#define TCLENS_WGMMA_D_REGS_28 TCLENS_WGMMA_D_REGS_27 ", %114, %115, %116, %117"
#define TCLENS_WGMMA_D_REGS_29 TCLENS_WGMMA_D_REGS_28 ", %118, %119, %120, %121"
#define TCLENS_WGMMA_D_REGS_30 TCLENS_WGMMA_D_REGS_29 ", %122, %123, %124, %125"
#define TCLENS_WGMMA_D_REGS_31 TCLENS_WGMMA_D_REGS_30 ", %126, %127, %128, %129"
#define TCLENS_WGMMA_D_REGS_32 TCLENS_WGMMA_D_REGS_31 ", %130, %131, %132, %133"
#define TCLENS_WGMMA_D_OPS_1 TCLENS_WGMMA_D4(0)
#define TCLENS_WGMMA_D_OPS_2 TCLENS_WGMMA_D_OPS_1, TCLENS_WGMMA_D4(4)
#define TCLENS_WGMMA_D_OPS_3 TCLENS_WGMMA_D_OPS_2, TCLENS_WGMMA_D4(8)
#define TCLENS_WGMMA_D_OPS_4 TCLENS_WGMMA_D_OPS_3, TCLENS_WGMMA_D4(12)
#define TCLENS_WGMMA_D_OPS_5 TCLENS_WGMMA_D_OPS_4, TCLENS_WGMMA_D4(16)
#define TCLENS_WGMMA_D_OPS_6 TCLENS_WGMMA_D_OPS_5, TCLENS_WGMMA_D4(20)
#define TCLENS_WGMMA_D_OPS_7 TCLENS_WGMMA_D_OPS_6, TCLENS_WGMMA_D4(24)
#define TCLENS_WGMMA_D_OPS_8 TCLENS_WGMMA_D_OPS_7, TCLENS_WGMMA_D4(28)
#define TCLENS_WGMMA_D_OPS_9 TCLENS_WGMMA_D_OPS_8, TCLENS_WGMMA_D4(32)
#define TCLENS_WGMMA_D_OPS_10 TCLENS_WGMMA_D_OPS_9, TCLENS_WGMMA_D4(36)
#define TCLENS_WGMMA_D_OPS_11 TCLENS_WGMMA_D_OPS_10, TCLENS_WGMMA_D4(40)
#define TCLENS_WGMMA_D_OPS_12 TCLENS_WGMMA_D_OPS_11, TCLENS_WGMMA_D4(44)
#define TCLENS_WGMMA_D_OPS_13 TCLENS_WGMMA_D_OPS_12, TCLENS_WGMMA_D4(48)
#define TCLENS_WGMMA_D_OPS_14 TCLENS_WGMMA_D_OPS_13, TCLENS_WGMMA_D4(52)
#define TCLENS_WGMMA_D_OPS_15 TCLENS_WGMMA_D_OPS_14, TCLENS_WGMMA_D4(56)
#define TCLENS_WGMMA_D_OPS_16 TCLENS_WGMMA_D_OPS_15, TCLENS_WGMMA_D4(60)
#define TCLENS_WGMMA_D_OPS_17 TCLENS_WGMMA_D_OPS_16, TCLENS_WGMMA_D4(64)
#define TCLENS_WGMMA_D_OPS_18 TCLENS_WGMMA_D_OPS_17, TCLENS_WGMMA_D4(68)
#define TCLENS_WGMMA_D_OPS_19 TCLENS_WGMMA_D_OPS_18, TCLENS_WGMMA_D4(72)
#define TCLENS_WGMMA_D_OPS_20 TCLENS_WGMMA_D_OPS_19, TCLENS_WGMMA_D4(76)
#define TCLENS_WGMMA_D_OPS_21 TCLENS_WGMMA_D_OPS_20, TCLENS_WGMMA_D4(80)
#define TCLENS_WGMMA_D_OPS_22 TCLENS_WGMMA_D_OPS_21, TCLENS_WGMMA_D4(84)
#define TCLENS_WGMMA_D_OPS_23 TCLENS_WGMMA_D_OPS_22, TCLENS_WGMMA_D4(88)
#define TCLENS_WGMMA_D_OPS_24 TCLENS_WGMMA_D_OPS_23, TCLENS_WGMMA_D4(92)
#define TCLENS_WGMMA_D_OPS_25 TCLENS_WGMMA_D_OPS_24, TCLENS_WGMMA_D4(96)
#define TCLENS_WGMMA_D_OPS_26 TCLENS_WGMMA_D_OPS_25, TCLENS_WGMMA_D4(100)
#define TCLENS_WGMMA_D_OPS_27 TCLENS_WGMMA_D_OPS_26, TCLENS_WGMMA_D4(104)
#define TCLENS_WGMMA_D_OPS_28 TCLENS_WGMMA_D_OPS_27, TCLENS_WGMMA_D4(108)
#define TCLENS_WGMMA_D_OPS_29 TCLENS_WGMMA_D_OPS_28, TCLENS_WGMMA_D4(112)
#define TCLENS_WGMMA_D_OPS_30 TCLENS_WGMMA_D_OPS_29, TCLENS_WGMMA_D4(116)
#define TCLENS_WGMMA_D_OPS_31 TCLENS_WGMMA_D_OPS_30, TCLENS_WGMMA_D4(120)
#define TCLENS_WGMMA_D_OPS_32 TCLENS_WGMMA_D_OPS_31, TCLENS_WGMMA_D4(124)

// shape_types: "k<K>.<dtype>.<atype>.<btype>[.op.popc]"; tail: the immediates after scale-d
// (imm-scale-a, imm-scale-b and, for f16, imm-trans-b; none for the integer and b1 forms).
#define TCLENS_WGMMA_RS(kind, shape_types, tail, n, groups)                                  \
    template <>                                                                              \
    struct WgmmaRs<WgmmaKind::kind, n> {                                                     \
        __device__ static void run(uint32_t (&d)[n / 2], uint32_t (&a)[kWgmmaARegs],         \
                                   uint64_t& desc, uint32_t& scale_d) {                      \
            asm volatile(                                                                    \
                "{\n.reg .pred p;\nsetp.ne.b32 p, %5, 0;\n"                                  \
                "wgmma.fence.sync.aligned;\n"                                                \
                "wgmma.mma_async.sync.aligned.m64n" #n shape_types                           \
                " {" TCLENS_WGMMA_D_REGS_##groups "}, {%0, %1, %2, %3}, %4, p" tail          \
                                                  ";\n"                                      \
                                                  "wgmma.commit_group.sync.aligned;\n"       \
                                                  "wgmma.wait_group.sync.aligned 0;\n"       \
                                                  "}\n"                                      \
                : "+r"(a[0]), "+r"(a[1]), "+r"(a[2]), "+r"(a[3]), "+l"(desc), "+r"(scale_d), \
                  TCLENS_WGMMA_D_OPS_##groups                                                \
                :                                                                            \
                : "memory");                                                                 \
        }                                                                                    \
    };

// clang-format off
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 8, 1)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 16, 2)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 24, 3)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 32, 4)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 40, 5)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 48, 6)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 56, 7)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 64, 8)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 72, 9)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 80, 10)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 88, 11)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 96, 12)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 104, 13)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 112, 14)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 120, 15)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 128, 16)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 136, 17)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 144, 18)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 152, 19)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 160, 20)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 168, 21)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 176, 22)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 184, 23)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 192, 24)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 200, 25)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 208, 26)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 216, 27)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 224, 28)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 232, 29)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 240, 30)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 248, 31)
TCLENS_WGMMA_RS(F16, "k16.f32.f16.f16", ", 1, 1, 0", 256, 32)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 8, 1)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 16, 2)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 24, 3)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 32, 4)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 40, 5)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 48, 6)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 56, 7)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 64, 8)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 72, 9)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 80, 10)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 88, 11)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 96, 12)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 104, 13)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 112, 14)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 120, 15)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 128, 16)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 136, 17)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 144, 18)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 152, 19)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 160, 20)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 168, 21)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 176, 22)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 184, 23)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 192, 24)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 200, 25)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 208, 26)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 216, 27)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 224, 28)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 232, 29)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 240, 30)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 248, 31)
TCLENS_WGMMA_RS(Tf32, "k8.f32.tf32.tf32", ", 1, 1", 256, 32)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 8, 1)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 16, 2)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 24, 3)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 32, 4)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 40, 5)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 48, 6)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 56, 7)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 64, 8)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 72, 9)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 80, 10)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 88, 11)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 96, 12)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 104, 13)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 112, 14)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 120, 15)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 128, 16)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 136, 17)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 144, 18)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 152, 19)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 160, 20)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 168, 21)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 176, 22)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 184, 23)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 192, 24)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 200, 25)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 208, 26)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 216, 27)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 224, 28)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 232, 29)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 240, 30)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 248, 31)
TCLENS_WGMMA_RS(E4m3, "k32.f32.e4m3.e4m3", ", 1, 1", 256, 32)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 8, 1)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 16, 2)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 24, 3)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 32, 4)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 40, 5)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 48, 6)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 56, 7)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 64, 8)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 72, 9)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 80, 10)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 88, 11)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 96, 12)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 104, 13)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 112, 14)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 120, 15)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 128, 16)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 136, 17)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 144, 18)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 152, 19)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 160, 20)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 168, 21)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 176, 22)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 184, 23)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 192, 24)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 200, 25)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 208, 26)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 216, 27)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 224, 28)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 232, 29)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 240, 30)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 248, 31)
TCLENS_WGMMA_RS(E5m2, "k32.f32.e5m2.e5m2", ", 1, 1", 256, 32)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 8, 1)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 16, 2)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 24, 3)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 32, 4)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 48, 6)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 64, 8)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 80, 10)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 96, 12)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 112, 14)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 128, 16)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 144, 18)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 160, 20)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 176, 22)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 192, 24)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 208, 26)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 224, 28)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 240, 30)
TCLENS_WGMMA_RS(S8, "k32.s32.s8.s8", "", 256, 32)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 8, 1)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 16, 2)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 24, 3)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 32, 4)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 48, 6)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 64, 8)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 80, 10)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 96, 12)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 112, 14)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 128, 16)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 144, 18)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 160, 20)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 176, 22)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 192, 24)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 208, 26)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 224, 28)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 240, 30)
TCLENS_WGMMA_RS(U8, "k32.s32.u8.u8", "", 256, 32)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 8, 1)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 16, 2)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 24, 3)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 32, 4)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 48, 6)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 64, 8)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 80, 10)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 96, 12)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 112, 14)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 128, 16)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 144, 18)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 160, 20)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 176, 22)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 192, 24)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 208, 26)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 224, 28)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 240, 30)
TCLENS_WGMMA_RS(B1, "k256.s32.b1.b1.and.popc", "", 256, 32)
// clang-format on

#undef TCLENS_WGMMA_RS

#endif  // __CUDA_ARCH_FEAT_SM90_ALL

template <WgmmaKind K, int N>
__global__ void __launch_bounds__(kWgmmaThreads)
    wgmma_probe_kernel(const uint32_t* a_images, const uint32_t* b_tiles, const int32_t* tile_index,
                       uint64_t descriptor_template, uint32_t* d_out, int* not_compiled) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int kTileWords = kWgmmaRowBytes / 4 * N;
    constexpr int kDRegs = N / 2;
    __shared__ __align__(128) uint32_t tile[kTileWords];
    const uint32_t* source = b_tiles + size_t(tile_index[blockIdx.x]) * kTileWords;
    for (int i = int(threadIdx.x); i < kTileWords; i += kWgmmaThreads) {
        tile[i] = source[i];
    }
    // wgmma reads shared memory through the async proxy: make these generic-proxy writes
    // visible to it, then wait until every thread has written its share.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    const size_t thread = size_t(blockIdx.x) * kWgmmaThreads + threadIdx.x;
    uint32_t a[kWgmmaARegs];
    for (int i = 0; i < kWgmmaARegs; ++i) {
        a[i] = a_images[thread * kWgmmaARegs + i];
    }
    uint32_t d[kDRegs];
    for (int i = 0; i < kDRegs; ++i) {
        d[i] = 0xffffffffu;  // NaN / -1: with scale-d = 0 it must never be read
    }
    uint64_t desc =
        descriptor_template | ((uint32_t(__cvta_generic_to_shared(tile)) & 0x3ffffu) >> 4);
    uint32_t scale_d = 0;                     // D = A * B
    WgmmaRs<K, N>::run(d, a, desc, scale_d);  // wgmma.fence, mma_async, commit_group, wait_group 0
    for (int i = 0; i < kDRegs; ++i) {
        d_out[thread * kDRegs + i] = d[i];
    }
#else
    (void)a_images, (void)b_tiles, (void)tile_index, (void)descriptor_template, (void)d_out;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *not_compiled = 1;
    }
#endif
}

template <WgmmaKind K, int N>
DeviceRun launch_wgmma(const WgmmaProbePlan& plan) {
    const size_t tile_bytes = size_t(kWgmmaRowBytes) * N;
    const size_t tiles = plan.b_tiles.size() / tile_bytes;
    bool indices_ok = plan.tile_index.size() == size_t(plan.experiments);
    for (const int32_t index : plan.tile_index) {
        indices_ok = indices_ok && index >= 0 && size_t(index) < tiles;
    }
    if (plan.experiments < 1 ||
        plan.a.size() != size_t(plan.experiments) * kWgmmaThreads * kWgmmaARegs ||
        plan.b_tiles.size() != tiles * tile_bytes || !indices_ok) {
        return DeviceRun{
            "wgmma probe: inconsistent plan (A images, B tiles or tile indices)", false, {}};
    }
    const size_t out_words = size_t(plan.experiments) * kWgmmaThreads * (N / 2);
    return run_on_device(
        {{plan.a.data(), plan.a.size() * sizeof(uint32_t)},
         {plan.b_tiles.data(), plan.b_tiles.size()},
         {plan.tile_index.data(), plan.tile_index.size() * sizeof(int32_t)}},
        out_words, [&](const std::vector<const void*>& in, uint32_t* out, int* flag) {
            wgmma_probe_kernel<K, N><<<plan.experiments, kWgmmaThreads>>>(
                static_cast<const uint32_t*>(in[0]), static_cast<const uint32_t*>(in[1]),
                static_cast<const int32_t*>(in[2]), plan.descriptor_template, out, flag);
        });
}

using WgmmaLauncher = DeviceRun (*)(const WgmmaProbePlan&);
constexpr int kFloatShapes = 32;    // N = 8, 16, ..., 256
constexpr int kIntegerShapes = 18;  // N = 8, 16, 24, 32, 48, ..., 256

constexpr int float_n(size_t i) { return 8 * int(i + 1); }
constexpr int integer_n(size_t i) { return i < 4 ? 8 * int(i + 1) : 32 + 16 * int(i - 3); }

template <WgmmaKind K, size_t... I>
constexpr std::array<WgmmaLauncher, sizeof...(I)> float_launchers(std::index_sequence<I...>) {
    return {{&launch_wgmma<K, float_n(I)>...}};
}

template <WgmmaKind K, size_t... I>
constexpr std::array<WgmmaLauncher, sizeof...(I)> integer_launchers(std::index_sequence<I...>) {
    return {{&launch_wgmma<K, integer_n(I)>...}};
}

template <WgmmaKind K>
DeviceRun launch_float(const WgmmaProbePlan& plan) {
    static constexpr auto kLaunchers = float_launchers<K>(std::make_index_sequence<kFloatShapes>());
    for (size_t i = 0; i < kLaunchers.size(); ++i) {
        if (float_n(i) == plan.n) return kLaunchers[i](plan);
    }
    return DeviceRun{"wgmma probe: N must be 8, 16, ..., 256", false, {}};
}

template <WgmmaKind K>
DeviceRun launch_integer(const WgmmaProbePlan& plan) {
    static constexpr auto kLaunchers =
        integer_launchers<K>(std::make_index_sequence<kIntegerShapes>());
    for (size_t i = 0; i < kLaunchers.size(); ++i) {
        if (integer_n(i) == plan.n) return kLaunchers[i](plan);
    }
    return DeviceRun{"wgmma probe: N must be 8, 16, 24, 32, 48, 64, ..., 256", false, {}};
}

}  // namespace

DeviceRun run_wgmma_probe(const WgmmaProbePlan& plan) {
    switch (plan.kind) {
        case WgmmaKind::F16:
            return launch_float<WgmmaKind::F16>(plan);
        case WgmmaKind::Tf32:
            return launch_float<WgmmaKind::Tf32>(plan);
        case WgmmaKind::E4m3:
            return launch_float<WgmmaKind::E4m3>(plan);
        case WgmmaKind::E5m2:
            return launch_float<WgmmaKind::E5m2>(plan);
        case WgmmaKind::S8:
            return launch_integer<WgmmaKind::S8>(plan);
        case WgmmaKind::U8:
            return launch_integer<WgmmaKind::U8>(plan);
        case WgmmaKind::B1:
            return launch_integer<WgmmaKind::B1>(plan);
    }
    return DeviceRun{"wgmma probe: unknown type", false, {}};
}

}  // namespace tclens::kernels
