#pragma once
// "Profile on GPU" of the Source panel on the job runner: one source profile
// (profiling/source/source_collector.h) of a kernel on a size, published whole into
// AppContext::source_profile. A request that cannot run (no GPU) publishes a profile whose error
// says so; never an exception into the runner.

#include <string>

#include "app/gui/jobs/job_runner.h"
#include "kernels/gemm.h"

namespace tclens::gui {

struct AppContext;

// Posts the job; the panel follows it through the handle.
JobHandle request_source_profile(AppContext& context, const std::string& kernel_id,
                                 const kernels::GemmProblem& problem);

}  // namespace tclens::gui
