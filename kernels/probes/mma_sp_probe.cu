// mma.sp layout probe: one warp per experiment, each loading its compressed A, B, C and
// metadata registers, running one mma.sp::ordered_metadata with the ID's sparsity selector and
// storing D as the registers came out. What the images hold and how D is decoded is the plan's
// business (mma_sp_probe_plan.cpp).
#include <cuda_runtime.h>

#include "kernels/probes/mma_sp_probe_plan.h"

namespace tclens::kernels {
namespace {

constexpr int kWarpLanes = 32;
constexpr int kWarpsPerBlock = 4;

// One struct per instruction: words per lane of A, B and C (D as C) and run(), which executes the
// instruction with selector S on one lane's words and returns false where this compilation target
// lacks it. Every operand travels as 32-bit registers.
template <SparseInstruction I, int S>
struct SparseOp;

#define TCLENS_SP_A2_B2(instruction)                                                            \
    asm volatile(instruction                                                                    \
                 " {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, %13;"         \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                               \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), \
                   "r"(c[3]), "r"(e), "n"(S))

#define TCLENS_SP_A4_B4(instruction)                                                              \
    asm volatile(instruction                                                                      \
                 " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}," \
                 " %16, %17;"                                                                     \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                 \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]),   \
                   "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e), "n"(S))

#define TCLENS_SP_OP(instr, a_count, b_count, statement)                                    \
    template <int S>                                                                        \
    struct SparseOp<SparseInstruction::instr, S> {                                          \
        static constexpr int a_words = a_count, b_words = b_count, c_words = 4;             \
        __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c, \
                                   uint32_t e, uint32_t* d) {                               \
            statement;                                                                      \
            return true;                                                                    \
        }                                                                                   \
    };

TCLENS_SP_OP(
    M16n8k16F16, 2, 2,
    TCLENS_SP_A2_B2("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"))
TCLENS_SP_OP(
    M16n8k16Bf16, 2, 2,
    TCLENS_SP_A2_B2("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"))
TCLENS_SP_OP(
    M16n8k32F16, 4, 4,
    TCLENS_SP_A4_B4("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"))
TCLENS_SP_OP(
    M16n8k32Bf16, 4, 4,
    TCLENS_SP_A4_B4("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32"))
TCLENS_SP_OP(
    M16n8k32S8, 2, 2,
    TCLENS_SP_A2_B2("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"))
TCLENS_SP_OP(
    M16n8k64S8, 4, 4,
    TCLENS_SP_A4_B4("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32"))

// FP8 mma.sp starts with sm_89.
template <int S>
struct SparseOp<SparseInstruction::M16n8k64E4m3, S> {
    static constexpr int a_words = 4, b_words = 4, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t e,
                               uint32_t* d) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        TCLENS_SP_A4_B4("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
        return true;
#else
        (void)a, (void)b, (void)c, (void)e, (void)d;
        return false;
#endif
    }
};

#undef TCLENS_SP_A2_B2
#undef TCLENS_SP_A4_B4
#undef TCLENS_SP_OP

// Experiment e runs on warp e; each lane reads its own words of e's images.
template <SparseInstruction I, int S>
__global__ void sparse_probe_kernel(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                    const uint32_t* e, uint32_t* d, int experiments,
                                    int* not_compiled) {
    using Op = SparseOp<I, S>;
    const int experiment = int(blockIdx.x) * kWarpsPerBlock + int(threadIdx.x) / kWarpLanes;
    if (experiment >= experiments) {
        return;  // whole warps only, so every mma.sp below has all 32 lanes
    }
    const size_t thread = size_t(experiment) * kWarpLanes + threadIdx.x % kWarpLanes;
    uint32_t ra[Op::a_words], rb[Op::b_words], rc[Op::c_words], rd[Op::c_words];
    for (int i = 0; i < Op::a_words; ++i) ra[i] = a[thread * Op::a_words + i];
    for (int i = 0; i < Op::b_words; ++i) rb[i] = b[thread * Op::b_words + i];
    for (int i = 0; i < Op::c_words; ++i) rc[i] = c[thread * Op::c_words + i];
    if (!Op::run(ra, rb, rc, e[thread], rd)) {
        *not_compiled = 1;
        return;
    }
    for (int i = 0; i < Op::c_words; ++i) d[thread * Op::c_words + i] = rd[i];
}

