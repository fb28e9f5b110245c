#include "kernels/tma_gemm.h"

#include "kernels/tensor_map.h"

namespace tclens::kernels {

std::string encode_k_major_fp8_maps(const GemmOperands& operands, std::uint32_t box_rows_a,
                                    std::uint32_t box_rows_b, CUtensorMap* a_map,
                                    CUtensorMap* b_map) {
    const GemmProblem& p = operands.problem;
    TensorMap2d a;
    a.base = operands.a;
    a.type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    a.rows = static_cast<std::uint64_t>(p.m);
    a.cols = static_cast<std::uint64_t>(p.k);
    a.row_stride_bytes = static_cast<std::uint64_t>(a_stride(operands));
    a.box_rows = box_rows_a;
    a.box_cols = kTmaFp8BoxElems;
    TensorMap2d b = a;
    b.base = operands.b;
    b.rows = static_cast<std::uint64_t>(p.n);
    b.row_stride_bytes = static_cast<std::uint64_t>(b_stride(Precision::kE4M3, operands));
    b.box_rows = box_rows_b;
    std::string error = encode_tensor_map(a, a_map);
    if (error.empty()) error = encode_tensor_map(b, b_map);
    return error;
}

std::string encode_operand_maps(const GemmOperands& operands, CUtensorMapDataType type,
                                std::uint32_t box_rows_a, std::uint32_t box_rows_b,
                                CUtensorMap* a_map, CUtensorMap* b_map) {
    const GemmProblem& p = operands.problem;
    TensorMap2d a;
    a.base = operands.a;
    a.type = type;
    a.rows = static_cast<std::uint64_t>(p.m);
    a.cols = static_cast<std::uint64_t>(p.k);
    a.row_stride_bytes = static_cast<std::uint64_t>(a_stride(operands)) * 2;
    a.box_rows = box_rows_a;
    a.box_cols = kTmaBoxElems;
    TensorMap2d b = a;
    b.base = operands.b;
    b.rows = static_cast<std::uint64_t>(p.k);
    b.cols = static_cast<std::uint64_t>(p.n);
    b.row_stride_bytes = static_cast<std::uint64_t>(b_stride(Precision::kBF16, operands)) * 2;
    b.box_rows = box_rows_b;
    std::string error = encode_tensor_map(a, a_map);
    if (error.empty()) error = encode_tensor_map(b, b_map);
    return error;
}

}  // namespace tclens::kernels
