#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/cuda_util.h"
#include "kernels/probes/bank_probe.h"

namespace tclens::kernels {
namespace {

// One kernel per SASS instruction the probe can issue.
enum ProbeOp : int {
    kLds32,
    kLds64,
    kLds128,
    kSts32,
    kSts64,
    kSts128,
    kLdsmX1,
    kLdsmX2,
    kLdsmX4,
    kLdsmX1Trans,
    kLdsmX2Trans,
    kLdsmX4Trans,
    kLdgsts16,
};

constexpr int kDefaultSmemLimit = 48 * 1024;  // above this a kernel must opt in
constexpr int kSmemGranule = 16;
constexpr int kSinkWords = kBankProbeLanes + 1;  // a checksum per lane, then the flag word

// The architecture this device pass compiles for (0 in the host pass, which emits no device
// code). An instruction newer than it is left out of the kernel, which sets the flag instead.
#ifdef __CUDA_ARCH__
constexpr int kDeviceArch = __CUDA_ARCH__;
#else
constexpr int kDeviceArch = 0;
#endif

// Oldest architecture (x 10, as __CUDA_ARCH__) that has the instruction of kOp.
__host__ __device__ constexpr int required_arch(int op) {
    return op == kLdgsts16 ? 800 : (op >= kLdsmX1 && op <= kLdsmX4Trans) ? 750 : 0;
}

// One warp-wide access of kind kOp at shared address `addr` (a .shared window address). Returns
// what a load read (folded to one word) so that the caller can keep it alive; 0 for writes.
template <int kOp>
__device__ __forceinline__ std::uint32_t shared_access(std::uint32_t addr, std::uint32_t value,
                                                       const uint4* source) {
    std::uint32_t a = 0, b = 0, c = 0, d = 0;
    if constexpr (kOp == kLds32) {
        asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(a) : "r"(addr) : "memory");
    } else if constexpr (kOp == kLds64) {
        asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];\n"
                     : "=r"(a), "=r"(b)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLds128) {
        asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kSts32) {
        asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(value) : "memory");
    } else if constexpr (kOp == kSts64) {
        asm volatile("st.shared.v2.b32 [%0], {%1, %2};\n" ::"r"(addr), "r"(value), "r"(value ^ 1u)
                     : "memory");
    } else if constexpr (kOp == kSts128) {
        asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(value),
                     "r"(value ^ 1u), "r"(value ^ 2u), "r"(value ^ 3u)
                     : "memory");
    } else if constexpr (kOp == kLdsmX1) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"
                     : "=r"(a)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLdsmX2) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(a), "=r"(b)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLdsmX4) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLdsmX1Trans) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                     : "=r"(a)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLdsmX2Trans) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(a), "=r"(b)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLdsmX4Trans) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "r"(addr)
                     : "memory");
    } else if constexpr (kOp == kLdgsts16) {
        const std::size_t global = __cvta_generic_to_global(source);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr), "l"(global)
                     : "memory");
    }
    return a ^ b ^ c ^ d;
}

// (lane, request, iteration) -> one access at addrs[request * 32 + lane]: see bank_probe.h.
// `zero` is 0 at run time; `iteration & zero` keeps every address opaque to the compilers.
template <int kOp>
__device__ __forceinline__ void probe_body(const std::uint32_t* __restrict__ addrs,
                                           const std::uint32_t* __restrict__ masks, int requests,
                                           int iterations, std::uint32_t zero,
                                           const uint4* __restrict__ source,
                                           std::uint32_t* __restrict__ sink) {
    extern __shared__ __align__(16) unsigned char probe_smem[];
    constexpr bool kWholeWarp = kOp >= kLdsmX1 && kOp <= kLdsmX4Trans;
    const std::uint32_t lane = threadIdx.x;
    const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(probe_smem));
    std::uint32_t checksum = lane;
