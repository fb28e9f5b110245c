#include "kernels/user/launch_directive.h"

#include <gtest/gtest.h>

namespace tclens::kernels::user {
namespace {

std::int64_t eval(const std::string& text, GemmProblem p = {300, 200, 100}) {
    auto e = parse_size_expr(text);
    EXPECT_TRUE(e) << text << ": " << e.error();
    if (!e) return -1;
    auto v = e->evaluate(p);
    EXPECT_TRUE(v) << text << ": " << v.error();
    return v ? *v : -1;
}

std::string eval_error(const std::string& text, GemmProblem p = {300, 200, 100}) {
    auto e = parse_size_expr(text);
    if (!e) return e.error();
    auto v = e->evaluate(p);
    return v ? "" : v.error();
}

TEST(SizeExpr, Arithmetic) {
    EXPECT_EQ(eval("cdiv(N,128)"), 2);
    EXPECT_EQ(eval("cdiv(M, 128)"), 3);
    EXPECT_EQ(eval("2 + 3 * 4"), 14);
    EXPECT_EQ(eval("(2 + 3) * 4"), 20);
    EXPECT_EQ(eval("M / 7 % 5"), 42 % 5);
    EXPECT_EQ(eval("-M + 1"), -299);
    EXPECT_EQ(eval("--K"), 100);
    EXPECT_EQ(eval("min(M, max(N, K))"), 200);
    EXPECT_EQ(eval("-7 / 2"), -3);  // C++ truncation
    EXPECT_EQ(eval("-7 % 2"), -1);
    EXPECT_EQ(eval("M*N*K"), 6000000);
    auto e = parse_size_expr(" cdiv( N , 128 ) ");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->text(), "cdiv(N,128)");
}

TEST(SizeExpr, ParseErrorsNameTheTextAndPosition) {
    EXPECT_EQ(eval_error("cdiv(N)"), "'cdiv(N)': expected ',' in cdiv(a, b) at position 7");
    EXPECT_EQ(eval_error("M +"),
              "'M +': expected a number, M, N, K, cdiv, min, max or '(' but the text ends at "
              "position 4");
    EXPECT_NE(eval_error("X * 2").find("unknown name 'X'"), std::string::npos);
    EXPECT_NE(eval_error("m").find("unknown name 'm'"), std::string::npos);
    EXPECT_NE(eval_error("99999999999999999999").find("number too large"), std::string::npos);
    EXPECT_NE(eval_error("M )").find("unexpected ')'"), std::string::npos);
    EXPECT_NE(eval_error("").find("text ends"), std::string::npos);
    EXPECT_NE(eval_error("M $ 2").find("unexpected '$'"), std::string::npos);
    EXPECT_NE(eval_error(std::string(100, '(') + "1" + std::string(100, ')')).find("too deeply"),
              std::string::npos);
}

TEST(SizeExpr, EvaluationErrorsNameTheSizes) {
    EXPECT_EQ(eval_error("N / (M - M)"), "N/(M-M): division by zero at M=300 N=200 K=100");
    EXPECT_EQ(eval_error("cdiv(N, K - 100)"),
              "cdiv(N,K-100): cdiv needs a divisor >= 1 at M=300 N=200 K=100");
    EXPECT_NE(eval_error("M*M*M*M*M*M*M*M", {65536, 1, 1}).find("overflows 64-bit integers"),
              std::string::npos);
}

TEST(LaunchDirective, TheIssueExample) {
    const std::string line =
        "// tclens: grid=(cdiv(N,128), cdiv(M,128)) block=256 smem=49152 type=bf16";
    EXPECT_TRUE(is_directive_line(line));
    auto d = parse_launch_directive(line, 7);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->line, 7);
    EXPECT_TRUE(d->has_launch());
    EXPECT_EQ(d->type, Precision::kBF16);
    auto g = launch_geometry(*d, {4096, 1024, 64}, LaunchLimits{});
    ASSERT_TRUE(g) << g.error();
    EXPECT_EQ(g->grid, (std::array<std::int64_t, 3>{8, 32, 1}));
    EXPECT_EQ(g->block, (std::array<std::int64_t, 3>{256, 1, 1}));
    EXPECT_EQ(g->smem, 49152);
}

TEST(LaunchDirective, ConstantPartsAndTheLaunchAsText) {
    auto d = parse_launch_directive("// tclens: grid=(cdiv(N,64), M) block=(32,8) smem=4096", 1);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->block[0].constant(), 32);
    EXPECT_EQ(d->grid[0].constant(), std::nullopt);
    EXPECT_EQ(d->smem.constant(), 4096);
    EXPECT_EQ(constant_threads(*d), 256);
    auto g = launch_geometry(*d, {96, 640, 64}, LaunchLimits{});
    ASSERT_TRUE(g) << g.error();
    EXPECT_EQ(launch_geometry_text(*g),
              "grid (10,96,1) x block (32,8,1), 4096 B dynamic shared memory");
    auto by_size = parse_launch_directive("// tclens: grid=1 block=(N,1)", 1);
    ASSERT_TRUE(by_size) << by_size.error();
    EXPECT_EQ(constant_threads(*by_size), 0);
    EXPECT_EQ(launch_geometry_text(*launch_geometry(*by_size, {8, 64, 8}, LaunchLimits{})),
              "grid (1,1,1) x block (64,1,1)");
}

