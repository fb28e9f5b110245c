#pragma once
// One value of a value-parameterized GPU test of a GEMM kernel: a kernel id and a problem, and
// how GoogleTest shows it (PrintTo: "wgmma_tma.bf16 128x3072x3072") and names it
// (gemm_case_name: "wgmma_tma_bf16_128x3072x3072", every character but letters, digits and '_'
// turned into '_'). The ladder's, stream-K's, FP8's and rung 14's tests share them.

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

struct GemmCase {
    std::string kernel_id;
    GemmProblem problem;
};

inline void PrintTo(const GemmCase& c, std::ostream* os) {
    *os << c.kernel_id << " " << c.problem.m << "x" << c.problem.n << "x" << c.problem.k;
}

inline std::string gemm_case_name(const testing::TestParamInfo<GemmCase>& info) {
    const GemmProblem& p = info.param.problem;
    std::string name = info.param.kernel_id + "_" + std::to_string(p.m) + "x" +
                       std::to_string(p.n) + "x" + std::to_string(p.k);
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

}  // namespace tclens::kernels
