#include "kernels/user/discovery.h"

#include <gtest/gtest.h>

namespace tclens::kernels::user {
namespace {

common::Expected<Discovered> discover(const std::string& source, const std::string& ref = "k.cu") {
    return discover_kernel(source, "k.cu", *parse_kernel_ref(ref));
}

std::string error_of(const std::string& source, const std::string& ref = "k.cu") {
    auto d = discover(source, ref);
    return d ? "(found " + d->function.qualified + ")" : d.error();
}

const char* const kLab6 = R"(#include <cstdint>
namespace matmul_tensor {
__global__ void kernel(int32_t size_i, int32_t size_j, int32_t size_k, float const *a,
                       float const *b, float *c) { asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"); }
size_t get_workspace_size(int32_t size_i, int32_t size_j, int32_t size_k) { return 0; }
void launch_matmul_tensor(int32_t size_i, int32_t size_j, int32_t size_k, float const *a,
                          float const *b, float *c, void *workspace) { }
}
int main(int argc, char **argv) { return 0; }
)";

TEST(Discovery, Lab6HostLauncherWithWorkspace) {
    auto d = discover(kLab6);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->form, KernelForm::kHostLauncher);
    EXPECT_EQ(d->function.qualified, "matmul_tensor::launch_matmul_tensor");
    EXPECT_TRUE(d->signature.workspace);
    EXPECT_FALSE(d->signature.pointers_first);
    EXPECT_EQ(d->signature.element, Precision::kF32);
    EXPECT_EQ(d->precision, Precision::kTF32);  // the file mentions tf32
    EXPECT_EQ(d->workspace_size, "matmul_tensor::get_workspace_size");
}

TEST(Discovery, FloatIsF32UnlessTheFileOrRefSaysTf32) {
    const std::string plain =
        "void launch(int M, int N, int K, const float* A, const float* B, float* C) {}";
    EXPECT_EQ(discover(plain)->precision, Precision::kF32);
    EXPECT_EQ(discover(plain, "k.cu:tf32")->precision, Precision::kTF32);
    EXPECT_EQ(discover("// tclens: type=tf32\n" + plain)->precision, Precision::kTF32);
    EXPECT_EQ(discover(kLab6, "k.cu:f32")->precision, Precision::kF32);
    EXPECT_EQ(error_of(plain, "k.cu:bf16"),
              "k.cu:1: the kernel ref's type is bf16 but A and B are float: use f32 or tf32");
    EXPECT_EQ(error_of("// tclens: type=f16\n" + plain),
              "k.cu:2: the directive's type= is f16 but A and B are float: use f32 or tf32");
}

TEST(Discovery, SixteenBitPointersFirstAndWideSizes) {
    auto d = discover(
        "#include <cuda_bf16.h>\nvoid gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, "
        "float* C, std::int64_t M, size_t N, unsigned K) {}");
    ASSERT_TRUE(d) << d.error();
    EXPECT_TRUE(d->signature.pointers_first);
    EXPECT_EQ(d->precision, Precision::kBF16);
    EXPECT_EQ(d->signature.params,
              (std::vector<ParamKind>{ParamKind::kPointer, ParamKind::kPointer, ParamKind::kPointer,
                                      ParamKind::kInt64, ParamKind::kInt64, ParamKind::kInt32}));
    EXPECT_EQ(discover("void g(int M, int N, int K, half* A, half* B, float* C) {}")->precision,
              Precision::kF16);
    EXPECT_EQ(error_of("void g(int M, int N, int K, half* A, half* B, float* C) {}", "k.cu:bf16"),
              "k.cu:1: the kernel ref's type is bf16 but A and B are __half (f16)");
}

TEST(Discovery, DirectiveKernel) {
    const std::string source =
        "// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)\n"
        "__global__ void k(int M, int N, int K, const __half* A, const __half* B, float* C) {}\n"
        "__global__ void other(float* x) {}\n";
    auto d = discover(source);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->form, KernelForm::kDirectiveKernel);
    EXPECT_EQ(d->function.name, "k");
    EXPECT_EQ(d->precision, Precision::kF16);
    EXPECT_EQ(d->directive.line, 1);
    EXPECT_EQ(d->directive.grid[0].text(), "cdiv(N,16)");
}

