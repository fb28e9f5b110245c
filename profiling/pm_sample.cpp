#include "profiling/pm_sample.h"

namespace tclens::profiling {

const char* pm_trigger_name(PmTrigger trigger) {
    return trigger == PmTrigger::kGpuTime ? "gpu-time" : "sysclk";
}

}  // namespace tclens::profiling
