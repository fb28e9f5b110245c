// libFuzzer harness for kernels/problem_text.h: parse_problem, problem_error, problem_text.
//
// Input: the size text, e.g. "4096x129x77".
// Invariants:
//   - an accepted text is three plain decimal numbers (digits only) joined by two 'x';
//   - every side is in [1, kMaxProblemSide], and each side's digits, read on their own, give
//     that side (leading zeros allowed);
//   - problem_text prints a text that parses back to the same problem;
//   - a rejected text gets an error that shows it in single quotes (an empty text as '').
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kernels/problem_text.h"
#include "tests/fuzz/fuzz_support.h"

namespace tclens::fuzz {
namespace {

// The decimal value of a run of digits, saturated above kMaxProblemSide.
std::int64_t digits_value(std::string_view digits) {
    std::int64_t value = 0;
    for (char digit : digits) {
        value = std::min<std::int64_t>(value * 10 + (digit - '0'), kernels::kMaxProblemSide + 1);
    }
    return value;
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::optional<kernels::GemmProblem> problem = kernels::parse_problem(text);
    if (!problem) {
        TCLENS_FUZZ_CHECK(fuzz::names_quoted(kernels::problem_error(text), text, '\''),
                          kernels::problem_error(text));
        return 0;
    }
    const std::string shown(text);
    std::int64_t sides[3] = {0, 0, 0};
    int side = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] >= '0' && text[i] <= '9') continue;
        TCLENS_FUZZ_CHECK(i == text.size() || text[i] == 'x', shown + " accepted with a non-digit");
        TCLENS_FUZZ_CHECK(side < 3 && i > start, shown + " accepted without three numbers");
        sides[side++] = fuzz::digits_value(text.substr(start, i - start));
        start = i + 1;
    }
    TCLENS_FUZZ_CHECK(side == 3, shown);
    TCLENS_FUZZ_CHECK(problem->m == sides[0] && problem->n == sides[1] && problem->k == sides[2],
                      shown + " parsed as " + kernels::problem_text(*problem));
    for (std::int64_t value : sides) {
        TCLENS_FUZZ_CHECK(value >= 1 && value <= kernels::kMaxProblemSide, shown);
    }
    const std::optional<kernels::GemmProblem> again =
        kernels::parse_problem(kernels::problem_text(*problem));
    TCLENS_FUZZ_CHECK(
        again && again->m == problem->m && again->n == problem->n && again->k == problem->k,
        shown + " -> " + kernels::problem_text(*problem));
    return 0;
}
