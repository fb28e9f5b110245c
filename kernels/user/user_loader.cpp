// load_user_kernel and run_fragment_exercise (user_kernel.h): the compiled code put on the GPU.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <mutex>

#include "kernels/cuda_util.h"
#include "kernels/ladder.h"
#include "kernels/trace_limits.h"
#include "kernels/user/driver_api.h"
#include "kernels/user/nvcc_build.h"
#include "kernels/user/user_kernel.h"
#include "kernels/user/work_dir.h"

namespace tclens::kernels::user {
namespace {

using Clock = std::chrono::steady_clock;

// A dlopen'ed shim library; closed when the last descriptor holding it is gone.
class Library {
  public:
    explicit Library(void* handle) : handle_(handle) {}
    ~Library() { dlclose(handle_); }
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;
    void* symbol(const char* name) const { return dlsym(handle_, name); }

  private:
    void* handle_;
};

common::Expected<std::shared_ptr<Library>> open_library(const CompiledKernel& compiled) {
    using Result = common::Expected<std::shared_ptr<Library>>;
    if (compiled.library_path.empty()) {
        return Result::failure(compiled.ref.path + ": no library was built");
    }
    // Only what this worker built in its private folder (work_dir.h) is ever loaded.
    if (!compiled.work || !compiled.work->holds(compiled.library_path)) {
        return Result::failure(compiled.ref.path + ": the built library " + compiled.library_path +
                               " is not in the worker's private folder");
    }
    dlerror();
    void* handle = dlopen(compiled.library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* why = dlerror();
        return Result::failure(compiled.ref.path + ": loading the built library failed: " +
                               (why != nullptr ? why : "unknown dlopen error"));
    }
    return Result::success(std::make_shared<Library>(handle));
}

// "" when the current GPU can run code built for `compiled.arch`, else why not.
std::string device_mismatch(const CompiledKernel& compiled, int& device_sm) {
    int device = 0;
    int major = 0;
    int minor = 0;
    cudaError_t e = cudaFree(nullptr);  // makes the primary context current
    if (e == cudaSuccess) e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return "no usable GPU: " + cuda_text(e);
    }
    device_sm = major * 10 + minor;
    const bool arch_specific = compiled.arch.back() == 'a';
    const bool fits = arch_specific
                          ? device_sm == compiled.sm
                          : device_sm / 10 == compiled.sm / 10 && device_sm >= compiled.sm;
    if (fits) return "";
    return compiled.ref.path + " was built for " + compiled.arch + "; this GPU is sm_" +
           std::to_string(device_sm) + ": compile it again for this GPU";
}

KernelDescriptor base_descriptor(const CompiledKernel& compiled) {
    const Discovered& d = compiled.discovered;
    KernelDescriptor k;
    k.id = compiled.id;
    k.rung = 0;
    k.title = "yours: " + d.function.qualified + " (" + form_name(d.form) + ")";
    k.adds = "your kernel, from " + compiled.ref.path;
    k.precision = d.precision;
    k.accumulate = Precision::kF32;
    k.swizzle = "none";
    k.min_sm = compiled.sm;
    k.reference_id = cublas_kernel(d.precision).id;
    k.checked_timing = true;  // its timed launches are checked as well (runner.h)
    return k;
}

// The host launcher's descriptor: launch calls the shim's entry; a workspace, when the user's
// launcher takes one, is (re)allocated at the first launch of a larger problem (outside any
// timed launch: the runner's first launch is its untimed verification run).
common::Expected<KernelDescriptor> host_launcher(const CompiledKernel& compiled,
                                                 std::shared_ptr<Library> library) {
    using Result = common::Expected<KernelDescriptor>;
    using GemmEntry = int (*)(long long, long long, long long, const void*, const void*, float*,
                              void*, cudaStream_t);
    using SizeEntry = long long (*)(long long, long long, long long);
    auto gemm = reinterpret_cast<GemmEntry>(library->symbol(kGemmEntry));
    auto size = reinterpret_cast<SizeEntry>(library->symbol(kWorkspaceEntry));
    if (gemm == nullptr || (compiled.discovered.signature.workspace && size == nullptr)) {
        return Result::failure(compiled.ref.path + ": the built library lacks tclens's entry (" +
                               kGemmEntry + ")");
    }
    struct Workspace {
        std::mutex mutex;
        DeviceBuffer buffer;
        long long bytes = 0;
    };
    auto workspace = std::make_shared<Workspace>();
    KernelDescriptor k = base_descriptor(compiled);
    k.can_run = [](const GemmProblem&) { return std::string(); };
    k.launches_on_legacy_stream = true;
    k.launch = [library, gemm, size, workspace, work = compiled.work](
                   const GemmOperands& ops, cudaStream_t stream) -> cudaError_t {
        void* buffer = nullptr;
        if (size != nullptr) {
            const GemmProblem& p = ops.problem;
            const long long wanted = size(p.m, p.n, p.k);
            std::lock_guard<std::mutex> lock(workspace->mutex);
            if (wanted > workspace->bytes) {
                workspace->bytes = 0;
                const cudaError_t e = workspace->buffer.allocate(wanted);
                if (e != cudaSuccess) return e;
                workspace->bytes = wanted;
            }
            buffer = workspace->buffer.get();
        }
        return static_cast<cudaError_t>(
            gemm(ops.problem.m, ops.problem.n, ops.problem.k, ops.a, ops.b, ops.c, buffer, stream));
    };
    using SinkEntry = int (*)(const void*, cudaStream_t);
    auto set_sink = reinterpret_cast<SinkEntry>(library->symbol(kTraceSinkEntry));
    if (compiled.traced && set_sink != nullptr) {
        k.traced.launch = [set_sink, launch = k.launch](const GemmOperands& ops,
                                                        const TraceSink& sink,
                                                        cudaStream_t stream) -> cudaError_t {
            const auto status = static_cast<cudaError_t>(set_sink(&sink, stream));
            return status != cudaSuccess ? status : as_cuda_error(launch(ops, stream));
        };
        // The launcher's grid and block are its own: any of the first blocks may record.
        k.traced.shape = [](const GemmProblem& problem) {
            return TracedShape{kMaxTracedBlocks, 32, user_trace_records_per_warp(problem.k)};
        };
        k.traced.wgmma_per_phase = 1;
    }
    return Result::success(k);
}

// A loaded module; unloaded when the last descriptor holding it is gone.
class Module {
  public:
    Module(const DriverApi* api, CUmodule module) : api_(api), module_(module) {}
    ~Module() { api_->module_unload(module_); }
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    CUmodule get() const { return module_; }