#pragma unroll 1
    for (int iteration = 0; iteration < iterations; ++iteration) {
        const std::uint32_t jitter = static_cast<std::uint32_t>(iteration) & zero;
#pragma unroll 1
        for (int request = 0; request < requests; ++request) {
            const std::uint32_t addr = base + addrs[request * kBankProbeLanes + lane] + jitter;
            const bool active = ((masks[request] >> lane) & 1u) != 0;
            if (kWholeWarp || active) {
                checksum ^= shared_access<kOp>(addr, checksum + iteration, source + lane);
            }
        }
        if constexpr (kOp == kLdgsts16) {
            asm volatile("cp.async.wait_all;\n" ::: "memory");
        }
    }
    sink[lane] = checksum;
}

// The probe for instruction kOp. sink[32] is set to 1 instead when this build has no code for
// the instruction on the running GPU (compiled for an older architecture than it needs).
template <int kOp>
__global__ void __launch_bounds__(kBankProbeLanes)
    bank_probe_kernel(const std::uint32_t* __restrict__ addrs,
                      const std::uint32_t* __restrict__ masks, int requests, int iterations,
                      std::uint32_t zero, const uint4* __restrict__ source,
                      std::uint32_t* __restrict__ sink) {
    if constexpr (kDeviceArch < required_arch(kOp)) {
        if (threadIdx.x == 0) {
            sink[kBankProbeLanes] = 1u;
        }
        return;
    } else {
        probe_body<kOp>(addrs, masks, requests, iterations, zero, source, sink);
    }
}

using ProbeKernel = void (*)(const std::uint32_t*, const std::uint32_t*, int, int, std::uint32_t,
                             const uint4*, std::uint32_t*);

// The instruction of a well-formed spec (check_bank_probe).
ProbeOp select_op(const BankProbeSpec& spec) {
    const int width = spec.access_bytes == 4 ? 0 : spec.access_bytes == 8 ? 1 : 2;
    const int matrices = spec.matrices == 1 ? 0 : spec.matrices == 2 ? 1 : 2;
    switch (spec.kind) {
        case SharedAccessKind::kLoad:
            return static_cast<ProbeOp>(kLds32 + width);
        case SharedAccessKind::kStore:
            return static_cast<ProbeOp>(kSts32 + width);
        case SharedAccessKind::kLdmatrix:
            return static_cast<ProbeOp>((spec.transposed ? kLdsmX1Trans : kLdsmX1) + matrices);
        case SharedAccessKind::kCpAsync:
            return kLdgsts16;
    }
    return kLds32;
}

ProbeKernel select_kernel(const BankProbeSpec& spec) {
    constexpr ProbeKernel kKernels[] = {
        bank_probe_kernel<kLds32>,       bank_probe_kernel<kLds64>,
        bank_probe_kernel<kLds128>,      bank_probe_kernel<kSts32>,
        bank_probe_kernel<kSts64>,       bank_probe_kernel<kSts128>,
        bank_probe_kernel<kLdsmX1>,      bank_probe_kernel<kLdsmX2>,
        bank_probe_kernel<kLdsmX4>,      bank_probe_kernel<kLdsmX1Trans>,
        bank_probe_kernel<kLdsmX2Trans>, bank_probe_kernel<kLdsmX4Trans>,
        bank_probe_kernel<kLdgsts16>,
    };
    static_assert(sizeof kKernels / sizeof kKernels[0] == kLdgsts16 + 1, "one kernel per op");
    return kKernels[select_op(spec)];
}

const char* kind_name(SharedAccessKind kind) {
    switch (kind) {
        case SharedAccessKind::kLoad:
            return "load";
        case SharedAccessKind::kStore:
            return "store";
        case SharedAccessKind::kLdmatrix:
            return "ldmatrix";
        case SharedAccessKind::kCpAsync:
            return "cp.async";
    }
    return "?";
}

// ldmatrix: the lanes that supply row addresses, 8 per matrix.
std::uint32_t ldmatrix_lanes(int matrices) {
    return matrices >= 4 ? 0xffffffffu : (1u << (8 * matrices)) - 1u;
}