TEST(Discovery, DirectivesNamingTheirKernels) {
    const std::string source =
        "// tclens: grid=1 block=32 kernel=a\n"
        "// tclens: grid=2 block=64 kernel=b\n"
        "__global__ void a(int M, int N, int K, const float* A, const float* B, float* C) {}\n"
        "__global__ void b(int M, int N, int K, const float* A, const float* B, float* C) {}\n";
    EXPECT_EQ(error_of(source), "k.cu: 2 candidates: a (line 3), b (line 4); name one as k.cu:a");
    auto b = discover(source, "k.cu:b");
    ASSERT_TRUE(b) << b.error();
    EXPECT_EQ(b->directive.line, 2);
    EXPECT_EQ(error_of("// tclens: grid=1 block=32\n// tclens: grid=2 block=32\n" +
                       source.substr(source.find("__global__"))),
              "k.cu: 2 tclens directives (lines 1 and 2) and none says kernel=NAME; give each "
              "its kernel=");
    EXPECT_EQ(error_of("// tclens: grid=1 block=32 kernel=zz\n" +
                       source.substr(source.find("__global__"))),
              "k.cu: the directive on line 1 launches no __global__ kernel 'zz' with an accepted "
              "signature ((M, N, K, const T* A, const T* B, float* C) or (const T* A, const T* "
              "B, float* C, M, N, K) with T float, __half or __nv_bfloat16 and M, N, K "
              "integers)");
}

TEST(Discovery, KernelWithoutDirective) {
    EXPECT_EQ(error_of("\n__global__ void k(int M, int N, int K, const float* A, const float* "
                       "B, float* C) {}"),
              "k.cu:2: kernel 'k' has no launch directive: add a line such as // tclens: "
              "grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)");
    EXPECT_EQ(error_of("__global__ void k(int M, int N, int K, const float* A, const float* "
                       "B, float* C) {}",
                       "k.cu:k"),
              "k.cu:1: kernel 'k' has no launch directive: add a line such as // tclens: "
              "grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)");
}

TEST(Discovery, Exercises) {
    auto lab = discover(
        "__global__ void mma_16x8x8_kernel(float const *a, float const *b, float *c) {}\n"
        "int main() { return 0; }");
    ASSERT_TRUE(lab) << lab.error();
    EXPECT_EQ(lab->form, KernelForm::kFragmentExercise);
    EXPECT_EQ(lab->exercise_layout, "mma.m16n8k8.tf32");
    auto k4 = discover(
        "__global__ void e(const float* a, const float* b, float* c) { "
        "asm(\"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32\"); }");
    EXPECT_EQ(k4->exercise_layout, "mma.m16n8k4.tf32");
    auto half = discover("__global__ void e(const __half* a, const __half* b, float* c) {}");
    EXPECT_EQ(half->exercise_layout, "mma.m16n8k16.f16");
    EXPECT_EQ(half->precision, Precision::kF16);
    auto named = discover(
        "// tclens: exercise=mma.m16n8k8.f16\n"
        "__global__ void e(const __half* a, const __half* b, float* c) {}");
    EXPECT_EQ(named->exercise_layout, "mma.m16n8k8.f16");
    EXPECT_EQ(error_of("// tclens: exercise=mma.m16n8k8.f16\n"
                       "__global__ void e(const float* a, const float* b, float* c) {}"),
              "k.cu:1: exercise mma.m16n8k8.f16 does not read float inputs");
    EXPECT_EQ(error_of("// tclens: exercise=wgmma.m64n8k16.f16\n"
                       "__global__ void e(const __half* a, const __half* b, float* c) {}"),
              "k.cu:1: exercise 'wgmma.m64n8k16.f16' is not one tclens runs (mma.m16n8k8.tf32, "
              "mma.m16n8k4.tf32, mma.m16n8k16.f16, mma.m16n8k8.f16, mma.m16n8k16.bf16)");
}

TEST(Discovery, NoLauncherOrTwoCandidates) {
    EXPECT_EQ(error_of("__device__ float f(float x) { return x; }\nint main() { return 0; }"),
              "k.cu: no launcher found: expected a host function (M, N, K, const T* A, const T* "
              "B, float* C) or (const T* A, const T* B, float* C, M, N, K) with T float, __half "
              "or __nv_bfloat16 and M, N, K integers, a __global__ kernel with a // tclens: "
              "launch directive, or a one-warp exercise __global__ (const float* a, const float* "
              "b, float* c)");
    EXPECT_EQ(error_of("print('hello')\n"), error_of("int x = 1;"));
    const std::string two =
        "void launch_a(int M, int N, int K, const float* A, const float* B, float* C) {}\n"
        "\n"
        "void launch_b(int M, int N, int K, const float* A, const float* B, float* C) {}\n";
    EXPECT_EQ(error_of(two),
              "k.cu: 2 candidates: launch_a (line 1), launch_b (line 3); name one as "
              "k.cu:launch_a");
    EXPECT_EQ(discover(two, "k.cu:launch_b")->function.name, "launch_b");
}