  private:
    const DriverApi* api_;
    CUmodule module_;
};

// A traced directive kernel whose module holds tclens_trace_sink (kernels/user_trace.cuh): its
// traced launch copies the sink there on the stream, then launches as `k.launch` does; its shape
// is the directive's. Without that global, k.traced stays empty.
void add_traced_launch(const DriverApi& api, CUmodule module, const LaunchDirective& directive,
                       const LaunchLimits& limits, KernelDescriptor& k) {
    CUdeviceptr global = 0;
    std::size_t bytes = 0;
    if (api.module_get_global(&global, &bytes, module, "tclens_trace_sink") != CUDA_SUCCESS ||
        bytes != sizeof(TraceSink)) {
        return;
    }
    k.traced.launch = [global, launch = k.launch](const GemmOperands& ops, const TraceSink& sink,
                                                  cudaStream_t stream) -> cudaError_t {
        const cudaError_t status = cudaMemcpyAsync(reinterpret_cast<void*>(global), &sink,
                                                   sizeof sink, cudaMemcpyHostToDevice, stream);
        return status != cudaSuccess ? status : as_cuda_error(launch(ops, stream));
    };
    k.traced.shape = [directive, limits](const GemmProblem& problem) {
        TracedShape shape;
        const auto g = launch_geometry(directive, problem, limits);
        if (!g) return shape;
        shape.grid_blocks = g->grid[0] * g->grid[1] * g->grid[2];
        shape.warps_per_block =
            static_cast<int>((g->block[0] * g->block[1] * g->block[2] + 31) / 32);
        shape.records_per_warp = user_trace_records_per_warp(problem.k);
        return shape;
    };
    k.traced.wgmma_per_phase = 1;
}

common::Expected<KernelDescriptor> directive_kernel(const CompiledKernel& compiled) {
    using Result = common::Expected<KernelDescriptor>;
    std::string error;
    const DriverApi* api = driver_api(&error);
    if (api == nullptr) return Result::failure(error);
    CUmodule raw = nullptr;
    CUresult r = api->module_load_data(&raw, compiled.cubin.data());
    if (r != CUDA_SUCCESS) {
        return Result::failure(compiled.ref.path +
                               ": loading its cubin failed: " + cuda_text(as_runtime_error(r)));
    }
    auto module = std::make_shared<Module>(api, raw);
    CUfunction function = nullptr;
    r = api->module_get_function(&function, module->get(), compiled.lowered_name.c_str());
    if (r != CUDA_SUCCESS) {
        return Result::failure(compiled.ref.path + ": kernel " +
                               compiled.discovered.function.qualified +
                               " not in its cubin: " + cuda_text(as_runtime_error(r)));
    }
    // What this GPU and this function allow a launch.
    int device = 0;
    cudaGetDevice(&device);
    LaunchLimits limits;
    const cudaDeviceAttr grid_attr[3] = {cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY,
                                         cudaDevAttrMaxGridDimZ};
    const cudaDeviceAttr block_attr[3] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY,
                                          cudaDevAttrMaxBlockDimZ};
    for (int i = 0; i < 3; ++i) {
        int value = 0;
        if (cudaDeviceGetAttribute(&value, grid_attr[i], device) == cudaSuccess) {
            limits.max_grid[i] = value;
        }
        if (cudaDeviceGetAttribute(&value, block_attr[i], device) == cudaSuccess) {
            limits.max_block[i] = value;
        }
    }
    int optin = 0;
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    int static_smem = 0;
    int max_threads = 0;
    api->func_get_attribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function);
    api->func_get_attribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function);
    if (max_threads > 0) limits.max_threads_per_block = max_threads;
    limits.max_dynamic_smem = optin - static_smem;
    r = api->func_set_attribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                limits.max_dynamic_smem);
    if (r != CUDA_SUCCESS) {
        return Result::failure(
            compiled.ref.path + ": allowing " + std::to_string(limits.max_dynamic_smem) +
            " bytes of dynamic shared memory failed: " + cuda_text(as_runtime_error(r)));
    }

    const LaunchDirective directive = compiled.discovered.directive;
    const GemmSignature signature = compiled.discovered.signature;
    KernelDescriptor k = base_descriptor(compiled);
    k.threads = constant_threads(directive);
    if (const auto smem = directive.smem.constant()) k.dynamic_smem_bytes = static_cast<int>(*smem);
    k.can_run = [directive, limits](const GemmProblem& problem) {
        auto geometry = launch_geometry(directive, problem, limits);
        return geometry ? std::string() : geometry.error();
    };
    k.launch_plan = [directive, limits](const GemmProblem& problem) {
        auto geometry = launch_geometry(directive, problem, limits);
        return geometry ? launch_geometry_text(*geometry) : std::string();
    };
    k.launch = [module, api, function, directive, limits, signature, work = compiled.work](
                   const GemmOperands& ops, cudaStream_t stream) -> cudaError_t {
        auto g = launch_geometry(directive, ops.problem, limits);
        if (!g) return cudaErrorInvalidConfiguration;
        // One slot per parameter, in the kernel's order, holding the argument in its size.
        std::int64_t sizes[3] = {ops.problem.m, ops.problem.n, ops.problem.k};
        const void* pointers[3] = {ops.a, ops.b, ops.c};
        std::int32_t narrow[6] = {};
        std::int64_t wide[6] = {};
        void* slots[6] = {};
        void* args[6] = {};
        for (std::size_t i = 0; i < 6; ++i) {
            const bool is_size = signature.pointers_first ? i >= 3 : i < 3;
            const std::size_t which = signature.pointers_first ? i % 3 : (i + 3) % 3;
            if (!is_size) {
                slots[i] = const_cast<void*>(pointers[which]);
                args[i] = &slots[i];
            } else if (signature.params[i] == ParamKind::kInt32) {
                narrow[i] = static_cast<std::int32_t>(sizes[which]);
                args[i] = &narrow[i];
            } else {
                wide[i] = sizes[which];
                args[i] = &wide[i];
            }
        }
        const CUresult result = api->launch_kernel(
            function, static_cast<unsigned>(g->grid[0]), static_cast<unsigned>(g->grid[1]),
            static_cast<unsigned>(g->grid[2]), static_cast<unsigned>(g->block[0]),
            static_cast<unsigned>(g->block[1]), static_cast<unsigned>(g->block[2]),
            static_cast<unsigned>(g->smem), stream, args, nullptr);
        return as_runtime_error(result);
    };
    if (compiled.traced) add_traced_launch(*api, module->get(), directive, limits, k);
    return Result::success(k);
}

