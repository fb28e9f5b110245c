#include "profiling/profiler_error.h"

#include "common/one_line.h"

namespace tclens::profiling {

bool ProfilerError::needs_resource() const {
    switch (problem) {
        case ProfilerProblem::kNoGpu:
        case ProfilerProblem::kPermission:
        case ProfilerProblem::kBusy:
        case ProfilerProblem::kOtherTool:
        case ProfilerProblem::kUnsupported:
            return true;
        default:
            return false;
    }
}

ProfilerError profiler_error(ProfilerProblem problem, std::string message) {
    ProfilerError error;
    error.problem = problem;
    if (problem != ProfilerProblem::kNone) {
        error.message = trimmed_line(std::move(message));
    }
    return error;
}

std::string trimmed_line(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '.' || text.back() == ' ')) {
        text.pop_back();
    }
    return common::one_line(text);
}

}  // namespace tclens::profiling
