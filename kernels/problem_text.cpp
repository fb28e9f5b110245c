#include "kernels/problem_text.h"

#include <charconv>

namespace tclens::kernels {
namespace {

std::optional<std::int64_t> parse_side(std::string_view text) {
    std::int64_t value = 0;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(text.data(), last, value);
    if (text.empty() || error != std::errc() || end != last) return std::nullopt;
    if (value < 1 || value > kMaxProblemSide) return std::nullopt;
    return value;
}

}  // namespace

std::optional<GemmProblem> parse_problem(std::string_view text) {
    const auto x1 = text.find('x');
    if (x1 == std::string_view::npos) return std::nullopt;
    const auto x2 = text.find('x', x1 + 1);
    if (x2 == std::string_view::npos) return std::nullopt;
    const auto m = parse_side(text.substr(0, x1));
    const auto n = parse_side(text.substr(x1 + 1, x2 - x1 - 1));
    const auto k = parse_side(text.substr(x2 + 1));
    if (!m || !n || !k) return std::nullopt;
    return GemmProblem{*m, *n, *k};
}

std::string problem_error(std::string_view text) {
    return "size '" + std::string(text) +
           "' is not MxNxK with M, N and K whole numbers from 1 to " +
           std::to_string(kMaxProblemSide) + " (e.g. 4096x4096x4096)";
}

std::string problem_text(const GemmProblem& p) {
    return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

}  // namespace tclens::kernels