// Copies `values` to the device as `element` (exact for the exercise's small integers).
cudaError_t upload(void* device, const std::vector<float>& values, Precision element) {
    if (element == Precision::kF16) {
        std::vector<__half> h(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) h[i] = __float2half(values[i]);
        return cudaMemcpy(device, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice);
    }
    if (element == Precision::kBF16) {
        std::vector<__nv_bfloat16> h(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) h[i] = __float2bfloat16(values[i]);
        return cudaMemcpy(device, h.data(), h.size() * sizeof(__nv_bfloat16),
                          cudaMemcpyHostToDevice);
    }
    return cudaMemcpy(device, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
}

}  // namespace

common::Expected<std::shared_ptr<LoadedKernel>> load_user_kernel(const CompiledKernel& compiled) {
    using Result = common::Expected<std::shared_ptr<LoadedKernel>>;
    const Clock::time_point start = Clock::now();
    if (compiled.discovered.form == KernelForm::kFragmentExercise) {
        return Result::failure(compiled.ref.path +
                               " is a fragment exercise, not a GEMM: run it "
                               "with run_fragment_exercise");
    }
    int device_sm = 0;
    if (const std::string why = device_mismatch(compiled, device_sm); !why.empty()) {
        return Result::failure(why);
    }
    common::Expected<KernelDescriptor> descriptor =
        common::Expected<KernelDescriptor>::failure("not built");
    if (compiled.discovered.form == KernelForm::kHostLauncher) {
        auto library = open_library(compiled);
        if (!library) return Result::failure(library.error());
        descriptor = host_launcher(compiled, *library);
    } else {
        descriptor = directive_kernel(compiled);
    }
    if (!descriptor) return Result::failure(descriptor.error());
    auto loaded = std::make_shared<LoadedKernel>();
    loaded->descriptor = *descriptor;
    loaded->form = compiled.discovered.form;
    loaded->cubin_path = compiled.cubin_path;
    loaded->work = compiled.work;
    loaded->compiled = compiled;
    loaded->load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return Result::success(loaded);
}

