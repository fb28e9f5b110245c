// Tests for profiling/cupti_errors.*: every CUPTI status a user meets (docs/cupti.md)
// becomes one line that names the call and the status and says how to fix it.

#include "profiling/cupti_errors.h"

#include <cupti_result.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_checks.h"

namespace tclens::profiling {
namespace {

using test::contains;

bool one_line(const std::string& text) {
    return !text.empty() && text.find('\n') == std::string::npos && text.back() != '.';
}

TEST(CuptiErrors, SuccessIsNoError) {
    const ProfilerError error = cupti_error(CUPTI_SUCCESS, "cuptiRangeProfilerStart");
    EXPECT_TRUE(error.ok());
    EXPECT_EQ(error.problem, ProfilerProblem::kNone);
    EXPECT_EQ(error.message, "");
    EXPECT_FALSE(error.needs_resource());
}

TEST(CuptiErrors, PermissionNamesTheDriverOptionAndRoot) {
    const ProfilerError error =
        cupti_error(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "cuptiRangeProfilerEnable");
    EXPECT_EQ(error.problem, ProfilerProblem::kPermission);
    EXPECT_TRUE(error.needs_resource());
    EXPECT_TRUE(one_line(error.message)) << error.message;
    EXPECT_EQ(error.message.rfind("cuptiRangeProfilerEnable: ", 0), 0u) << error.message;
    EXPECT_TRUE(contains(error.message, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")) << error.message;
    EXPECT_TRUE(contains(error.message, "NVreg_RestrictProfilingToAdminUsers=0")) << error.message;
    EXPECT_TRUE(contains(error.message, "root")) << error.message;
}

TEST(CuptiErrors, HardwareBusyNamesTheOtherProfilers) {
    const ProfilerError error = cupti_error(CUPTI_ERROR_HARDWARE_BUSY, "cuptiRangeProfilerStart");
    EXPECT_EQ(error.problem, ProfilerProblem::kBusy);
    EXPECT_TRUE(error.needs_resource());
    EXPECT_TRUE(one_line(error.message)) << error.message;
    EXPECT_TRUE(contains(error.message, "CUPTI_ERROR_HARDWARE_BUSY"));
    EXPECT_TRUE(contains(error.message, "DCGM")) << error.message;
    EXPECT_TRUE(contains(error.message, "Nsight Compute")) << error.message;
}

TEST(CuptiErrors, MultipleSubscribersSaysRunOutsideTheTool) {
    const ProfilerError error =
        cupti_error(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "cuptiProfilerInitialize");
    EXPECT_EQ(error.problem, ProfilerProblem::kOtherTool);
    EXPECT_TRUE(error.needs_resource());
    EXPECT_TRUE(one_line(error.message)) << error.message;
    EXPECT_TRUE(contains(error.message, "Nsight Systems")) << error.message;
    EXPECT_TRUE(contains(error.message, "CUDA_INJECTION64_PATH")) << error.message;
}

TEST(CuptiErrors, UnsupportedConfigurationsSaySo) {
    struct Case {
        CUptiResult status;
        const char* says;
    };
    const Case cases[] = {
        {CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "MIG"},
        {CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, "virtual GPU"},
        {CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED, "confidential computing"},
        {CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, "crypto-mining"},
        {CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, "WSL"},
        {CUPTI_ERROR_NOT_SUPPORTED, "MPS"},
        {CUPTI_ERROR_INVALID_CHIP_NAME, "toolkit"},
    };
    for (const Case& c : cases) {
        const ProfilerError error = cupti_error(c.status, "cuptiRangeProfilerEnable");
        EXPECT_EQ(error.problem, ProfilerProblem::kUnsupported) << error.message;
        EXPECT_TRUE(error.needs_resource());
        EXPECT_TRUE(one_line(error.message)) << error.message;
        EXPECT_TRUE(contains(error.message, c.says)) << error.message;
        EXPECT_TRUE(contains(error.message, cupti_status_name(c.status))) << error.message;
    }
}

TEST(CuptiErrors, VirtualGpuWithoutProfilingIsAPermissionProblem) {
    const ProfilerError error = cupti_error(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES,
                                            "cuptiRangeProfilerEnable");
    EXPECT_EQ(error.problem, ProfilerProblem::kPermission);
    EXPECT_TRUE(contains(error.message, "hypervisor")) << error.message;
}

TEST(CuptiErrors, UnknownMetricIsABadMetric) {
    const ProfilerError error =
        cupti_error(CUPTI_ERROR_INVALID_METRIC_NAME, "cuptiProfilerHostConfigAddMetrics");
    EXPECT_EQ(error.problem, ProfilerProblem::kBadMetric);
    EXPECT_FALSE(error.needs_resource());
}

TEST(CuptiErrors, OtherCodesUseCuptisTextAndStayOneLine) {
    const ProfilerError error =
        cupti_error(CUPTI_ERROR_INVALID_PARAMETER, "cuptiRangeProfilerSetConfig",
                    "CUPTI_ERROR_INVALID_PARAMETER: bad size.\n");
    EXPECT_EQ(error.problem, ProfilerProblem::kFailed);
    EXPECT_FALSE(error.needs_resource());
    EXPECT_TRUE(one_line(error.message)) << error.message;
    EXPECT_TRUE(contains(error.message, "cuptiRangeProfilerSetConfig")) << error.message;
    EXPECT_TRUE(contains(error.message, "bad size")) << error.message;
}

TEST(CuptiErrors, UnknownStatusValuesAreNamedByNumber) {
    EXPECT_EQ(cupti_status_name(12345), "CUPTI status 12345");
    const ProfilerError error = cupti_error(12345, "cuptiRangeProfilerStop");
    EXPECT_EQ(error.problem, ProfilerProblem::kFailed);
    EXPECT_TRUE(contains(error.message, "CUPTI status 12345")) << error.message;
    EXPECT_TRUE(one_line(error.message)) << error.message;
}

TEST(CuptiErrors, StatusNamesMatchTheHeader) {
    EXPECT_EQ(cupti_status_name(CUPTI_ERROR_HARDWARE_BUSY), "CUPTI_ERROR_HARDWARE_BUSY");
    EXPECT_EQ(cupti_status_name(35), "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
    EXPECT_EQ(cupti_status_name(39), "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
}

TEST(ProfilerErrors, BuiltErrorsAreOneLineAndClassified) {
    const ProfilerError none = profiler_error(ProfilerProblem::kNone, "ignored");
    EXPECT_TRUE(none.ok());
    EXPECT_EQ(none.message, "");
    const ProfilerError no_gpu = profiler_error(ProfilerProblem::kNoGpu, "no GPU.\n");
    EXPECT_EQ(no_gpu.message, "no GPU");
    EXPECT_TRUE(no_gpu.needs_resource());
    EXPECT_FALSE(profiler_error(ProfilerProblem::kInvalidRequest, "too big").needs_resource());
    EXPECT_FALSE(profiler_error(ProfilerProblem::kFailed, "x").needs_resource());
}

}  // namespace
}  // namespace tclens::profiling
