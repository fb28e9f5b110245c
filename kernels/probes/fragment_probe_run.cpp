// The fragment layout probes' GPU half: the device checks, the dispatch by layout ID to each
// family's plan, launch and decode (measure_fragment_layout), and the device staging the
// launchers share (run_on_device). The plain half: fragment_probe.cpp.
#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/cuda_util.h"
#include "kernels/probes/fragment_probe.h"
#include "kernels/probes/matrix_move_probe_plan.h"
#include "kernels/probes/mma_probe_plan.h"
#include "kernels/probes/mma_sp_probe_plan.h"
#include "kernels/probes/wgmma_probe_plan.h"
#include "kernels/probes/wgmma_smem_probe_plan.h"
#include "viz/layouts/wgmma_layouts.h"

namespace tclens::kernels {
namespace {

std::string sm_text(int sm) { return "sm_" + std::to_string(sm); }

// Why `sm` cannot run `id`, or "" when it can. wgmma exists only as the sm_90a feature set: not on
// sm_89 and older, and not on Blackwell (sm_100 and up), which replaced it with tcgen05.
std::string device_gap(const viz::FragmentLayout& model, int sm, int min_sm, bool exact_sm) {
    if (exact_sm && sm != min_sm) {
        return model.id + " needs " + sm_text(min_sm) + "a (compute capability " +
               std::to_string(min_sm / 10) + "." + std::to_string(min_sm % 10) +
               ", Hopper); this GPU is " + sm_text(sm);
    }
    if (sm < min_sm) {
        return model.id + " needs " + sm_text(min_sm) + " or newer; this GPU is " + sm_text(sm);
    }
    return "";
}

// The current device's compute capability as major * 10 + minor, or an error.
std::string current_sm(int& sm) {
    int device = 0, major = 0, minor = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    }
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    }
    if (status != cudaSuccess) {
        return "no usable CUDA device: " + cuda_text(status);
    }
    sm = major * 10 + minor;
    return "";
}

void finish(LayoutProbeResult& result, const viz::FragmentLayout& model, const DeviceRun& run,
            int sm, const std::function<std::vector<MeasuredOperand>()>& decode) {
    if (!run.error.empty()) {
        result.error = model.id + ": " + run.error;
    } else if (run.not_compiled) {
        result.skipped_reason = model.id + ": this build of tclens has no " + model.ptx +
                                " code for " + sm_text(sm) + " (see CMAKE_CUDA_ARCHITECTURES)";
    } else {
        result.operands = decode();
    }
}

}  // namespace

