// mma.sync layout probe: one warp per experiment, each loading its A, B and C register images,
// running one mma.sync and storing D exactly as the registers came out. What the images hold and
// how D is decoded is the plan's business (mma_probe_plan.cpp).
#include <cuda_runtime.h>

#include "kernels/probes/mma_probe_plan.h"

namespace tclens::kernels {
namespace {

constexpr int kWarpLanes = 32;
constexpr int kWarpsPerBlock = 4;

// One struct per instruction: 32-bit words per lane of A, B and C (D has as many as C), and
// run(), which executes the instruction on one lane's words and returns false where this
// compilation target lacks it. C and D are separate registers, as in the PTX operand list.

// Shapes with f32 accumulators: A2/B1 (m16n8k4 tf32, m16n8k8 f16) and A4/B2 (the rest).
#define TCLENS_MMA_F32_A2_B1(instruction)                                                  \
    float acc[4], out[4];                                                                  \
    for (int i = 0; i < 4; ++i) acc[i] = __uint_as_float(c[i]);                            \
    asm volatile(instruction " {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"       \
                 : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3])                  \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(acc[0]), "f"(acc[1]), "f"(acc[2]), \
                   "f"(acc[3]));                                                           \
    for (int i = 0; i < 4; ++i) d[i] = __float_as_uint(out[i])

#define TCLENS_MMA_F32_A4_B2(instruction)                                                         \
    float acc[4], out[4];                                                                         \
    for (int i = 0; i < 4; ++i) acc[i] = __uint_as_float(c[i]);                                   \
    asm volatile(instruction                                                                      \
                 " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"           \
                 : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3])                         \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(acc[0]), \
                   "f"(acc[1]), "f"(acc[2]), "f"(acc[3]));                                        \
    for (int i = 0; i < 4; ++i) d[i] = __float_as_uint(out[i])

template <MmaInstruction I>
struct MmaOp;

template <>
struct MmaOp<MmaInstruction::M16n8k4Tf32> {
    static constexpr int a_words = 2, b_words = 1, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_F32_A2_B1("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k8Tf32> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_F32_A4_B2("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k8F16> {
    static constexpr int a_words = 2, b_words = 1, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_F32_A2_B1("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k16F16> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_F32_A4_B2("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k16Bf16> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_F32_A4_B2("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k32E4m3> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        TCLENS_MMA_F32_A4_B2("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
        return true;
#else
        (void)a, (void)b, (void)c, (void)d;
        return false;  // FP8 mma.sync starts with sm_89
#endif
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k32S8> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
            " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
            : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]),
              "r"(c[1]), "r"(c[2]), "r"(c[3]));
        return true;
    }
};

// f64: each register is 64 bits, two words (low first) in the images.
template <>
struct MmaOp<MmaInstruction::M8n8k4F64> {
    static constexpr int a_words = 2, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        const double a0 = __hiloint2double(int(a[1]), int(a[0]));
        const double b0 = __hiloint2double(int(b[1]), int(b[0]));
        const double c0 = __hiloint2double(int(c[1]), int(c[0]));
        const double c1 = __hiloint2double(int(c[3]), int(c[2]));
        double d0, d1;
        asm volatile(
            "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, "
            "{%4, %5};"
            : "=d"(d0), "=d"(d1)
            : "d"(a0), "d"(b0), "d"(c0), "d"(c1));
        d[0] = uint32_t(__double2loint(d0));
        d[1] = uint32_t(__double2hiint(d0));
        d[2] = uint32_t(__double2loint(d1));
        d[3] = uint32_t(__double2hiint(d1));
        return true;
    }
};

// Every operand a 32-bit register ("r" also carries f32 and f16x2 bits): D/C of 4 or 2 registers.
#define TCLENS_MMA_R_A4_B2_C4(instruction)                                                      \
    asm volatile(instruction                                                                    \
                 " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"         \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                               \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), \
                   "r"(c[1]), "r"(c[2]), "r"(c[3]))

#define TCLENS_MMA_R_A4_B2_C2(instruction)                                                      \
    asm volatile(instruction " {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"                 \
                 : "=r"(d[0]), "=r"(d[1])                                                       \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), \
                   "r"(c[1]))

