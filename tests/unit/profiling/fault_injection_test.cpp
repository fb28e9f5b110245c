// Tests for profiling/fault_injection.* and the profiling layer's injection points: an injected
// CUPTI fault reads as the real CUPTI status does (the fix included) and stops every profiler
// before CUDA starts, so it is the same answer with or without a GPU; no-gpu empties the device
// query.

#include "profiling/fault_injection.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "profiling/device_query.h"
#include "profiling/kernel_profile.h"
#include "profiling/pm_sampler.h"
#include "profiling/range_profiler.h"
#include "tests/support/cli_checks.h"
#include "tests/support/scoped_fault.h"

namespace tclens::profiling {
namespace {

using kernels::Fault;

using test::ScopedFault;

using test::contains;

constexpr Fault kCuptiFaults[] = {Fault::kCuptiUnavailable, Fault::kCuptiPermission,
                                  Fault::kCuptiBusy};

TEST(CuptiFaultError, PermissionNamesRootCapSysAdminAndTheDriverOption) {
    const ProfilerError error = cupti_fault_error(Fault::kCuptiPermission);
    EXPECT_EQ(error.problem, ProfilerProblem::kPermission);
    EXPECT_TRUE(error.needs_resource());
    EXPECT_EQ(error.message.rfind("TCLENS_INJECT_FAULT=cupti-permission: ", 0), 0u)
        << error.message;
    for (const char* part : {"CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "root", "CAP_SYS_ADMIN",
                             "NVreg_RestrictProfilingToAdminUsers=0"}) {
        EXPECT_TRUE(contains(error.message, part)) << part << " in " << error.message;
    }
}

TEST(CuptiFaultError, BusySaysAnotherProfilerHoldsTheCounters) {
    const ProfilerError error = cupti_fault_error(Fault::kCuptiBusy);
    EXPECT_EQ(error.problem, ProfilerProblem::kBusy);
    EXPECT_TRUE(contains(error.message, "another profiler")) << error.message;
    EXPECT_TRUE(contains(error.message, "CUPTI_ERROR_HARDWARE_BUSY")) << error.message;
}

TEST(CuptiFaultError, UnavailableSaysProfilingIsNotSupported) {
    const ProfilerError error = cupti_fault_error(Fault::kCuptiUnavailable);
    EXPECT_EQ(error.problem, ProfilerProblem::kUnsupported);
    EXPECT_TRUE(error.needs_resource());
    EXPECT_TRUE(contains(error.message, "not supported")) << error.message;
    EXPECT_TRUE(contains(error.message, "CUPTI_ERROR_NOT_SUPPORTED")) << error.message;
}

TEST(CuptiFaultError, EveryOtherFaultIsNoCuptiError) {
    for (const Fault fault : {Fault::kNone, Fault::kNoGpu, Fault::kLaunchFailure}) {
        EXPECT_TRUE(cupti_fault_error(fault).ok()) << kernels::fault_name(fault);
    }
    for (const Fault fault : kCuptiFaults) {
        EXPECT_EQ(cupti_fault_error(fault).message.find('\n'), std::string::npos);
    }
    unsetenv(kernels::kFaultVariable);
    EXPECT_TRUE(injected_cupti_error().ok());
}

TEST(FaultInjection, NoGpuEmptiesTheDeviceQueryAndSaysWhy) {
    const ScopedFault fault(Fault::kNoGpu);
    const SystemReport report = query_system();
    EXPECT_FALSE(report.has_gpu());
    EXPECT_EQ(report.no_gpu_reason, "TCLENS_INJECT_FAULT=no-gpu hides every GPU");
    EXPECT_GT(report.runtime_version, 0);  // the runtime is still there
}

TEST(FaultInjection, CuptiFaultsStopEveryProfilerBeforeCudaStarts) {
    for (const Fault fault : kCuptiFaults) {
        SCOPED_TRACE(kernels::fault_name(fault));
        const ScopedFault injected(fault);
        const ProfilerError expected = cupti_fault_error(fault);

        RangeProfiler range;
        EXPECT_EQ(range.open().message, expected.message);
        PmSampler sampler;
        EXPECT_EQ(sampler.open().message, expected.message);

        KernelProfileRequest profile;
        profile.kernel_id = "naive_fma.f32";
        profile.problem = {64, 64, 64};
        profile.metrics = {"gpu__time_duration.sum"};
        const KernelProfile profiled = profile_kernel(profile);
        EXPECT_EQ(profiled.error.problem, expected.problem);
        EXPECT_EQ(profiled.error.message, expected.message);

        // Launch facts only: no range profiler opens; the kernel's preparation stops it.
        profile.metrics = {"launch__registers_per_thread"};
        EXPECT_EQ(profile_kernel(profile).error.message, expected.message);
        KernelProfiler profiler;
        EXPECT_EQ(profiler.prepare("naive_fma.f32", {64, 64, 64}).message, expected.message);

        KernelTimelineRequest timeline;
        timeline.kernel_id = "naive_fma.f32";
        timeline.problem = {64, 64, 64};
        EXPECT_EQ(record_timeline(timeline).error.message, expected.message);
    }
}

}  // namespace
}  // namespace tclens::profiling