std::int64_t launch_smem_bytes(const BankProbeSpec& spec) {
    return (spec.smem_bytes + kSmemGranule - 1) / kSmemGranule * kSmemGranule;
}

}  // namespace

std::string check_bank_probe(const BankProbeSpec& spec) {
    const std::string kind = kind_name(spec.kind);
    const bool lsu = spec.kind == SharedAccessKind::kLoad || spec.kind == SharedAccessKind::kStore;
    if (lsu ? (spec.access_bytes != 4 && spec.access_bytes != 8 && spec.access_bytes != 16)
            : spec.access_bytes != 16) {
        return "bank probe: access_bytes " + std::to_string(spec.access_bytes) +
               " is not allowed for " + kind +
               (lsu ? "; use 4, 8 or 16" : "; it moves 16 bytes per lane");
    }
    if (spec.kind == SharedAccessKind::kLdmatrix && spec.matrices != 1 && spec.matrices != 2 &&
        spec.matrices != 4) {
        return "bank probe: ldmatrix matrices " + std::to_string(spec.matrices) +
               " is not allowed; use 1, 2 or 4";
    }
    if (spec.smem_bytes < 1 || spec.smem_bytes > kBankProbeMaxSmemBytes) {
        return "bank probe: smem_bytes " + std::to_string(spec.smem_bytes) +
               " is out of range 1.." + std::to_string(kBankProbeMaxSmemBytes);
    }
    if (spec.requests.empty() ||
        spec.requests.size() > static_cast<std::size_t>(kBankProbeMaxRequests)) {
        return "bank probe: " + std::to_string(spec.requests.size()) + " requests; allowed 1.." +
               std::to_string(kBankProbeMaxRequests);
    }
    for (std::size_t index = 0; index < spec.requests.size(); ++index) {
        const BankProbeRequest& request = spec.requests[index];
        const std::string where = "bank probe: request " + std::to_string(index);
        if (spec.kind == SharedAccessKind::kLdmatrix &&
            request.active_lanes != ldmatrix_lanes(spec.matrices)) {
            return where + ": ldmatrix.x" + std::to_string(spec.matrices) +
                   " takes row addresses from lanes 0-" + std::to_string(8 * spec.matrices - 1) +
                   " exactly";
        }
        if (request.active_lanes == 0) {
            return where + " has no active lane";
        }
        for (int lane = 0; lane < kBankProbeLanes; ++lane) {
            if (((request.active_lanes >> lane) & 1u) == 0) {
                continue;
            }
            const std::int64_t addr = request.byte_addr[lane];
            if (addr % spec.access_bytes != 0 || addr + spec.access_bytes > spec.smem_bytes) {
                return where + ", lane " + std::to_string(lane) + ": byte address " +
                       std::to_string(addr) + " must be a multiple of " +
                       std::to_string(spec.access_bytes) + " and end inside the " +
                       std::to_string(spec.smem_bytes) + " bytes of shared memory";
            }
        }
    }
    return "";
}

BankProbe::~BankProbe() {
    cudaFree(device_addrs_);
    cudaFree(device_masks_);
    cudaFree(device_source_);
    cudaFree(device_sink_);
}

