#pragma once
// Host side of TMA (the Hopper Tensor Memory Accelerator): building the CUtensorMap a kernel's
// cp.async.bulk.tensor instructions name. The encoder, cuTensorMapEncodeTiled, is a driver API
// function; it is looked up through the runtime (cudaGetDriverEntryPointByVersion), so nothing
// links libcuda. <cuda.h> is included for the types only.

#include <cuda.h>

#include <cstdint>
#include <string>

namespace tclens::kernels {

// How the box lands in shared memory. k128B: 16-byte chunk c of box row r is stored at chunk
// c ^ (r % 8) of its 128-byte row (the "tma128" swizzle of the bank lab); the box's inner
// extent must then be at most 128 bytes and its shared-memory destination 1024-byte aligned.
enum class TensorMapSwizzle { kNone, k128B };

// A row-major rows x cols matrix at `base` (elements of `type`, `row_stride_bytes` apart),
// read or written in boxes of box_rows x box_cols elements. Elements outside the matrix read as
// zero and are never written (TMA clips at the bounds), so edge tiles need no special code.
struct TensorMap2d {
    const void* base = nullptr;
    CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t row_stride_bytes = 0;  // multiple of 16, < 2^40
    std::uint32_t box_rows = 0;          // 1..256
    std::uint32_t box_cols = 0;          // 1..256, box_cols * element size a multiple of 16
    TensorMapSwizzle swizzle = TensorMapSwizzle::k128B;
};

// Encodes `spec` into `*map`. Returns "" on success, else one line saying why not (driver
// entry point missing, or the driver's CUresult for an invalid spec, e.g. a base that is not
// 16-byte aligned or a stride that is not a multiple of 16).
std::string encode_tensor_map(const TensorMap2d& spec, CUtensorMap* map);

}  // namespace tclens::kernels