template <SparseInstruction I, int S>
DeviceRun launch_sparse(const SparseProbePlan& plan) {
    using Op = SparseOp<I, S>;
    const size_t lanes = size_t(plan.experiments) * kWarpLanes;
    if (plan.a.size() != lanes * Op::a_words || plan.b.size() != lanes * Op::b_words ||
        plan.c.size() != lanes * Op::c_words || plan.e.size() != lanes) {
        return DeviceRun{
            "mma.sp probe: the plan's register images do not fit the instruction", false, {}};
    }
    const int blocks = (plan.experiments + kWarpsPerBlock - 1) / kWarpsPerBlock;
    return run_on_device(
        {{plan.a.data(), plan.a.size() * 4},
         {plan.b.data(), plan.b.size() * 4},
         {plan.c.data(), plan.c.size() * 4},
         {plan.e.data(), plan.e.size() * 4}},
        lanes * Op::c_words, [&](const std::vector<const void*>& in, uint32_t* out, int* flag) {
            sparse_probe_kernel<I, S><<<blocks, kWarpsPerBlock * kWarpLanes>>>(
                static_cast<const uint32_t*>(in[0]), static_cast<const uint32_t*>(in[1]),
                static_cast<const uint32_t*>(in[2]), static_cast<const uint32_t*>(in[3]), out,
                plan.experiments, flag);
        });
}

// The selectors each instruction accepts: 0..3 for m16n8k16 16-bit, 0..1 for m16n8k32, 0 for
// m16n8k64. Only valid ones are instantiated (the assembler rejects the others).
template <SparseInstruction I>
constexpr int selectors_of() {
    if constexpr (I == SparseInstruction::M16n8k16F16 || I == SparseInstruction::M16n8k16Bf16) {
        return 4;
    } else if constexpr (I == SparseInstruction::M16n8k64S8 ||
                         I == SparseInstruction::M16n8k64E4m3) {
        return 1;
    } else {
        return 2;
    }
}

template <SparseInstruction I, int S>
DeviceRun launch_if_valid(const SparseProbePlan& plan) {
    if constexpr (S < selectors_of<I>()) {
        return launch_sparse<I, S>(plan);
    } else {
        return DeviceRun{"mma.sp probe: sparsity selector " + std::to_string(plan.selector) +
                             " is not valid for this shape",
                         false,
                         {}};
    }
}

template <SparseInstruction I>
DeviceRun launch_with_selector(const SparseProbePlan& plan) {
    switch (plan.selector) {
        case 0:
            return launch_if_valid<I, 0>(plan);
        case 1:
            return launch_if_valid<I, 1>(plan);
        case 2:
            return launch_if_valid<I, 2>(plan);
        case 3:
            return launch_if_valid<I, 3>(plan);
        default:
            return DeviceRun{"mma.sp probe: sparsity selector must be 0..3", false, {}};
    }
}

}  // namespace

DeviceRun run_sparse_probe(const SparseProbePlan& plan) {
    if (plan.experiments < 1) {
        return DeviceRun{"mma.sp probe: empty plan", false, {}};
    }
    switch (plan.instruction) {
        case SparseInstruction::M16n8k16F16:
            return launch_with_selector<SparseInstruction::M16n8k16F16>(plan);
        case SparseInstruction::M16n8k16Bf16:
            return launch_with_selector<SparseInstruction::M16n8k16Bf16>(plan);
        case SparseInstruction::M16n8k32F16:
            return launch_with_selector<SparseInstruction::M16n8k32F16>(plan);
        case SparseInstruction::M16n8k32Bf16:
            return launch_with_selector<SparseInstruction::M16n8k32Bf16>(plan);
        case SparseInstruction::M16n8k32S8:
            return launch_with_selector<SparseInstruction::M16n8k32S8>(plan);
        case SparseInstruction::M16n8k64S8:
            return launch_with_selector<SparseInstruction::M16n8k64S8>(plan);
        case SparseInstruction::M16n8k64E4m3:
            return launch_with_selector<SparseInstruction::M16n8k64E4m3>(plan);
    }
    return DeviceRun{"mma.sp probe: unknown instruction", false, {}};
}

}  // namespace tclens::kernels
