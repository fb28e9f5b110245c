#pragma once
// The GPU registry: the registry's descriptors (kernels/registry.h: the same kernels, the same
// order) with their launches attached (kernels/ladder_launches.h). Whatever launches a kernel
// takes its descriptor from here; whatever only describes one takes the registry's, which
// builds without CUDA.

#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::kernels {

// all_kernels(), each with its launch (and its traced launch where it has trace points). Built
// once; the reference stays valid for the program's life.
const std::vector<KernelDescriptor>& all_gpu_kernels();

// The descriptor with this id, with its launch, or nullptr.
const KernelDescriptor* find_gpu_kernel(const std::string& id);

}  // namespace tclens::kernels