TEST(Discovery, SignaturesThatAreNotAccepted) {
    EXPECT_EQ(error_of("void launch_gemm(int M, int N, int K, const double* A, const double* B, "
                       "double* C) {}"),
              "k.cu:1: void launch_gemm(int M, int N, int K, const double * A, const double * B, "
              "double * C) is not an accepted signature: parameter 4 'const double * A' must be "
              "const float*, const __half* or const __nv_bfloat16* (A)");
    EXPECT_NE(error_of("void launch(int M, int N, int K, const float* A, const float* B, const "
                       "float* C) {}")
                  .find("parameter 6 'const float * C' must be float* (C, written by the kernel)"),
              std::string::npos);
    EXPECT_NE(error_of("void launch(int M, int N, int K, const float* A, const __half* B, float* "
                       "C) {}")
                  .find("A is float but B is __half; both must have one type"),
              std::string::npos);
    EXPECT_NE(error_of("void launch(int M, int N, const float* A, const float* B, float* C) {}")
                  .find("it takes 5 parameters; expected"),
              std::string::npos);
    EXPECT_NE(error_of("void launch(float M, int N, int K, const float* A, const float* B, float* "
                       "C) {}")
                  .find("parameter 1 'float M' must be an integer (M)"),
              std::string::npos);
    EXPECT_NE(error_of("void launch(int M, int N, int K, const float* A, const float* B, float* "
                       "C, int* w) {}")
                  .find("parameter 7 'int * w' must be void* (the workspace)"),
              std::string::npos);
    EXPECT_EQ(error_of("void launch(int M, int N, int K, const float* A, const float* B, float* "
                       "C, void* w) {}"),
              "k.cu:1: launch takes a workspace, but the file has no get_workspace_size(M, N, K) "
              "to say how large");
    // A __global__ kernel alone, with the wrong parameters.
    EXPECT_NE(error_of("__global__ void k(double* x) {}")
                  .find("k.cu:1: void k(double * x) is not an accepted signature"),
              std::string::npos);
}

// Found by fuzz_kernel_discovery: the parameter an error names is quoted in one line, cut, even
// when its tokens hold a string literal continued over a line.
TEST(Discovery, TheParameterAnErrorQuotesIsOneShortLine) {
    const std::string error = error_of(
        "void launch_gemm(int M, \"a\\\nb\" x, int K, const float* A, const float* B, "
        "float* C) {}");
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_NE(error.find("parameter 2 '\"a\\ b\" x' must be an integer (N)"), std::string::npos)
        << error;
    const std::string wide = error_of("void launch_gemm(int M, " + std::string(200, 'n') +
                                      " N, int K, const float* A, const float* B, float* C) {}");
    EXPECT_NE(wide.find("parameter 2 '" + std::string(80, 'n') + "...' must be"), std::string::npos)
        << wide;
}

TEST(Discovery, NamedFunctions) {
    EXPECT_EQ(error_of(kLab6, "k.cu:nope"),
              "k.cu: no function 'nope' (functions: matmul_tensor::kernel, "
              "matmul_tensor::get_workspace_size, matmul_tensor::launch_matmul_tensor, main)");
    EXPECT_EQ(discover(kLab6, "k.cu:matmul_tensor::launch_matmul_tensor")->function.name,
              "launch_matmul_tensor");
    EXPECT_NE(error_of(kLab6, "k.cu:main")
                  .find("int main(int argc, char * * argv) is not an "
                        "accepted signature"),
              std::string::npos);
    EXPECT_EQ(error_of("void f(int) {}\nvoid f(float) {}", "k.cu:f"),
              "k.cu: 'f' is overloaded: f (line 1), f (line 2); tclens needs exactly one "
              "definition");
    EXPECT_EQ(error_of("namespace a { void f() {} }\nnamespace b { void f() {} }", "k.cu:f"),
              "k.cu: 'f' is ambiguous: a::f (line 1), b::f (line 2); qualify it (ns::name)");
    EXPECT_EQ(error_of("template <class T> void launch(int M, int N, int K, const T* A, const T* "
                       "B, float* C) {}",
                       "k.cu:launch"),
              "k.cu:1: launch is a template; tclens runs a plain function (instantiate it in a "
              "small non-template launcher)");
    EXPECT_EQ(error_of("__device__ void d() {}", "k.cu:d"),
              "k.cu:1: d is a __device__ function; tclens runs a host launcher or a __global__ "
              "kernel");
    EXPECT_EQ(error_of("template <class T> void launch(int M, int N, int K, const T* A, const T* "
                       "B, float* C) {}"),
              "k.cu:1: launch is a template; tclens runs a plain function (instantiate it in a "
              "small non-template launcher)");
}

TEST(Discovery, MalformedDirectiveIsReportedWithTheFile) {
    EXPECT_EQ(error_of("// tclens: grid=1\nvoid f() {}"),
              "k.cu: line 1: tclens directive: grid= needs block= too");
}

// Found by fuzz_kernel_discovery: a name one character longer than the one asked for made the
// "ends in ::name" test compare from before the string's start (std::out_of_range).
TEST(Discovery, ANameOneLongerThanTheAskedOneIsNoMatchNotACrash) {
    const std::string source = "__device__ float ftalo(float x) { return x; }\n";
    EXPECT_NE(error_of(source, "k.cu:nope").find("nope"), std::string::npos)
        << error_of(source, "k.cu:nope");
}

}  // namespace
}  // namespace tclens::kernels::user