common::Expected<ExerciseReport> run_fragment_exercise(const CompiledKernel& compiled) {
    using Result = common::Expected<ExerciseReport>;
    if (compiled.discovered.form != KernelForm::kFragmentExercise) {
        return Result::failure(compiled.ref.path + " is a " + form_name(compiled.discovered.form) +
                               ", not a fragment exercise: load it with load_user_kernel");
    }
    int device_sm = 0;
    if (const std::string why = device_mismatch(compiled, device_sm); !why.empty()) {
        return Result::failure(why);
    }
    auto library = open_library(compiled);
    if (!library) return Result::failure(library.error());
    using ExerciseEntry = int (*)(const void*, const void*, float*);
    auto entry = reinterpret_cast<ExerciseEntry>((*library)->symbol(kExerciseEntry));
    if (entry == nullptr) {
        return Result::failure(compiled.ref.path + ": the built library lacks tclens's entry (" +
                               kExerciseEntry + ")");
    }
    const ExercisePlan plan = plan_exercise(compiled.discovered.exercise_layout);
    const Precision element = compiled.discovered.precision;
    const std::size_t a_count = static_cast<std::size_t>(plan.rows) * plan.depth;
    const std::size_t b_count = static_cast<std::size_t>(plan.depth) * plan.cols;
    const std::size_t c_count = static_cast<std::size_t>(plan.rows) * plan.cols;
    DeviceBuffer a_buffer;
    DeviceBuffer b_buffer;
    DeviceBuffer c_buffer;
    cudaError_t e = a_buffer.allocate(static_cast<std::int64_t>(a_count) * 4);
    if (e == cudaSuccess) e = b_buffer.allocate(static_cast<std::int64_t>(b_count) * 4);
    if (e == cudaSuccess) e = c_buffer.allocate(static_cast<std::int64_t>(c_count) * 4);
    void* a = a_buffer.get();
    void* b = b_buffer.get();
    float* c = c_buffer.as_float();
    std::vector<std::vector<float>> outputs;
    for (const ExerciseExperiment& x : plan.experiments) {
        if (e != cudaSuccess) break;
        e = upload(a, x.a, element);
        if (e == cudaSuccess) e = upload(b, x.b, element);
        if (e == cudaSuccess) e = upload(c, x.c, Precision::kF32);
        if (e == cudaSuccess) e = static_cast<cudaError_t>(entry(a, b, c));
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        std::vector<float> out(c_count);
        if (e == cudaSuccess) {
            e = cudaMemcpy(out.data(), c, c_count * 4, cudaMemcpyDeviceToHost);
        }
        outputs.push_back(std::move(out));
    }
    if (e != cudaSuccess) {
        return Result::failure(compiled.ref.path + ": the exercise kernel " +
                               compiled.discovered.function.qualified + " failed: " + cuda_text(e));
    }
    ExerciseReport report = decode_exercise(plan, outputs);
    report.function = compiled.discovered.function.qualified;
    return Result::success(report);
}

}  // namespace tclens::kernels::user
