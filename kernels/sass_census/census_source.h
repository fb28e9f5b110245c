#pragma once
// Writes the C++ source that defines built_in_census() (census_table.h) from the functions a
// SASS listing held. The census tool writes it into the build folder at build time.

#include <string>
#include <vector>

#include "kernels/sass_census/sass_listing.h"

namespace tclens::kernels {

// `origin` says how the listing was read, `missing` why there is none ("" when `functions` is
// not empty). Strings are escaped as C++ literals; counts are written in OpClass order.
// Example entry: {"sm_80", "tclens::kernels::(anonymous namespace)::naive_fma_gemm(float
// const*, ...)", {0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 14}},
std::string census_source(const std::vector<FunctionMix>& functions, const std::string& origin,
                          const std::string& missing);

}  // namespace tclens::kernels
