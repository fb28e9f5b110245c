#include "kernels/user/source_scan.h"

#include <gtest/gtest.h>

namespace tclens::kernels::user {
namespace {

const ScannedFunction* find(const SourceScan& scan, const std::string& qualified) {
    for (const ScannedFunction& f : scan.functions) {
        if (f.qualified == qualified) return &f;
    }
    return nullptr;
}

TEST(SourceScan, FunctionsNamespacesAndSpaces) {
    const std::string source = R"(#include <cstdint>
#define LAUNCH(x) void x(int)   // a macro: not seen
/* void commented_out(int M) { } */
// void also_commented(int M) { }
namespace outer {
namespace inner {
__global__ void __launch_bounds__(256) kern(int M, const float* __restrict__ A) {
    const char* s = "void in_string(int) { }";
    if (M) { A += 1; }
}
}  // namespace inner
void declared_only(int M);
struct Helper {
    void member(int x) { }
};
template <typename T>
void templ(T* x) { }
static size_t get_workspace_size(int32_t i, int32_t j, int32_t k) { return 0; }
}  // namespace outer
namespace {
__device__ float helper(float x) { return x; }
}
namespace a::b {
void launch_matmul_tensor(int32_t size_i, std::size_t size_j, long long size_k, float const *a,
                          float const *b, float *c, void *workspace) { }
}
extern "C" void c_entry(unsigned int n) { }
extern "C" {
__host__ __device__ int both(int) { return 0; }
}
int main(int argc, char** argv) { return 0; }
)";
    const SourceScan scan = scan_source(source);
    std::vector<std::string> names;
    for (const ScannedFunction& f : scan.functions) names.push_back(f.qualified);
    EXPECT_EQ(names, (std::vector<std::string>{
                         "outer::inner::kern", "outer::templ", "outer::get_workspace_size",
                         "helper", "a::b::launch_matmul_tensor", "c_entry", "both", "main"}));
    const ScannedFunction* kern = find(scan, "outer::inner::kern");
    ASSERT_NE(kern, nullptr);
    EXPECT_EQ(kern->space, FunctionSpace::kGlobal);
    EXPECT_EQ(kern->line, 7);
    EXPECT_EQ(kern->result, "void");
    ASSERT_EQ(kern->params.size(), 2u);
    EXPECT_EQ(kern->params[0].type, "int");
    EXPECT_EQ(kern->params[0].name, "M");
    EXPECT_EQ(kern->params[1].type, "const float * __restrict__");
    EXPECT_EQ(kern->params[1].name, "A");
    EXPECT_TRUE(find(scan, "outer::templ")->is_template);
    EXPECT_TRUE(find(scan, "outer::get_workspace_size")->is_static);
    EXPECT_EQ(find(scan, "outer::get_workspace_size")->result, "size_t");
    EXPECT_EQ(find(scan, "helper")->space, FunctionSpace::kDevice);
    EXPECT_EQ(find(scan, "both")->space, FunctionSpace::kHost);
    const ScannedFunction* launch = find(scan, "a::b::launch_matmul_tensor");
    ASSERT_NE(launch, nullptr);
    ASSERT_EQ(launch->params.size(), 7u);
    EXPECT_EQ(launch->params[1].type, "std::size_t");
    EXPECT_EQ(launch->params[2].type, "long long");
    EXPECT_EQ(launch->params[3].type, "float const *");
    EXPECT_EQ(launch->params[6].type, "void *");
    EXPECT_EQ(launch->line, 24);
    EXPECT_EQ(find(scan, "c_entry")->result, "void");
    EXPECT_EQ(find(scan, "c_entry")->params[0].type, "unsigned int");
    EXPECT_EQ(find(scan, "c_entry")->params[0].name, "n");
    EXPECT_EQ(find(scan, "both")->params[0].name, "");
    EXPECT_EQ(signature_text(*find(scan, "c_entry")), "void c_entry(unsigned int n)");
    EXPECT_FALSE(scan.mentions_tf32);
}

// Found by fuzz_kernel_discovery: a string literal continued over a line inside a parameter list
// put a newline into the error line that quotes the signature.
TEST(SourceScan, TheSignatureTextIsOneShortLine) {
    const SourceScan scan = scan_source("void launch_gemm(int M, \"a\\\nb\" x) {}\n");
    const ScannedFunction* launch = find(scan, "launch_gemm");
    ASSERT_NE(launch, nullptr);
    const std::string text = signature_text(*launch);
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    EXPECT_EQ(text.rfind("void launch_gemm(int M, ", 0), 0u) << text;

    ScannedFunction wide = *launch;
    wide.params.assign(40, ScannedParam{"const float *", "pointer"});
    const std::string cut = signature_text(wide);
    EXPECT_EQ(cut.size(), 163u);
    EXPECT_EQ(cut.substr(160), "...");
}

TEST(SourceScan, Tf32AndMmaShapesOutsideComments) {
    const SourceScan code = scan_source(
        "__global__ void k() { asm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 ...\"); "
        "asm(\"mma.sync.aligned.m16n8k16.row.col\"); }");
    EXPECT_TRUE(code.mentions_tf32);
    EXPECT_EQ(code.mma_shapes, (std::vector<std::string>{"m16n8k8", "m16n8k16"}));
    const SourceScan comment = scan_source("// uses tf32 m16n8k8\n/* tf32 */ void f() {}");
    EXPECT_FALSE(comment.mentions_tf32);
    EXPECT_TRUE(comment.mma_shapes.empty());
    EXPECT_TRUE(scan_source("#define USE_TF32 1\n").mentions_tf32);
}

TEST(SourceScan, SurvivesUnbalancedAndOddText) {
    EXPECT_TRUE(scan_source("}}} void f(int) { ").functions.size() <= 1);
    EXPECT_TRUE(scan_source("\"unterminated\n void g(int x) {}").functions.size() <= 1);
    EXPECT_TRUE(scan_source("R\"x(never closed").functions.empty());
    EXPECT_TRUE(scan_source("/* never closed").functions.empty());
    const SourceScan raw = scan_source("const char* s = R\"(void fake(int) {})\";\nvoid real() {}");
    ASSERT_EQ(raw.functions.size(), 1u);
    EXPECT_EQ(raw.functions[0].name, "real");
    EXPECT_EQ(raw.functions[0].line, 2);
}

}  // namespace
}  // namespace tclens::kernels::user
