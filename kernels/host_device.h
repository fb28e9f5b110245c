#pragma once
// Functions that the kernels call on the GPU and the descriptors (or tests) call on the host,
// written once: under nvcc (and NVRTC) they are __host__ __device__; under a plain C++
// compiler, which has no such keywords, they are ordinary host functions, so that the headers
// that hold them build without CUDA (tclens_kernels_model, kernels/CMakeLists.txt).
#if defined(__CUDACC__)
#define TCLENS_HOST_DEVICE __host__ __device__
#define TCLENS_HOST_DEVICE_INLINE __host__ __device__ __forceinline__
#else
#define TCLENS_HOST_DEVICE
#define TCLENS_HOST_DEVICE_INLINE inline
#endif