std::string BankProbe::prepare(const BankProbeSpec& spec) {
    if (prepared_ || device_addrs_ != nullptr) {
        return "bank probe: prepare() may be called only once";
    }
    const std::string bad = check_bank_probe(spec);
    if (!bad.empty()) {
        return bad;
    }
    spec_ = spec;
    const std::int64_t smem = launch_smem_bytes(spec_);
    int device = 0;
    int smem_limit = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
        status =
            cudaDeviceGetAttribute(&smem_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    }
    if (status != cudaSuccess) {
        return "bank probe: cannot query the GPU: " + cuda_text(status);
    }
    if (smem > smem_limit) {
        too_much_smem_ = true;
        return "the tile needs " + std::to_string(smem) +
               " bytes of shared memory; this GPU gives one block at most " +
               std::to_string(smem_limit) + " bytes";
    }
    if (smem > kDefaultSmemLimit) {
        status =
            cudaFuncSetAttribute(select_kernel(spec_), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(smem));
        if (status != cudaSuccess) {
            return "bank probe: cannot opt in to " + std::to_string(smem) +
                   " bytes of shared memory: " + cuda_text(status);
        }
    }

    // Lanes that take no part keep a valid address: ldmatrix ignores it, the others skip.
    std::vector<std::uint32_t> addrs, masks;
    for (const BankProbeRequest& request : spec_.requests) {
        for (int lane = 0; lane < kBankProbeLanes; ++lane) {
            const bool active = ((request.active_lanes >> lane) & 1u) != 0;
            addrs.push_back(active ? request.byte_addr[lane] : 0u);
        }
        masks.push_back(request.active_lanes);
    }
    const std::size_t source_bytes = kBankProbeLanes * sizeof(uint4);
    status = cudaMalloc(&device_addrs_, addrs.size() * sizeof(std::uint32_t));
    if (status == cudaSuccess) {
        status = cudaMalloc(&device_masks_, masks.size() * sizeof(std::uint32_t));
    }
    if (status == cudaSuccess) {
        status = cudaMalloc(&device_source_, source_bytes);
    }
    if (status == cudaSuccess) {
        status = cudaMalloc(&device_sink_, kSinkWords * sizeof(std::uint32_t));
    }
    if (status == cudaSuccess) {
        status = cudaMemset(device_sink_, 0, kSinkWords * sizeof(std::uint32_t));
    }
    if (status == cudaSuccess) {
        status = cudaMemcpy(device_addrs_, addrs.data(), addrs.size() * sizeof(std::uint32_t),
                            cudaMemcpyHostToDevice);
    }
    if (status == cudaSuccess) {
        status = cudaMemcpy(device_masks_, masks.data(), masks.size() * sizeof(std::uint32_t),
                            cudaMemcpyHostToDevice);
    }
    if (status == cudaSuccess) {
        status = cudaMemset(device_source_, 0x5a, source_bytes);
    }
    if (status != cudaSuccess) {
        return "bank probe: cannot set up device memory: " + cuda_text(status);
    }
    prepared_ = true;
    std::string failure = run(1);
    std::uint32_t not_compiled = 0;
    if (failure.empty()) {
        status = cudaMemcpy(&not_compiled, device_sink_ + kBankProbeLanes, sizeof not_compiled,
                            cudaMemcpyDeviceToHost);
        if (status != cudaSuccess) {
            failure = "bank probe: cannot read the result back: " + cuda_text(status);
        } else if (not_compiled != 0) {
            failure = std::string("bank probe: this build has no ") + kind_name(spec_.kind) +
                      " code for this GPU (it needs sm_" +
                      std::to_string(required_arch(select_op(spec_)) / 10) +
                      " or newer); rebuild with CMAKE_CUDA_ARCHITECTURES naming this GPU's "
                      "architecture, e.g. 90a for an H100";
        }
    }
    prepared_ = failure.empty();
    return failure;
}

std::string BankProbe::run(int iterations) {
    if (!prepared_) {
        return "bank probe: run() before a successful prepare()";
    }
    if (iterations < 0) {
        return "bank probe: iterations must be >= 0";
    }
    const ProbeKernel kernel = select_kernel(spec_);
    kernel<<<1, kBankProbeLanes, static_cast<std::size_t>(launch_smem_bytes(spec_))>>>(
        device_addrs_, device_masks_, static_cast<int>(spec_.requests.size()), iterations, 0u,
        reinterpret_cast<const uint4*>(device_source_), device_sink_);
    cudaError_t status = cudaGetLastError();
    if (status == cudaSuccess) {
        status = cudaDeviceSynchronize();
    }
    if (status != cudaSuccess) {
        return std::string("bank probe (") + kind_name(spec_.kind) +
               ") kernel failed: " + cuda_text(status);
    }
    return "";
}

}  // namespace tclens::kernels
