// Throwaway: the mma.sync m16n8k16 bf16 ceiling at the occupancy rung 8 can have. Each warp
// keeps Tiles m16n8 accumulator tiles (rung 8: 4 x 8 = 32, 128 f32 per thread) and issues one
// mma per tile per round, operands fixed in registers; one block of Warps warps per SM (forced
// by dynamic shared memory), or Blocks blocks. FLOPs = blocks * warps * iters * Tiles * 4096.
// Timing: 3 warm-ups, median of 11 launches of ~5-10 ms each, CUDA events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                             \
    do {                                                                     \
        cudaError_t e = (x);                                                 \
        if (e != cudaSuccess) {                                              \
            std::printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); \
            std::exit(1);                                                    \
        }                                                                    \
    } while (0)

__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                    std::uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// TM x TN tiles per warp, serpentine like rung 8.
template <int TM, int TN>
__global__ void ceiling(int iters, int store, float* sink) {
    std::uint32_t a[TM][4], b[TN][2];
    const std::uint32_t seed = threadIdx.x * 2654435761u;
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) a[i][j] = 0x3c003c00u ^ ((seed >> (i + j)) & 0x00070007u);
#pragma unroll
    for (int i = 0; i < TN; ++i) b[i][0] = b[i][1] = 0x3c003c00u ^ ((seed >> i) & 0x00030003u);
    float acc[TM][TN][4] = {};
#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int mt = 0; mt < TM; ++mt)
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int nt = mt % 2 == 0 ? j : TN - 1 - j;
                mma(acc[mt][nt], a[mt], b[nt][0], b[nt][1]);
            }
    }
    if (store) {
        float s = 0;
#pragma unroll
        for (int mt = 0; mt < TM; ++mt)
#pragma unroll
            for (int nt = 0; nt < TN; ++nt)
                s += acc[mt][nt][0] + acc[mt][nt][1] + acc[mt][nt][2] + acc[mt][nt][3];
        sink[threadIdx.x] = s;
    }
}

__device__ __forceinline__ void ldsm_x4(std::uint32_t (&r)[4], const unsigned char* p) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}
__device__ __forceinline__ void ldsm_x4_t(std::uint32_t (&r)[4], const unsigned char* p) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

// Rung 8's K loop without global loads: 8 warps (2 x 4), 64 x 64 warp tiles, per k16 step
// 4 ldmatrix.x4 (A) + 4 ldmatrix.x4.trans (B) of the next step, then 32 mma; XOR-swizzled
// addresses as in kernels/08_mma_cp_async.cu (one stage, never rewritten). Barrier: a block
// barrier after step 2 of every K tile of 4 steps, as rung 8 has.
struct Frag {
    std::uint32_t a[4][4];
    std::uint32_t b[4][4];
};
template <bool Barrier>
__global__ void __launch_bounds__(256, 1) feed(int iters, int store, float* sink) {
    extern __shared__ __align__(128) unsigned char smem[];
    for (int i = threadIdx.x; i < 48 * 1024 / 4; i += 256)
        reinterpret_cast<std::uint32_t*>(smem)[i] = 0x3c003c00u ^ (std::uint32_t(i) & 0x00070007u);
    __syncthreads();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int warp_m = warp / 4, warp_n = warp % 4;
    const int key = lane % 8;
    const int row = key + 8 * ((lane / 8) % 2);
    const unsigned sw = ((lane / 16) ^ key) * 16;
    const unsigned a_row = (warp_m * 64 + row) * 128;
    const unsigned b_row = 16384 + row * 512 + warp_n * 128;
    auto load = [&](Frag& f, int step) {
#pragma unroll
        for (int j = 0; j < 4; ++j)
            ldsm_x4(f.a[j], smem + a_row + j * 16 * 128 + (sw ^ (2 * step * 16)));
#pragma unroll
        for (int p = 0; p < 4; ++p)
            ldsm_x4_t(f.b[p], smem + b_row + step * 16 * 512 + (sw ^ (2 * p * 16)));
    };
    float acc[4][8][4] = {};
    Frag frag[2];
    load(frag[0], 0);
#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int step = 0; step < 4; ++step) {
            load(frag[(step + 1) % 2], (step + 1) % 4);
            const Frag& f = frag[step % 2];
#pragma unroll
            for (int mt = 0; mt < 4; ++mt)
#pragma unroll
                for (int j = 0; j < 8; ++j) {
                    const int nt = mt % 2 == 0 ? j : 7 - j;
                    mma(acc[mt][nt], f.a[mt], f.b[nt / 2][2 * (nt % 2)],
                        f.b[nt / 2][2 * (nt % 2) + 1]);
                }
            if (Barrier && step == 2) __syncthreads();
        }
    }
    if (store) {
        float s = 0;
#pragma unroll
        for (int mt = 0; mt < 4; ++mt)
#pragma unroll
            for (int nt = 0; nt < 8; ++nt)
                s += acc[mt][nt][0] + acc[mt][nt][1] + acc[mt][nt][2] + acc[mt][nt][3];
        sink[threadIdx.x] = s;
    }
}

