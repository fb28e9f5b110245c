// Rung 14's GPU launch: asks the rules of its inputs (kernels/dispatch_rules.h, kernels/
// fp8_dispatch_rules.h) with this GPU's SM count and runs the chosen configuration on the given
// stream (the chosen rung's launch from the registry, rung 9's kernel in the chosen tile, split
// or not, or an FP8 configuration, kernels/fp8_dispatch.cuh) on the real M x N x K, the operands
// whose rows TMA cannot stride copied into padded rows first (run_choice below,
// kernels/pad_copy.cuh).
//
// Scratch (padded A, B, C and the split-K workspace) lives in a per-device cache for the
// process's life, grown on demand and never shrunk: the first launch that needs a size allocates
// it, so a run's warm-up pays for the allocation and the timed launches do not. Growing waits for
// the device first (cudaDeviceSynchronize), so no enqueued kernel still reads a buffer that is
// freed. Launches on one device share the scratch: rung 14 must not run on two streams at once
// (the runner and bench launch one kernel at a time). The device's SM count, which the rules
// take, is asked once per device and kept with its scratch, and so is the last choice: a timed
// launch of the problem before neither queries the device nor runs the rules again.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "kernels/14_dispatch.h"
#include "kernels/cuda_util.h"
#include "kernels/fp8_dispatch.cuh"
#include "kernels/fp8_dispatch_rules.h"
#include "kernels/gpu_registry.h"
#include "kernels/ladder_launches.h"
#include "kernels/pad_copy.cuh"
#include "kernels/short_k_gemm.cuh"
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
    GrowingBuffer a;          // M x K' A
    GrowingBuffer b;          // K x N' B (e4m3: N x K' B^T)
    GrowingBuffer c;          // M x N' f32 C
    GrowingBuffer workspace;  // split-K partial tiles (rung 9's kernel, any input)
};

// What rung 14 keeps per device: its scratch, its SM count (0 until first asked) and the last
// choice, with the inputs it was made for: a timed series launches one problem again and again,
// and the rules format their reason line, host time inside the timed region.
struct DeviceState {
    Scratch scratch;
    int sms = 0;
    bool chosen = false;
    Precision chosen_for_precision = Precision::kF16;
    GemmProblem chosen_for;
    DispatchChoice choice;

    const DispatchChoice& choose(Precision precision, const GemmProblem& problem) {
        if (!chosen || precision != chosen_for_precision || !same_problem(problem, chosen_for)) {
            choice = choose_dispatch_for(precision, problem, sms);
            chosen = true;
            chosen_for_precision = precision;
            chosen_for = problem;
        }
        return choice;
    }
};

// The state of every device, for the process's life (never destroyed: no cudaFree at exit,
// after the runtime may have gone).
std::mutex& device_state_mutex() {
    static std::mutex mutex;
    return mutex;
}
DeviceState& device_state(int device) {
    static auto* per_device = new std::map<int, DeviceState>();
    return (*per_device)[device];
}

// The SM count of `device`, asked of the driver on the first call only.
cudaError_t cached_sms(int device, DeviceState& state) {
    if (state.sms > 0) return cudaSuccess;
    int sms = 0;
    const cudaError_t status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (status == cudaSuccess) state.sms = sms;
    return status;
}

// Whether `config` runs rung 9's kernel (kernels/split_k_gemm.cuh: in the choice's tile, its K
// split or not).
bool runs_rung9_kernel(DispatchConfig config) {
    return config == DispatchConfig::kTmaTiles || config == DispatchConfig::kSplitK;
}

// Floats of split-K partials `choice` needs on `problem` with `precision`'s inputs (rung 9's
// kernel's; 0 for one range and for the other configurations).
std::int64_t workspace_floats(const DispatchChoice& choice, Precision precision,
                              const GemmProblem& problem) {
    if (!runs_rung9_kernel(choice.config)) return 0;
    return split_k_workspace_floats(problem, choice.splits, precision);
}

// The chosen configuration on `operands`, whose rows' strides TMA can take.
cudaError_t run_configuration(const DispatchChoice& choice, Precision precision,
                              const GemmOperands& operands, Scratch& scratch, cudaStream_t stream) {
    if (const cudaError_t status =
            scratch.workspace.reserve(workspace_floats(choice, precision, operands.problem) * 4);
        status != cudaSuccess) {
        return status;
    }
    float* const workspace = scratch.workspace.buffer.as_float();
    if (is_fp8_tile_configuration(choice.config)) {
        return fp8_configuration_launch(choice, operands, stream);
    }
    if (runs_rung9_kernel(choice.config)) {
        return split_k_launch(precision, choice.tile, operands, choice.splits, workspace, stream);
    }
    if (choice.config == DispatchConfig::kShortK) {
        return short_k_launch(precision, operands, stream);
    }
    const KernelDescriptor* rung = find_gpu_kernel(dispatch_config_id(choice.config, precision));
    if (rung == nullptr || !rung->launch) return cudaErrorInvalidValue;
    return as_cuda_error(rung->launch(operands, stream));
}

