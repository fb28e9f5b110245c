// Tests for kernels/fault_injection.*: the names TCLENS_INJECT_FAULT takes, how an unknown one
// is refused, and the runner's injection points (no-gpu at its start, launch-failure at each
// run), which must fail the same way on machines with and without a GPU.

#include "kernels/fault_injection.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "kernels/gpu_registry.h"
#include "kernels/runner.h"

namespace tclens::kernels {
namespace {

// Sets TCLENS_INJECT_FAULT for one test and unsets it afterwards.
class ScopedFault {
  public:
    explicit ScopedFault(const char* value) { setenv(kFaultVariable, value, 1); }
    ~ScopedFault() { unsetenv(kFaultVariable); }
    ScopedFault(const ScopedFault&) = delete;
    ScopedFault& operator=(const ScopedFault&) = delete;
};

TEST(FaultInjection, EveryNameParsesBackToItsFault) {
    for (const Fault fault : {Fault::kNoGpu, Fault::kLaunchFailure, Fault::kCuptiUnavailable,
                              Fault::kCuptiPermission, Fault::kCuptiBusy, Fault::kWorkerCrash,
                              Fault::kWorkerHang, Fault::kWorkerGarbage, Fault::kWorkerFault}) {
        const std::string name = fault_name(fault);
        EXPECT_EQ(parse_fault(name), fault) << name;
        EXPECT_NE(fault_names().find(name), std::string::npos) << name;
        EXPECT_EQ(fault_setting(fault), "TCLENS_INJECT_FAULT=" + name);
    }
    EXPECT_EQ(parse_fault(""), Fault::kNone);
    EXPECT_EQ(fault_names(),
              "no-gpu, launch-failure, cupti-unavailable, cupti-permission, cupti-busy, "
              "worker-crash, worker-hang, worker-garbage, worker-fault");
}

TEST(FaultInjection, OtherTextIsNoFault) {
    for (const char* bad : {"bogus", "NO-GPU", " no-gpu", "no-gpu ", "no_gpu", "cupti"}) {
        EXPECT_FALSE(parse_fault(bad).has_value()) << bad;
    }
}

TEST(FaultInjection, TheVariableIsReadAtEachCall) {
    unsetenv(kFaultVariable);
    EXPECT_EQ(injected_fault(), Fault::kNone);
    EXPECT_EQ(fault_variable_error(), "");
    {
        const ScopedFault fault("cupti-busy");
        EXPECT_EQ(injected_fault(), Fault::kCuptiBusy);
        EXPECT_TRUE(is_cupti_fault(injected_fault()));
        EXPECT_EQ(fault_variable_error(), "");
    }
    {
        const ScopedFault fault("");
        EXPECT_EQ(injected_fault(), Fault::kNone);
        EXPECT_EQ(fault_variable_error(), "");
    }
    EXPECT_FALSE(is_cupti_fault(Fault::kLaunchFailure));
    EXPECT_FALSE(is_cupti_fault(Fault::kNoGpu));
    EXPECT_FALSE(is_cupti_fault(Fault::kWorkerCrash));
    for (const Fault fault :
         {Fault::kWorkerCrash, Fault::kWorkerHang, Fault::kWorkerGarbage, Fault::kWorkerFault}) {
        EXPECT_TRUE(is_worker_fault(fault)) << fault_name(fault);
    }
    EXPECT_FALSE(is_worker_fault(Fault::kNone));
    for (Fault fault : {Fault::kLaunchFailure, Fault::kCuptiUnavailable, Fault::kCuptiPermission,
                        Fault::kCuptiBusy}) {
        EXPECT_TRUE(strikes_after_device_checks(fault)) << fault_name(fault);
    }
    for (Fault fault : {Fault::kNone, Fault::kNoGpu, Fault::kWorkerCrash, Fault::kWorkerFault}) {
        EXPECT_FALSE(strikes_after_device_checks(fault)) << fault_name(fault);
    }
    EXPECT_FALSE(is_worker_fault(Fault::kCuptiBusy));
}

TEST(FaultInjection, AnUnknownNameIsRefusedInOneLineListingTheValidOnes) {
    const ScopedFault fault("gpu-on-fire");
    EXPECT_EQ(injected_fault(), Fault::kNone);
    const std::string error = fault_variable_error();
    EXPECT_NE(error.find("TCLENS_INJECT_FAULT='gpu-on-fire'"), std::string::npos) << error;
    EXPECT_NE(error.find(fault_names()), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(FaultInjection, NoGpuStopsTheRunnerAtItsStart) {
    const ScopedFault fault("no-gpu");
    GemmRunner runner;
    EXPECT_NE(runner.init_error().find("TCLENS_INJECT_FAULT=no-gpu"), std::string::npos)
        << runner.init_error();
    const RunResult result =
        runner.run(*find_gpu_kernel("naive_fma.f32"), {64, 64, 64}, RunOptions{});
    EXPECT_EQ(result.error, runner.init_error());
    EXPECT_FALSE(result.counts());
}

TEST(FaultInjection, LaunchFailureFailsEveryRunWithTheCudaError) {
    const ScopedFault fault("launch-failure");
    GemmRunner runner;
    for (const char* id : {"naive_fma.f32", "wgmma_tma.f16", "cublas.bf16"}) {
        const RunResult result = runner.run(*find_gpu_kernel(id), {64, 64, 64}, RunOptions{});
        EXPECT_EQ(result.kernel_id, id);
        EXPECT_EQ(result.error,
                  "cudaErrorLaunchFailure: unspecified launch failure (injected: "
                  "TCLENS_INJECT_FAULT=launch-failure)");
        EXPECT_EQ(result.skipped, "");
        EXPECT_FALSE(result.check.passed);
        EXPECT_FALSE(result.counts());
        EXPECT_EQ(run_status(result).rfind("error: cudaErrorLaunchFailure", 0), 0u)
            << run_status(result);
    }
}

}  // namespace
}  // namespace tclens::kernels