#define TCLENS_MMA_R_A2_B1_C4(instruction)                                           \
    asm volatile(instruction " {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                    \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))

#define TCLENS_MMA_R_A1_B1_C2(instruction)                      \
    asm volatile(instruction " {%0, %1}, {%2}, {%3}, {%4, %5};" \
                 : "=r"(d[0]), "=r"(d[1])                       \
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))

// FP8 mma.sync starts with sm_89: elsewhere run() says it has no code.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define TCLENS_MMA_FP8(statement) \
    statement;                    \
    return true
#else
#define TCLENS_MMA_FP8(statement)       \
    (void)a, (void)b, (void)c, (void)d; \
    return false
#endif

template <>
struct MmaOp<MmaInstruction::M16n8k8Bf16> {
    static constexpr int a_words = 2, b_words = 1, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A2_B1_C4("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k16F16F16> {
    static constexpr int a_words = 4, b_words = 2, c_words = 2;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A4_B2_C2("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k32E5m2> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_FP8(
            TCLENS_MMA_R_A4_B2_C4("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"));
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k32E4m3F16> {
    static constexpr int a_words = 4, b_words = 2, c_words = 2;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_FP8(
            TCLENS_MMA_R_A4_B2_C2("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16"));
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k32E5m2F16> {
    static constexpr int a_words = 4, b_words = 2, c_words = 2;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_FP8(
            TCLENS_MMA_R_A4_B2_C2("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16"));
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k64S4> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A4_B2_C4("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k64U4> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A4_B2_C4("mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k256B1And> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A4_B2_C4("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M16n8k256B1Xor> {
    static constexpr int a_words = 4, b_words = 2, c_words = 4;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A4_B2_C4("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M8n8k16S8> {
    static constexpr int a_words = 1, b_words = 1, c_words = 2;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A1_B1_C2("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32");
        return true;
    }
};

template <>
struct MmaOp<MmaInstruction::M8n8k32S4> {
    static constexpr int a_words = 1, b_words = 1, c_words = 2;
    __device__ static bool run(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                               uint32_t* d) {
        TCLENS_MMA_R_A1_B1_C2("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32");
        return true;
    }
};

#undef TCLENS_MMA_F32_A2_B1
#undef TCLENS_MMA_F32_A4_B2
#undef TCLENS_MMA_R_A4_B2_C4
#undef TCLENS_MMA_R_A4_B2_C2
#undef TCLENS_MMA_R_A2_B1_C4
#undef TCLENS_MMA_R_A1_B1_C2
#undef TCLENS_MMA_FP8

// Experiment e runs on warp e; each lane reads its own words of e's images.
template <MmaInstruction I>
__global__ void mma_probe_kernel(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                 uint32_t* d, int experiments, int* not_compiled) {
    using Op = MmaOp<I>;
    const int experiment = int(blockIdx.x) * kWarpsPerBlock + int(threadIdx.x) / kWarpLanes;
    if (experiment >= experiments) {
        return;  // whole warps only, so every mma.sync below has all 32 lanes
    }
    const size_t thread = size_t(experiment) * kWarpLanes + threadIdx.x % kWarpLanes;
    uint32_t ra[Op::a_words], rb[Op::b_words], rc[Op::c_words], rd[Op::c_words];
    for (int i = 0; i < Op::a_words; ++i) ra[i] = a[thread * Op::a_words + i];
    for (int i = 0; i < Op::b_words; ++i) rb[i] = b[thread * Op::b_words + i];
    for (int i = 0; i < Op::c_words; ++i) rc[i] = c[thread * Op::c_words + i];
    if (!Op::run(ra, rb, rc, rd)) {
        *not_compiled = 1;
        return;
    }
    for (int i = 0; i < Op::c_words; ++i) d[thread * Op::c_words + i] = rd[i];
}

std::string check_words(const char* operand, size_t have, size_t lanes, int words) {
    if (have == lanes * size_t(words)) {
        return "";
    }
    return std::string("mma probe: the plan gives ") + operand + " " +
           std::to_string(lanes ? have / lanes : 0) + " words per lane, the instruction takes " +
           std::to_string(words);
}

template <MmaInstruction I>
DeviceRun launch_mma(const MmaProbePlan& plan) {
    using Op = MmaOp<I>;
    const size_t lanes = size_t(plan.experiments) * kWarpLanes;
    for (const std::string& error : {check_words("A", plan.a.size(), lanes, Op::a_words),
                                     check_words("B", plan.b.size(), lanes, Op::b_words),
                                     check_words("C", plan.c.size(), lanes, Op::c_words)}) {
        if (!error.empty()) return DeviceRun{error, false, {}};
    }
    const int blocks = (plan.experiments + kWarpsPerBlock - 1) / kWarpsPerBlock;
    return run_on_device(
        {{plan.a.data(), plan.a.size() * 4},
         {plan.b.data(), plan.b.size() * 4},
         {plan.c.data(), plan.c.size() * 4}},
        lanes * Op::c_words, [&](const std::vector<const void*>& in, uint32_t* out, int* flag) {
            mma_probe_kernel<I><<<blocks, kWarpsPerBlock * kWarpLanes>>>(
                static_cast<const uint32_t*>(in[0]), static_cast<const uint32_t*>(in[1]),
                static_cast<const uint32_t*>(in[2]), out, plan.experiments, flag);
        });
}

}  // namespace

DeviceRun run_mma_probe(const MmaProbePlan& plan) {
    if (plan.experiments < 1) {
        return DeviceRun{"mma probe: empty plan", false, {}};
    }
    switch (plan.instruction) {
        case MmaInstruction::M16n8k4Tf32:
            return launch_mma<MmaInstruction::M16n8k4Tf32>(plan);
        case MmaInstruction::M16n8k8Tf32:
            return launch_mma<MmaInstruction::M16n8k8Tf32>(plan);
        case MmaInstruction::M16n8k8F16:
            return launch_mma<MmaInstruction::M16n8k8F16>(plan);
        case MmaInstruction::M16n8k16F16:
            return launch_mma<MmaInstruction::M16n8k16F16>(plan);
        case MmaInstruction::M16n8k16Bf16:
            return launch_mma<MmaInstruction::M16n8k16Bf16>(plan);
        case MmaInstruction::M16n8k32S8:
            return launch_mma<MmaInstruction::M16n8k32S8>(plan);
        case MmaInstruction::M16n8k32E4m3:
            return launch_mma<MmaInstruction::M16n8k32E4m3>(plan);
        case MmaInstruction::M8n8k4F64:
            return launch_mma<MmaInstruction::M8n8k4F64>(plan);
        case MmaInstruction::M16n8k8Bf16:
            return launch_mma<MmaInstruction::M16n8k8Bf16>(plan);
        case MmaInstruction::M16n8k16F16F16:
            return launch_mma<MmaInstruction::M16n8k16F16F16>(plan);
        case MmaInstruction::M16n8k32E5m2:
            return launch_mma<MmaInstruction::M16n8k32E5m2>(plan);
        case MmaInstruction::M16n8k32E4m3F16:
            return launch_mma<MmaInstruction::M16n8k32E4m3F16>(plan);
        case MmaInstruction::M16n8k32E5m2F16:
            return launch_mma<MmaInstruction::M16n8k32E5m2F16>(plan);
        case MmaInstruction::M16n8k64S4:
            return launch_mma<MmaInstruction::M16n8k64S4>(plan);
        case MmaInstruction::M16n8k64U4:
            return launch_mma<MmaInstruction::M16n8k64U4>(plan);
        case MmaInstruction::M16n8k256B1And:
            return launch_mma<MmaInstruction::M16n8k256B1And>(plan);
        case MmaInstruction::M16n8k256B1Xor:
            return launch_mma<MmaInstruction::M16n8k256B1Xor>(plan);
        case MmaInstruction::M8n8k16S8:
            return launch_mma<MmaInstruction::M8n8k16S8>(plan);
        case MmaInstruction::M8n8k32S4:
            return launch_mma<MmaInstruction::M8n8k32S4>(plan);
    }
    return DeviceRun{"mma probe: unknown instruction", false, {}};
}

}  // namespace tclens::kernels