// Whether `config` stores C through TMA (rung 11's and FP8's tiles), whose rows must then be a
// multiple of 16 bytes apart; the others store from registers or sum ranges into any row length.
bool stores_c_by_tma(DispatchConfig config) {
    return config == DispatchConfig::kPersistent || config == DispatchConfig::kFp8Tile256 ||
           config == DispatchConfig::kFp8Tile192 || config == DispatchConfig::kFp8Tile128;
}

// The configuration on the operands as they are where their rows' strides allow, else on copies
// with padded rows (the padded problem's K' for A and e4m3's B^T, N' for 16-bit B): one launch
// copies A and B in, the configuration runs on the real M x N x K with those strides (TMA reads
// zeros past N and K), and C is written in place, or, where the configuration stores by TMA and
// N * 4 bytes is no multiple of 16, into rows of N' floats copied back. 17x33x129 in bf16: A
// copied to rows of 136, B to rows of 40, C in place (rung 9 stores from registers); a problem
// that is its own padded one copies nothing.
cudaError_t run_choice(const DispatchChoice& choice, Precision precision,
                       const GemmOperands& operands, Scratch& scratch, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const GemmProblem& q = choice.padded;
    const int elem = storage_bytes(precision);
    const bool k_major = b_is_k_major(precision);
    const std::int64_t b_rows = k_major ? p.n : p.k;
    const std::int64_t b_cols = b_row_length(precision, p);
    const std::int64_t b_padded_cols = b_row_length(precision, q);
    const bool pad_c = stores_c_by_tma(choice.config) && (p.n * 4) % 16 != 0;

    GemmOperands run = operands;
    RowCopy copies[2];
    int count = 0;
    if (q.k != p.k) {
        if (const cudaError_t status = scratch.a.reserve(p.m * q.k * elem); status != cudaSuccess) {
            return status;
        }
        copies[count++] = {operands.a, scratch.a.buffer.get(), p.m, p.k, q.k};
        run.a = scratch.a.buffer.get();
        run.lda = q.k;
    }
    if (b_padded_cols != b_cols) {
        if (const cudaError_t status = scratch.b.reserve(b_rows * b_padded_cols * elem);
            status != cudaSuccess) {
            return status;
        }
        copies[count++] = {operands.b, scratch.b.buffer.get(), b_rows, b_cols, b_padded_cols};
        run.b = scratch.b.buffer.get();
        run.ldb = b_padded_cols;
    }
    if (pad_c) {
        if (const cudaError_t status = scratch.c.reserve(p.m * q.n * 4); status != cudaSuccess) {
            return status;
        }
        run.c = scratch.c.buffer.as_float();
        run.ldc = q.n;
    }
    if (count > 0) {
        if (const cudaError_t status = copy_rows(copies, count, elem, stream);
            status != cudaSuccess) {
            return status;
        }
    }
    const cudaError_t status = run_configuration(choice, precision, run, scratch, stream);
    if (status != cudaSuccess || !pad_c) return status;
    const RowCopy c_back{run.c, operands.c, p.m, q.n, p.n};
    return copy_rows(&c_back, 1, 4, stream);
}

GpuStatus dispatch_launch(Precision precision, const GemmOperands& operands, GpuStream stream) {
    int device = 0;
    if (const cudaError_t status = cudaGetDevice(&device); status != cudaSuccess) return status;
    const std::lock_guard<std::mutex> lock(device_state_mutex());
    DeviceState& state = device_state(device);
    if (const cudaError_t status = cached_sms(device, state); status != cudaSuccess) return status;
    return run_choice(state.choose(precision, operands.problem), precision, operands, state.scratch,
                      stream);
}

}  // namespace

GpuStatus dispatch_choice_launch(const DispatchChoice& choice, Precision precision,
                                 const GemmOperands& operands, GpuStream stream) {
    int device = 0;
    if (const cudaError_t status = cudaGetDevice(&device); status != cudaSuccess) return status;
    const std::lock_guard<std::mutex> lock(device_state_mutex());
    return run_choice(choice, precision, operands, device_state(device).scratch, stream);
}

void attach_dispatch_launches(KernelDescriptor& d) {
    if (d.id.empty()) return;  // a precision rung 14 refuses: no launch
    const Precision precision = d.precision;
    d.launch = [precision](const GemmOperands& operands, GpuStream stream) {
        return dispatch_launch(precision, operands, stream);
    };
}

}  // namespace tclens::kernels