using Kernel = void (*)(int, int, float*);
void run_kernel(Kernel k, const char* label, int warps, int blocks_per_sm, int tiles);
template <int TM, int TN>
void run(const char* label, int warps, int blocks_per_sm) {
    run_kernel(ceiling<TM, TN>, label, warps, blocks_per_sm, TM * TN);
}
void run_kernel(Kernel k, const char* label, int warps, int blocks_per_sm, int tiles) {
    constexpr int TM = 1;
    const int TN = tiles;
    int dev = 0, sms = 0, smem_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    // Dynamic smem so that exactly blocks_per_sm blocks fit.
    int smem = smem_sm / blocks_per_sm - 2048;
    smem = std::min(smem, 227 * 1024);
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int fit = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, k, warps * 32, smem));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, k));
    const int blocks = sms * fit;
    float* sink;
    CHECK(cudaMalloc(&sink, 4096 * 4));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    int iters = 1000;
    float ms = 0;
    for (;;) {
        CHECK(cudaEventRecord(e0));
        k<<<blocks, warps * 32, smem>>>(iters, 0, sink);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaGetLastError());
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (ms > 2) break;
        iters *= 2;
    }
    iters = int(iters * 8.0 / ms);
    std::vector<float> t;
    for (int r = 0; r < 14; ++r) {
        CHECK(cudaEventRecord(e0));
        k<<<blocks, warps * 32, smem>>>(iters, 0, sink);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 3) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    const double med = t[t.size() / 2];
    const double flops = double(blocks) * warps * double(iters) * TM * TN * 4096.0;
    std::printf(
        "%-34s warps/block %2d  blocks/SM %d  warps/SM %2d  regs %3d  tiles/warp %2d  %7.1f "
        "TFLOP/s  [%.1f %.1f]\n",
        label, warps, fit, warps * fit, attr.numRegs, TM * TN, flops / med / 1e9,
        flops / t.back() / 1e9, flops / t.front() / 1e9);
    CHECK(cudaFree(sink));
}

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    for (int round = 0; round < 2; ++round) {
        run<4, 8>("rung-8 shape: 32 tiles", 8, 1);
        run<4, 8>("32 tiles, 2 x 8 warps", 8, 2);
        run<4, 4>("16 tiles", 8, 1);
        run<4, 4>("16 tiles, 16 warps", 16, 1);
        run<2, 4>("8 tiles, 16 warps", 16, 1);
        run<2, 4>("8 tiles, 32 warps", 16, 2);
        run<2, 4>("8 tiles, 64 warps", 16, 4);
        run<4, 8>("32 tiles, 4 warps", 4, 1);
        run_kernel(feed<false>, "rung-8 feed: +8 ldmatrix/32 mma", 8, 1, 4 * 32);
        run_kernel(feed<true>, "rung-8 feed + barrier per 4 steps", 8, 1, 4 * 32);
    }
    return 0;
}
