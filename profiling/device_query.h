#pragma once
// The CUDA runtime's answer to "what does this machine offer" (device_info.h), on the machine
// that runs the GPU work: tclens_profiling, not the model a client links.

#include "profiling/device_info.h"

namespace tclens::profiling {

// Queries the CUDA runtime; never throws and never fails: a machine without a GPU or driver
// yields an empty device list and a reason.
SystemReport query_system();

}  // namespace tclens::profiling
