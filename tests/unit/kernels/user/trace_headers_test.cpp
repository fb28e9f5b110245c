// The trace points of kernels of yours without a GPU (kernels/user_trace.cuh,
// kernels/user/trace_headers.h): the headers built into tclens are the repository's, and the
// traced example compiles with NVRTC (a directive kernel) and with nvcc (the same kernel behind a
// host launcher), both untraced and traced, with tclens_trace_sink (and the shim's entry that sets
// it) in the traced builds only. Traces themselves are GPU tests
// (tests/gpu/app/cli/trace_command_test.cpp).
#include "kernels/user/trace_headers.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "kernels/user/nvcc_build.h"
#include "kernels/user/user_kernel.h"
#include "kernels/user/work_dir.h"

namespace tclens::kernels::user {
namespace {

const std::string kTraceExamples = TCLENS_EXAMPLES_DIR;
const std::string kSink = "tclens_trace_sink";

std::string file_text(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), {});
}

bool holds(const std::vector<char>& bytes, const std::string& text) {
    return std::string(bytes.begin(), bytes.end()).find(text) != std::string::npos;
}

CompileOptions trace_options_for_h100() {
    CompileOptions options;
    options.sm = 90;  // no GPU here: build for an H100
    return options;
}

TEST(TraceHeaders, AreTheRepositorysFiles) {
    ASSERT_EQ(trace_headers().size(), 4u);
    for (const EmbeddedHeader& header : trace_headers()) {
        EXPECT_EQ(header.text, file_text(kTraceExamples + "/../" + header.name)) << header.name;
    }
}

TEST(UserTraceCompile, TheTracedExampleCompilesWithNvrtcUntracedAndTraced) {
    const auto ref = parse_kernel_ref(kTraceExamples + "/traced_wmma.cu");
    ASSERT_TRUE(ref) << ref.error();
    const auto untraced = compile_user_kernel(*ref, trace_options_for_h100());
    ASSERT_TRUE(untraced) << untraced.error();
    EXPECT_EQ(untraced->discovered.form, KernelForm::kDirectiveKernel);
    EXPECT_FALSE(untraced->traced);
    EXPECT_EQ(untraced->warnings, "");
    EXPECT_FALSE(holds(untraced->cubin, kSink)) << "the timed kernel must not trace";

    const auto traced = compile_traced(*untraced);
    ASSERT_TRUE(traced) << traced.error();
    EXPECT_TRUE(traced->traced);
    EXPECT_EQ(traced->id, untraced->id);
    EXPECT_EQ(traced->arch, untraced->arch);
    EXPECT_EQ(traced->lowered_name, untraced->lowered_name);
    EXPECT_NE(traced->work->path(), untraced->work->path());
    EXPECT_TRUE(holds(traced->cubin, kSink));
}

TEST(UserTraceCompile, AKernelWithoutTracePointsHasNoSinkWhenTraced) {
    const auto ref = parse_kernel_ref(kTraceExamples + "/directive_gemm.cu");
    ASSERT_TRUE(ref) << ref.error();
    const auto untraced = compile_user_kernel(*ref, trace_options_for_h100());
    ASSERT_TRUE(untraced) << untraced.error();
    const auto traced = compile_traced(*untraced);
    ASSERT_TRUE(traced) << traced.error();
    EXPECT_FALSE(holds(traced->cubin, kSink));
}

TEST(UserTraceCompile, AMisspelledPhaseIsACompileErrorTracedOrNot) {
    const std::string source =
        "#include \"kernels/user_trace.cuh\"\n"
        "// tclens: grid=1 block=32\n"
        "__global__ void k(int M, int N, int K, const float* A, const float* B, float* C) {\n"
        "    TCLENS_TRACE_WARP();\n"
        "    TCLENS_TRACE_BEGIN(lod);\n"
        "}\n";
    const auto ref = parse_kernel_ref("bad_phase.cu");
    ASSERT_TRUE(ref) << ref.error();
    for (const bool traced : {false, true}) {
        CompileOptions options = trace_options_for_h100();
        options.traced = traced;
        const auto compiled = compile_user_source(source, "bad_phase.cu", *ref, options);
        ASSERT_FALSE(compiled) << traced;
        EXPECT_NE(compiled.error().find("bad_phase.cu:5: error:"), std::string::npos)
            << compiled.error();
        EXPECT_NE(compiled.error().find("TCLENS_TRACE_PHASE_lod"), std::string::npos)
            << compiled.error();
    }
}

TEST(UserTraceCompile, TheTracedExampleBehindAHostLauncherCompilesWithNvcc) {
    if (find_nvcc("").empty()) GTEST_SKIP() << "skipped: no nvcc";
    const std::string source =
        "#include \"" + kTraceExamples +
        "/traced_wmma.cu\"\n"
        "void launch(int M, int N, int K, const __nv_bfloat16* A, const __nv_bfloat16* B,\n"
        "            float* C) {\n"
        "    traced_wmma_gemm<<<dim3((N + 63) / 64, (M + 63) / 64), 128>>>(M, N, K, A, B, C);\n"
        "}\n";
    const auto ref = parse_kernel_ref("launch_traced.cu");
    ASSERT_TRUE(ref) << ref.error();
    const auto untraced =
        compile_user_source(source, "launch_traced.cu", *ref, trace_options_for_h100());
    ASSERT_TRUE(untraced) << untraced.error();
    EXPECT_EQ(untraced->discovered.form, KernelForm::kHostLauncher);
    const std::string untraced_library = file_text(untraced->library_path);
    EXPECT_EQ(untraced_library.find(kTraceSinkEntry), std::string::npos);
    EXPECT_EQ(untraced_library.find(kSink), std::string::npos);

    const auto traced = compile_traced(*untraced);
    ASSERT_TRUE(traced) << traced.error();
    const std::string traced_library = file_text(traced->library_path);
    EXPECT_NE(traced_library.find(kTraceSinkEntry), std::string::npos);
    EXPECT_NE(traced_library.find(kSink), std::string::npos);
}

TEST(UserTraceCompile, RecordsPerWarpGrowWithKAndStopAtTheCap) {
    EXPECT_EQ(user_trace_records_per_warp(0), 64);
    EXPECT_EQ(user_trace_records_per_warp(16), 68);
    EXPECT_EQ(user_trace_records_per_warp(4096), 4 * 256 + 64);
    EXPECT_EQ(user_trace_records_per_warp(std::int64_t{1} << 40), 65536);
}

}  // namespace
}  // namespace tclens::kernels::user
