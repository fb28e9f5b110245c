// compile_user_kernel on the CPU: every example compiles (NVRTC in-process, nvcc for host
// launchers and exercises) and every bad input that needs no GPU is one line.
// CI has nvcc and NVRTC but no GPU; loading and running are tests/gpu/kernels/user_kernel_test.
#include "kernels/user/user_kernel.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kernels/user/nvcc_build.h"
#include "kernels/user/work_dir.h"

namespace tclens::kernels::user {
namespace {

const std::string kExamples = TCLENS_EXAMPLES_DIR;

CompileOptions for_h100() {
    CompileOptions options;
    options.sm = 90;  // no GPU here: build for an H100
    return options;
}

common::Expected<CompiledKernel> compile_example(const std::string& name,
                                                 const std::string& suffix = "") {
    auto ref = parse_kernel_ref(kExamples + "/" + name + suffix);
    EXPECT_TRUE(ref) << ref.error();
    return compile_user_kernel(*ref, for_h100());
}

std::string compile_error(const std::string& source, const std::string& name = "bad.cu",
                          CompileOptions options = for_h100()) {
    auto compiled = compile_user_source(source, name, *parse_kernel_ref(name), options);
    return compiled ? "(compiled)" : compiled.error();
}

bool have_nvcc() { return !find_nvcc("").empty(); }

TEST(UserKernelCompile, DirectiveExampleWithNvrtc) {
    auto c = compile_example("directive_gemm.cu");
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->discovered.form, KernelForm::kDirectiveKernel);
    EXPECT_EQ(c->id, "yours.directive_gemm");
    EXPECT_EQ(c->arch, "sm_90a");
    EXPECT_EQ(c->discovered.precision, Precision::kBF16);
    EXPECT_FALSE(c->cubin.empty());
    EXPECT_NE(c->lowered_name.find("tiled_bf16_gemm"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(c->cubin_path));
    EXPECT_GT(c->compile_seconds, 0.0);
    EXPECT_EQ(c->warnings, "");
    // The work folder goes with the last owner.
    const std::string folder = c->work->path();
    c = common::Expected<CompiledKernel>::failure("dropped");
    EXPECT_FALSE(std::filesystem::exists(folder));
}

TEST(UserKernelCompile, OtherArchitectures) {
    CompileOptions ampere;
    ampere.sm = 80;
    auto ref = parse_kernel_ref(kExamples + "/directive_gemm.cu");
    auto c = compile_user_kernel(*ref, ampere);
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->arch, "sm_80");
}

TEST(UserKernelCompile, DeliberatelyWrongExamplesStillCompile) {
    for (const char* name : {"wrong_block_offset.cu", "out_of_bounds.cu"}) {
        auto c = compile_example(name);
        EXPECT_TRUE(c) << name << ": " << c.error();
    }
}

TEST(UserKernelCompile, HostLauncherExampleWithNvcc) {
    if (!have_nvcc()) GTEST_SKIP() << "skipped: no nvcc";
    auto c = compile_example("matmul_tensor.cu");
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->discovered.form, KernelForm::kHostLauncher);
    EXPECT_EQ(c->discovered.precision, Precision::kTF32);
    EXPECT_EQ(c->discovered.workspace_size, "matmul_tensor::get_workspace_size");
    EXPECT_TRUE(std::filesystem::exists(c->library_path));
    EXPECT_TRUE(std::filesystem::exists(c->cubin_path)) << c->cubin_path;
}

TEST(UserKernelCompile, ExerciseExamplesWithNvcc) {
    if (!have_nvcc()) GTEST_SKIP() << "skipped: no nvcc";
    for (const char* name : {"exercise_mma.cu", "exercise_mma_planted_bug.cu"}) {
        auto c = compile_example(name);
        ASSERT_TRUE(c) << name << ": " << c.error();
        EXPECT_EQ(c->discovered.form, KernelForm::kFragmentExercise);
        EXPECT_EQ(c->discovered.exercise_layout, "mma.m16n8k8.tf32");
        EXPECT_TRUE(std::filesystem::exists(c->library_path));
    }
}

TEST(UserKernelCompile, RungCopyIncludesFromTheFolderAbove) {
    if (!have_nvcc()) GTEST_SKIP() << "skipped: no nvcc";
    auto c = compile_example("rung8_copy.cu");
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->discovered.precision, Precision::kBF16);
    EXPECT_EQ(c->discovered.directive.include, "..");
}

TEST(UserKernelCompile, MissingFolderEmptyAndBinaryFiles) {
    auto missing = compile_user_kernel(*parse_kernel_ref("/nonexistent/x.cu"), for_h100());
    EXPECT_EQ(missing.error(), "kernel file '/nonexistent/x.cu' does not exist");
    const std::string folder = testing::TempDir() + "/folder.cu";
    std::filesystem::create_directories(folder);
    EXPECT_EQ(compile_user_kernel(*parse_kernel_ref(folder), for_h100()).error(),
              "kernel file '" + folder + "' is a folder, not a .cu file");
    EXPECT_EQ(compile_error(""), "bad.cu: the file is empty");
    EXPECT_EQ(compile_error(std::string("\x7f"
                                        "ELF\x02\x01\x01\0\0\0",
                                        10)),
              "bad.cu: not a CUDA source (binary data: a NUL byte at offset 7)");
    EXPECT_EQ(compile_error("import numpy as np\nprint(np.ones(3))\n")
                  .rfind("bad.cu: no launcher found", 0),
              0u);
}

