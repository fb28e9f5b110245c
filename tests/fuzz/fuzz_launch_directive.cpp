// libFuzzer harness for kernels/user/launch_directive.h: the `// tclens:` directive and its
// size expressions.
//
// Input: line 1 the directive line, line 2 optionally "M N K" (else 4096 4096 4096).
// Invariants:
//   - a line that is_directive_line rejects never parses; every error is one non-empty line;
//   - a parsed directive has grid= and block= both or neither, and its line number;
//   - every expression's compact text parses again to an expression with the same value (or
//     the same failure) at the sizes;
//   - launch_geometry either fails with a line naming grid, block or smem, or gives every
//     dimension within the limits, at most max_threads_per_block threads and smem within
//     0..max_dynamic_smem.
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/user/launch_directive.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace tclens;
using kernels::user::SizeExpr;

void check_round_trip(const SizeExpr& e, const kernels::GemmProblem& p, const std::string& line) {
    if (e.empty()) return;
    auto again = kernels::user::parse_size_expr(e.text());
    TCLENS_FUZZ_CHECK(again.ok(), line + " | " + e.text() + " does not parse again");
    auto a = e.evaluate(p);
    auto b = again->evaluate(p);
    TCLENS_FUZZ_CHECK(a.ok() == b.ok(), line + " | " + e.text());
    if (a.ok()) TCLENS_FUZZ_CHECK(*a == *b, line + " | " + e.text());
    if (!a.ok())
        TCLENS_FUZZ_CHECK(!a.error().empty() && a.error().find('\n') == std::string::npos, line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::string> fields = fuzz::split_fields(data, size, 2);
    const std::string& line = fields[0];
    kernels::GemmProblem p{4096, 4096, 4096};
    {
        const std::string& sizes = fields[1];
        const std::size_t a = sizes.find(' ');
        const std::size_t b = a == std::string::npos ? a : sizes.find(' ', a + 1);
        if (b != std::string::npos) {
            auto m = fuzz::whole_int(sizes.substr(0, a));
            auto n = fuzz::whole_int(sizes.substr(a + 1, b - a - 1));
            auto k = fuzz::whole_int(sizes.substr(b + 1));
            if (m && n && k) p = {*m, *n, *k};
        }
    }
    auto parsed = kernels::user::parse_launch_directive(line, 7);
    if (!kernels::user::is_directive_line(line)) {
        TCLENS_FUZZ_CHECK(!parsed.ok(), line + " parsed without being a directive line");
    }
    if (!parsed.ok()) {
        TCLENS_FUZZ_CHECK(parsed.error().rfind("line 7: tclens directive: ", 0) == 0, line);
        TCLENS_FUZZ_CHECK(parsed.error().find('\n') == std::string::npos, line);
        return 0;
    }
    const kernels::user::LaunchDirective& d = *parsed;
    TCLENS_FUZZ_CHECK(d.line == 7, line);
    TCLENS_FUZZ_CHECK(d.grid[0].empty() == d.block[0].empty(), line);
    for (int i = 0; i < 3; ++i) {
        check_round_trip(d.grid[i], p, line);
        check_round_trip(d.block[i], p, line);
    }
    check_round_trip(d.smem, p, line);
    if (!d.has_launch()) return 0;
    kernels::user::LaunchLimits limits;
    limits.max_dynamic_smem = 232448;
    auto g = kernels::user::launch_geometry(d, p, limits);
    if (!g.ok()) {
        const std::string& e = g.error();
        TCLENS_FUZZ_CHECK(
            e.rfind("grid", 0) == 0 || e.rfind("block", 0) == 0 || e.rfind("smem", 0) == 0,
            line + " -> " + e);
        return 0;
    }
    std::int64_t threads = 1;
    for (int i = 0; i < 3; ++i) {
        TCLENS_FUZZ_CHECK(g->grid[i] >= 1 && g->grid[i] <= limits.max_grid[i], line);
        TCLENS_FUZZ_CHECK(g->block[i] >= 1 && g->block[i] <= limits.max_block[i], line);
        threads *= g->block[i];
    }
    TCLENS_FUZZ_CHECK(threads <= limits.max_threads_per_block, line);
    TCLENS_FUZZ_CHECK(g->smem >= 0 && g->smem <= limits.max_dynamic_smem, line);
    return 0;
}
