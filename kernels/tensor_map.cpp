#include "kernels/tensor_map.h"

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "kernels/driver_entry_point.h"

namespace tclens::kernels {
namespace {

// The driver's cuTensorMapEncodeTiled (ABI of CUDA 12.0), looked up once per process; null
// (and `error` set) where the runtime cannot find it.
PFN_cuTensorMapEncodeTiled_v12000 encoder(std::string* error) {
    static const DriverEntryPoint entry = find_driver_entry_point("cuTensorMapEncodeTiled");
    if (!entry.found()) {
        *error = "cuTensorMapEncodeTiled not found through cudaGetDriverEntryPointByVersion (" +
                 std::string(cudaGetErrorString(entry.status)) + ", query result " +
                 std::to_string(static_cast<int>(entry.query)) + ")";
        return nullptr;
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry.function);
}

}  // namespace

std::string encode_tensor_map(const TensorMap2d& spec, CUtensorMap* map) {
    std::string error;
    const PFN_cuTensorMapEncodeTiled_v12000 encode = encoder(&error);
    if (encode == nullptr) {
        return error;
    }
    // Dimension 0 is the contiguous one (columns).
    const cuuint64_t dims[2] = {spec.cols, spec.rows};
    const cuuint64_t strides[1] = {spec.row_stride_bytes};
    const cuuint32_t box[2] = {spec.box_cols, spec.box_rows};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult result =
        encode(map, spec.type, 2, const_cast<void*>(spec.base), dims, strides, box, element_strides,
               CU_TENSOR_MAP_INTERLEAVE_NONE,
               spec.swizzle == TensorMapSwizzle::k128B ? CU_TENSOR_MAP_SWIZZLE_128B
                                                       : CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS) {
        return "cuTensorMapEncodeTiled failed with CUresult " +
               std::to_string(static_cast<int>(result));
    }
    return "";
}

}  // namespace tclens::kernels
