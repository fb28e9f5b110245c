// Rung 14's GPU launch: asks the rules (kernels/dispatch_rules.h) with this GPU's SM count and
// runs the chosen configuration on the given stream:
//   - N and K multiples of 8: the chosen rung's launch (registry) or the split-K GEMM;
//   - else: A (M x K) and B (K x N) copied into zero-padded scratch (M x K8, K8 x N8, the extra
//     rows and columns zero so they add nothing), the configuration run on M x N8 x K8 into a
//     padded C scratch, and its M x N part copied into C (kernels/pad_copy.cuh).
//
// Scratch (padded A, B, C and the split-K workspace) lives in a per-device cache for the
// process's life, grown on demand and never shrunk: the first launch that needs a size allocates
// it, so a run's warm-up pays for the allocation and the timed launches do not. Growing waits for
// the device first (cudaDeviceSynchronize), so no enqueued kernel still reads a buffer that is
// freed. Launches on one device share the scratch: rung 14 must not run on two streams at once
// (the runner and bench launch one kernel at a time).
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "kernels/14_dispatch.h"
#include "kernels/cuda_util.h"
#include "kernels/gpu_registry.h"
#include "kernels/ladder_launches.h"
#include "kernels/pad_copy.cuh"
#include "kernels/split_k_gemm.cuh"

namespace tclens::kernels {
namespace {

// One device buffer that keeps the largest size asked of it.
struct GrowingBuffer {
    DeviceBuffer buffer;
    std::int64_t bytes = 0;

    cudaError_t reserve(std::int64_t needed) {
        if (needed <= bytes) return cudaSuccess;
        cudaError_t status = cudaDeviceSynchronize();
        if (status == cudaSuccess) status = buffer.allocate(needed);
        bytes = status == cudaSuccess ? needed : 0;
        return status;
    }
};

struct Scratch {
    GrowingBuffer a;          // M x K8 padded A
    GrowingBuffer b;          // K8 x N8 padded B
    GrowingBuffer c;          // M x N8 f32 padded C
    GrowingBuffer workspace;  // split-K partial tiles
};

// The scratch of every device, for the process's life (never destroyed: no cudaFree at exit,
// after the runtime may have gone).
std::mutex& scratch_mutex() {
    static std::mutex mutex;
    return mutex;
}
Scratch& scratch_of(int device) {
    static auto* per_device = new std::map<int, Scratch>();
    return (*per_device)[device];
}

// The chosen configuration on `operands` (N and K multiples of 8).
cudaError_t run_configuration(const DispatchChoice& choice, Precision precision,
                              const GemmOperands& operands, Scratch& scratch, cudaStream_t stream) {
    if (choice.config == DispatchConfig::kSplitK) {
        const std::int64_t floats = split_k_workspace_floats(operands.problem, choice.splits);
        if (const cudaError_t status = scratch.workspace.reserve(floats * 4);
            status != cudaSuccess) {
            return status;
        }
        return split_k_launch(precision, operands, choice.splits,
                              scratch.workspace.buffer.as_float(), stream);
    }
    const KernelDescriptor* rung = find_gpu_kernel(dispatch_config_id(choice.config, precision));
    if (rung == nullptr || !rung->launch) return cudaErrorInvalidValue;
    return as_cuda_error(rung->launch(operands, stream));
}

// Padded copies in, the configuration, the M x N part of C out.
cudaError_t run_padded(const DispatchChoice& choice, Precision precision,
                       const GemmOperands& operands, Scratch& scratch, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const GemmProblem& q = choice.padded;
    const int elem = storage_bytes(precision);
    for (const auto& [buffer, bytes] :
         {std::pair{&scratch.a, q.m * q.k * elem}, std::pair{&scratch.b, q.k * q.n * elem},
          std::pair{&scratch.c, q.m * q.n * 4}}) {
        if (const cudaError_t status = buffer->reserve(bytes); status != cudaSuccess) return status;
    }
    cudaError_t status =
        copy_padded(operands.a, {p.m, p.k}, scratch.a.buffer.get(), {q.m, q.k}, elem, stream);
    if (status == cudaSuccess) {
        status =
            copy_padded(operands.b, {p.k, p.n}, scratch.b.buffer.get(), {q.k, q.n}, elem, stream);
    }
    if (status != cudaSuccess) return status;
    const GemmOperands padded{scratch.a.buffer.get(), scratch.b.buffer.get(),
                              scratch.c.buffer.as_float(), q};
    status = run_configuration(choice, precision, padded, scratch, stream);
    if (status != cudaSuccess) return status;
    return copy_padded(scratch.c.buffer.get(), {q.m, q.n}, operands.c, {p.m, p.n}, 4, stream);
}

GpuStatus dispatch_launch(Precision precision, const GemmOperands& operands, GpuStream stream) {
    int device = 0;
    int sms = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    }
    if (status != cudaSuccess) return status;
    const DispatchChoice choice = choose_dispatch(operands.problem, sms);
    const std::lock_guard<std::mutex> lock(scratch_mutex());
    Scratch& scratch = scratch_of(device);
    return needs_padding(operands.problem)
               ? run_padded(choice, precision, operands, scratch, stream)
               : run_configuration(choice, precision, operands, scratch, stream);
}

}  // namespace

void attach_dispatch_launches(KernelDescriptor& d) {
    if (d.id.empty()) return;  // a precision rung 14 refuses: no launch
    const Precision precision = d.precision;
    d.launch = [precision](const GemmOperands& operands, GpuStream stream) {
        return dispatch_launch(precision, operands, stream);
    };
}

}  // namespace tclens::kernels