TEST(UserKernelCompile, UnreadableFile) {
    if (geteuid() == 0) GTEST_SKIP() << "skipped: running as root, every file is readable";
    const std::string path = testing::TempDir() + "/unreadable.cu";
    std::ofstream(path) << "void f() {}";
    std::filesystem::permissions(path, std::filesystem::perms::none);
    const std::string error = compile_user_kernel(*parse_kernel_ref(path), for_h100()).error();
    EXPECT_EQ(error.rfind("kernel file '" + path + "' cannot be read", 0), 0u) << error;
    std::filesystem::remove(path);
}

TEST(UserKernelCompile, NvrtcErrorsAreTheUsersFileAndLine) {
    const std::string source =
        "// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)\n"
        "__global__ void k(int M, int N, int K, const float* A, const float* B, float* C) {\n"
        "    C[0] = A[0] + undefined_thing;\n"
        "    C[1] = also_undefined;\n"
        "}\n";
    EXPECT_EQ(compile_error(source, "dir/bad.cu"),
              "dir/bad.cu:3: error: identifier \"undefined_thing\" is undefined (and 1 more "
              "error)");
    // Host code in a directive kernel's file: NVRTC's line, with what to do about it.
    const std::string host =
        compile_error("#include <vector>\n" + source.substr(0, source.find("    C[0]")) + "}\n");
    EXPECT_EQ(host,
              "bad.cu:1: catastrophic error: cannot open source file \"vector\" (NVRTC compiles "
              "device code only: wrap host code in #ifndef __CUDACC_RTC__, or write a host "
              "launcher)");
    // NVRTC's built-in <cstdint>.
    EXPECT_EQ(compile_error("#include <cstdint>\n#include <cstddef>\n" +
                            source.substr(0, source.find("    C[0]")) +
                            "    std::int64_t i = 0; size_t j = 0; C[i + j] = 1; }\n"),
              "(compiled)");
}

TEST(UserKernelCompile, NvccErrorsAreTheUsersFileAndLineNeverTheShims) {
    if (!have_nvcc()) GTEST_SKIP() << "skipped: no nvcc";
    const std::string bad =
        "#include <cstdint>\n"
        "void launch(int M, int N, int K, const float* A, const float* B, float* C) {\n"
        "    int x = undefined_thing;\n"
        "}\n";
    const std::string error = compile_error(bad, "lab/bad.cu");
    EXPECT_EQ(error, "lab/bad.cu:3: error: identifier \"undefined_thing\" is undefined");
    EXPECT_EQ(error.find("tclens_shim"), std::string::npos);
    // A function declared but never defined: the linker's line (-z defs), not a load failure.
    const std::string undefined = compile_error(
        "void helper();\n"
        "void launch(int M, int N, int K, const float* A, const float* B, float* C) { helper(); "
        "}\n");
    EXPECT_NE(undefined.find("undefined reference to `helper()'"), std::string::npos) << undefined;
    // Wrong inline PTX: ptxas's line.
    const std::string ptx = compile_error(
        "__global__ void k(float* c) { asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32."
        "tf32.f32 {%0}, {%0}, {%0}, {%0};\" : \"+f\"(c[0])); }\n"
        "void launch(int M, int N, int K, const float* A, const float* B, float* C) { "
        "k<<<1, 32>>>(C); }\n");
    EXPECT_NE(ptx.find("ptxas"), std::string::npos) << ptx;
    EXPECT_EQ(ptx.find("tclens_shim.cu"), std::string::npos) << ptx;
}

TEST(UserKernelCompile, NoNvccIsOneLine) {
    CompileOptions options = for_h100();
    options.nvcc = "/nonexistent/nvcc";
    EXPECT_EQ(compile_error("void launch(int M, int N, int K, const float* A, const float* B, "
                            "float* C) {}",
                            "bad.cu", options),
              "bad.cu is a host launcher: building it needs the CUDA toolkit's nvcc, which was "
              "not found at '/nonexistent/nvcc'");
}

TEST(UserKernelCompile, DiscoveryAndDirectiveErrorsComeFirst) {
    EXPECT_EQ(compile_error("// tclens: grid=(N/16 block=1\n__global__ void k() {}"),
              "bad.cu: line 1: tclens directive: '(' without ')'");
    EXPECT_EQ(compile_error("__global__ void k(int M, int N, int K, const float* A, const "
                            "float* B, float* C) {}"),
              "bad.cu:1: kernel 'k' has no launch directive: add a line such as // tclens: "
              "grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)");
}

}  // namespace
}  // namespace tclens::kernels::user