LayoutProbeResult measure_fragment_layout(const viz::FragmentLayout& model) {
    LayoutProbeResult result;
    const std::string_view id = model.id;
    if (!model.verifiable) {
        result.skipped_reason = model.id + ": " + viz::kModelOnlyNote;
        return result;
    }
    if (!has_layout_probe(id)) {
        result.error = model.id + ": no probe for this layout ID";
        return result;
    }
    int sm = 0;
    if ((result.error = current_sm(sm)) != "") {
        return result;
    }
    std::string move;
    int matrices = 0;
    bool trans = false;
    const bool is_move = parse_matrix_move_id(id, move, matrices, trans);
    // Runs one family's plan: plan, then launch, then decode, stopping at the first problem.
    const auto probe = [&](int min_sm, bool exact_sm, const auto& make_plan, const auto& launch,
                           const auto& decode) {
        if ((result.skipped_reason = device_gap(model, sm, min_sm, exact_sm)) != "") return;
        const auto plan = make_plan();
        if ((result.error = plan.error) != "") return;
        const DeviceRun run = launch(plan);
        finish(result, model, run, sm, [&] { return decode(run.out); });
    };
    if (const MmaProbeSpec* mma = find_mma_probe_spec(id)) {
        probe(
            mma->min_sm, false, [&] { return plan_mma_probe(model, *mma); }, run_mma_probe,
            [&](const std::vector<uint32_t>& out) { return decode_mma_probe(model, *mma, out); });
    } else if (const SparseProbeSpec* sparse = find_sparse_probe_spec(id)) {
        probe(
            sparse->min_sm, false, [&] { return plan_sparse_probe(model, *sparse); },
            run_sparse_probe,
            [&](const std::vector<uint32_t>& out) {
                return decode_sparse_probe(model, *sparse, out);
            });
    } else if (is_move && move == "ldmatrix") {
        probe(
            80, false, [&] { return plan_ldmatrix_probe(model); }, run_ldmatrix_probe,
            [&](const std::vector<uint32_t>& out) { return decode_ldmatrix_probe(model, out); });
    } else if (is_move && move == "stmatrix") {
        probe(
            90, false, [&] { return plan_stmatrix_probe(model); }, run_stmatrix_probe,
            [&](const std::vector<uint32_t>& out) { return decode_stmatrix_probe(model, out); });
    } else if (is_move) {
        probe(
            80, false, [&] { return plan_movmatrix_probe(model); }, run_movmatrix_probe,
            [&](const std::vector<uint32_t>& out) { return decode_movmatrix_probe(model, out); });
    } else if (viz::wgmma_layout_n(id) != 0) {
        probe(
            90, true, [&] { return plan_wgmma_probe(model); }, run_wgmma_probe,
            [&](const std::vector<uint32_t>& out) { return decode_wgmma_probe(model, out); });
    } else {
        // A shared-memory view: the result is its tiles, not register operands.
        probe(
            90, true, [&] { return plan_wgmma_smem_probe(model); }, run_wgmma_smem_probe,
            [&](const std::vector<uint32_t>& out) {
                result.tiles = decode_wgmma_smem_probe(model, out);
                return std::vector<MeasuredOperand>{};
            });
    }
    return result;
}

namespace {

// Frees every allocation on scope exit, whatever path the launch took.
struct DeviceAllocations {
    std::vector<void*> pointers;
    ~DeviceAllocations() {
        for (void* p : pointers) cudaFree(p);
    }
    cudaError_t allocate(void** out, size_t bytes) {
        const cudaError_t status = cudaMalloc(out, bytes);
        if (status == cudaSuccess) pointers.push_back(*out);
        return status;
    }
};

}  // namespace

DeviceRun run_on_device(const std::vector<HostBytes>& inputs, size_t out_words,
                        const ProbeLaunch& launch) {
    DeviceRun run;
    DeviceAllocations allocations;
    std::vector<const void*> device_inputs;
    cudaError_t status = cudaSuccess;
    for (const HostBytes& input : inputs) {
        void* p = nullptr;
        if (status == cudaSuccess && input.bytes > 0)
            status = allocations.allocate(&p, input.bytes);
        if (status == cudaSuccess && input.bytes > 0) {
            status = cudaMemcpy(p, input.data, input.bytes, cudaMemcpyHostToDevice);
        }
        device_inputs.push_back(p);
    }
    void* out = nullptr;
    void* flag = nullptr;
    const size_t out_bytes = out_words * sizeof(uint32_t);
    if (status == cudaSuccess) status = allocations.allocate(&out, out_bytes);
    if (status == cudaSuccess) status = cudaMemset(out, 0xff, out_bytes);  // poison
    if (status == cudaSuccess) status = allocations.allocate(&flag, sizeof(int));
    if (status == cudaSuccess) status = cudaMemset(flag, 0, sizeof(int));
    if (status == cudaSuccess) {
        launch(device_inputs, static_cast<uint32_t*>(out), static_cast<int*>(flag));
        status = cudaGetLastError();
    }
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    int not_compiled = 0;
    if (status == cudaSuccess) {
        run.out.resize(out_words);
        status = cudaMemcpy(run.out.data(), out, out_bytes, cudaMemcpyDeviceToHost);
    }
    if (status == cudaSuccess) {
        status = cudaMemcpy(&not_compiled, flag, sizeof(int), cudaMemcpyDeviceToHost);
    }
    if (status != cudaSuccess) {
        run.out.clear();
        run.error = cuda_text(status);
    }
    run.not_compiled = not_compiled != 0;
    return run;
}

}  // namespace tclens::kernels
