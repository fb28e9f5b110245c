#pragma once
// GEMM sizes as text: "MxNxK" on the command line, in panel settings and in tables.

#include <optional>
#include <string>
#include <string_view>

#include "kernels/gemm.h"

namespace tclens::kernels {

inline constexpr std::int64_t kMaxProblemSide = 65536;

// "4096x4096x4096" -> {4096, 4096, 4096}; nullopt unless all three are plain decimal integers
// in [1, kMaxProblemSide].
std::optional<GemmProblem> parse_problem(std::string_view text);

// The one-line error for a value parse_problem rejects, naming it and what is allowed.
std::string problem_error(std::string_view text);

// {4096, 129, 77} -> "4096x129x77".
std::string problem_text(const GemmProblem& problem);

}  // namespace tclens::kernels
