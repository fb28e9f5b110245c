#pragma once
// Users' kernel files for the CLI tests of `--kernel` and `tclens watch`, written to temporary
// paths, and the scripted stand-in worker (tests/data/scripted_worker.sh) that plays a worker
// which crashes, hangs, writes garbage or loses its CUDA context, so the CLI's reporting can be
// tested on a machine without a GPU. The kernels compile with NVRTC, which CI has.

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.h"

namespace tclens::test {

// A correct directive kernel (docs/your-kernel.md, form 2): one thread per element of C.
inline const char* const kDirectiveKernel =
    "// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16) type=f32\n"
    "__global__ void gemm(int M, int N, int K, const float* A, const float* B, float* C) {\n"
    "    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;\n"
    "    if (row >= M || col >= N) return;\n"
    "    float acc = 0;\n"
    "    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];\n"
    "    C[row * N + col] = acc;\n"
    "}\n";

// The same kernel with an error on line 3 of its file.
inline const char* const kCompileErrorKernel =
    "// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16) type=f32\n"
    "__global__ void gemm(int M, int N, int K, const float* A, const float* B, float* C) {\n"
    "    C[0] = undefined_thing;\n"
    "}\n";

// Writes `text` to a file named `name` (keep the .cu) in a temporary folder of this process and
// returns its path; the kernel's id is then yours.<name without .cu>.
inline std::string write_kernel_file(const std::string& name, const std::string& text) {
    const std::filesystem::path folder = temp_path("kernels");
    std::filesystem::create_directories(folder);
    const std::string path = (folder / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// `--worker` for the scripted worker doing `mode` (crash, hang, garbage, fault) to the first
// request that runs kernels; it answers hello and load like a real worker with a GPU.
inline std::string scripted_worker(const std::string& mode) {
    return "--worker 'SCRIPTED_WORKER=" + mode + " exec sh " + TCLENS_SOURCE_DIR +
           "/tests/data/scripted_worker.sh'";
}

// The last line of `text` (without its '\n'); "" for "".
inline std::string last_line(const std::string& text) {
    std::string trimmed = text;
    while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
    const std::size_t start = trimmed.rfind('\n');
    return start == std::string::npos ? trimmed : trimmed.substr(start + 1);
}

}  // namespace tclens::test