TEST(LaunchDirective, OtherKeys) {
    auto d = parse_launch_directive(
        "  //tclens: kernel=ns::k grid=(N/16,M/16,2) block=(16, 16) include=../x", 1);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->kernel, "ns::k");
    EXPECT_EQ(d->include, "../x");
    auto g = launch_geometry(*d, {64, 32, 8}, LaunchLimits{});
    ASSERT_TRUE(g);
    EXPECT_EQ(g->grid, (std::array<std::int64_t, 3>{2, 4, 2}));
    EXPECT_EQ(g->block, (std::array<std::int64_t, 3>{16, 16, 1}));
    auto typed = parse_launch_directive("// tclens: type=tf32", 2);
    ASSERT_TRUE(typed);
    EXPECT_FALSE(typed->has_launch());
    auto exercise = parse_launch_directive("// tclens: exercise=mma.m16n8k4.tf32", 3);
    ASSERT_TRUE(exercise);
    EXPECT_EQ(exercise->exercise, "mma.m16n8k4.tf32");
    // A parenthesised expression that is not a tuple.
    auto expr = parse_launch_directive("// tclens: grid=(N)/(2) block=1", 4);
    ASSERT_TRUE(expr) << expr.error();
    EXPECT_EQ(launch_geometry(*expr, {1, 64, 1}, LaunchLimits{})->grid[0], 32);
}

TEST(LaunchDirective, MalformedDirectivesAreOneLine) {
    auto error = [](const std::string& line) {
        auto d = parse_launch_directive(line, 3);
        return d ? std::string() : d.error();
    };
    EXPECT_EQ(error("// tclens: grd=1 block=1"),
              "line 3: tclens directive: unknown key 'grd' (keys: grid, block, smem, type, "
              "kernel, exercise, include)");
    EXPECT_EQ(error("// tclens: grid=1 grid=2 block=1"),
              "line 3: tclens directive: grid= given twice");
    EXPECT_EQ(error("// tclens: grid=1"), "line 3: tclens directive: grid= needs block= too");
    EXPECT_EQ(error("// tclens: block=1"), "line 3: tclens directive: block= needs grid= too");
    EXPECT_EQ(error("// tclens: smem=1024"),
              "line 3: tclens directive: smem= needs grid= and block=");
    EXPECT_EQ(error("// tclens: grid=1 block=1 type=f64"),
              "line 3: tclens directive: type 'f64' is not one of f32, tf32, f16, bf16");
    EXPECT_EQ(error("// tclens:"),
              "line 3: tclens directive: no keys (keys: grid, block, smem, type, kernel, "
              "exercise, include)");
    EXPECT_EQ(error("// tclens: grid"), "line 3: tclens directive: 'grid' is not KEY=VALUE");
    EXPECT_EQ(error("// tclens: grid= block=1"), "line 3: tclens directive: grid= has no value");
    EXPECT_EQ(error("// tclens: grid=(1,2 block=1"), "line 3: tclens directive: '(' without ')'");
    EXPECT_EQ(error("// tclens: grid=1) block=1"), "line 3: tclens directive: ')' without '('");
    EXPECT_EQ(error("// tclens: grid=(1,2,3,4) block=1"),
              "line 3: tclens directive: grid: at most 3 dimensions (x, y, z)");
    EXPECT_EQ(error("// tclens: kernel=9k"),
              "line 3: tclens directive: kernel '9k' is not a function name");
    EXPECT_NE(error("// tclens: grid=N/ block=1").find("grid: 'N/'"), std::string::npos);
    EXPECT_FALSE(is_directive_line("// tclens grid=1"));
    EXPECT_FALSE(is_directive_line("/* tclens: grid=1 block=1 */"));
    EXPECT_FALSE(is_directive_line("int x; // tclens: grid=1 block=1"));
}

TEST(LaunchDirective, FoundWithTheirLineNumbers) {
    const std::string source =
        "#include <x>\n// tclens: grid=1 block=32 kernel=a\r\n__global__ void a();\n"
        "\n  // tclens: type=f16\n";
    auto found = find_launch_directives(source);
    ASSERT_TRUE(found) << found.error();
    ASSERT_EQ(found->size(), 2u);
    EXPECT_EQ((*found)[0].line, 2);
    EXPECT_EQ((*found)[0].kernel, "a");
    EXPECT_EQ((*found)[1].line, 5);
    auto bad = find_launch_directives("\n\n// tclens: grid=x block=1\n");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().rfind("line 3: tclens directive: grid: ", 0), 0u) << bad.error();
}

TEST(LaunchDirective, SizesItCannotLaunch) {
    auto d =
        parse_launch_directive("// tclens: grid=(cdiv(N,128), cdiv(M,128)) block=(32,32,Q)", 1);
    EXPECT_FALSE(d);  // Q is no size
    auto wide = *parse_launch_directive(
        "// tclens: grid=(cdiv(N,128), cdiv(M,128)) block=(32,K) smem=M*4", 1);
    LaunchLimits h100;
    h100.max_dynamic_smem = 232448;
    EXPECT_EQ(launch_geometry(wide, {8960000, 128, 8}, h100).error(),
              "grid.y = cdiv(M,128) = 70000 at M=8960000 N=128 K=8: must be 1..65535");
    EXPECT_EQ(launch_geometry(wide, {128, 128, 64}, h100).error(),
              "block = (32,64,1): 2048 threads, at most 1024");
    EXPECT_EQ(launch_geometry(wide, {128, 128, 0}, h100).error(),
              "block.y = K = 0 at M=128 N=128 K=0: must be 1..1024");
    EXPECT_EQ(launch_geometry(wide, {65536, 128, 8}, h100).error(),
              "smem = M*4 = 262144 bytes at M=65536 N=128 K=8: this GPU allows 0..232448");
    EXPECT_TRUE(launch_geometry(wide, {128, 128, 8}, h100));
}

}  // namespace
}  // namespace tclens::kernels::user
