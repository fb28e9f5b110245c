#pragma once
// Internal to profiling/: the plumbing every CUPTI owner shares (range profiler, PM sampler,
// launch facts). Checked calls that become ProfilerErrors, zeroed parameter structs, the
// process-wide profiler initialisation, profiler host objects and config images. Include it only
// from .cpp files of profiling/: it pulls in the CUPTI headers, which public headers must not.

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiling/cupti_errors.h"

namespace tclens::profiling::detail {

// A failed CUPTI call -> the readable error of cupti_errors.h; CUPTI_SUCCESS -> ok.
ProfilerError from_cupti(CUptiResult status, const char* call);

// A failed CUDA runtime call -> kNoGpu (no device or driver) or kFailed; success -> ok. Clears
// the runtime's last error.
ProfilerError from_cuda(cudaError_t status, const std::string& call);

// A zeroed CUPTI parameter struct with structSize set: CUPTI reads the size to know which fields
// the caller's header version has.
template <typename Params>
Params cupti_params(std::size_t struct_size) {
    Params params{};
    params.structSize = struct_size;
    return params;
}
#define TCLENS_PARAMS(Type) ::tclens::profiling::detail::cupti_params<Type>(Type##_STRUCT_SIZE)

// Returns the readable error of a failed CUPTI call from the enclosing function.
#define TCLENS_CUPTI(call)                                          \
    do {                                                            \
        const ::tclens::profiling::ProfilerError error_ =           \
            ::tclens::profiling::detail::from_cupti((call), #call); \
        if (!error_.ok()) return error_;                            \
    } while (0)

// One holder of cuptiProfilerInitialize. The first live holder in the process initialises
// CUPTI's profiler and the last one to go de-initialises it, so a RangeProfiler and a PmSampler
// may live side by side without one tearing CUPTI down under the other.
class CuptiProfilerUse {
  public:
    // Sets `use` on success.
    static ProfilerError acquire(std::unique_ptr<CuptiProfilerUse>& use);
    ~CuptiProfilerUse();
    CuptiProfilerUse(const CuptiProfilerUse&) = delete;
    CuptiProfilerUse& operator=(const CuptiProfilerUse&) = delete;

  private:
    CuptiProfilerUse() = default;
};

// A profiler host object of one profiler type; deinitialised when it goes out of scope.
class HostObject {
  public:
    HostObject() = default;
    ~HostObject() { reset(); }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    ProfilerError create(CUpti_ProfilerType type, const std::string& chip,
                         const std::vector<std::uint8_t>& availability);
    CUpti_Profiler_Host_Object* get() const { return object_; }

  private:
    void reset();
    CUpti_Profiler_Host_Object* object_ = nullptr;
};

// Pointers to the names, for CUPTI's const char** parameters; valid while `names` lives.
std::vector<const char*> c_names(const std::vector<std::string>& names);

// Adds `names` to `host` and builds the config image; reports the passes it needs.
ProfilerError build_config(HostObject& host, const std::vector<const char*>& names,
                           std::vector<std::uint8_t>& config, std::size_t& passes);

// Whether CUPTI accepts `name` alone, asked on a fresh host object (a host object whose
// ConfigAddMetrics failed once is unusable afterwards).
ProfilerError check_one_metric(CUpti_ProfilerType type, const std::string& chip,
                               const std::vector<std::uint8_t>& availability,
                               const std::string& name);

// The chip's base metric names (counters, ratios and throughputs), sorted.
ProfilerError list_base_metrics(CUpti_ProfilerType type, const std::string& chip,
                                const std::vector<std::uint8_t>& availability,
                                std::vector<std::string>& names);

// The runtime's current context and its device, fetched through the driver entry point so that
// tclens does not link libcuda (it must start on machines without a driver).
ProfilerError current_context(CUcontext& context, CUdevice& device);

// cudaSetDevice + cudaFree(0): the device's primary context exists and is current. Every
// profiler opens with it, so an injected CUPTI fault (fault_injection.h) fails here first.
ProfilerError start_cuda(int device);

// The CUPTI chip name of CUDA device `device`, e.g. "GH100" (needs CuptiProfilerUse).
ProfilerError chip_name(int device, std::string& chip);

}  // namespace tclens::profiling::detail
