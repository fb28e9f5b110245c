#include "kernels/user/nvrtc_build.h"

#include <nvrtc.h>

#include "kernels/user/compile_log.h"
#include "kernels/user/trace_headers.h"

namespace tclens::kernels::user {
namespace {

constexpr const char* kStdint = R"(#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::intptr_t; using ::uintptr_t;
}
)";

constexpr const char* kStddef = R"(#pragma once
typedef decltype(sizeof(0)) size_t;
typedef long ptrdiff_t;
namespace std { using ::size_t; using ::ptrdiff_t; }
)";

// Owns an nvrtcProgram.
class Program {
  public:
    ~Program() {
        if (program_ != nullptr) nvrtcDestroyProgram(&program_);
    }
    nvrtcProgram* out() { return &program_; }
    nvrtcProgram get() const { return program_; }

  private:
    nvrtcProgram program_ = nullptr;
};

std::string nvrtc_text(nvrtcResult result) { return nvrtcGetErrorString(result); }

}  // namespace

common::Expected<NvrtcBuild> build_with_nvrtc(const std::string& source, const std::string& path,
                                              const std::string& shown_name,
                                              const std::string& kernel, const std::string& arch,
                                              const std::vector<std::string>& defines) {
    using Result = common::Expected<NvrtcBuild>;
    std::vector<const char*> headers = {kStdint, kStdint, kStddef, kStddef};
    std::vector<const char*> header_names = {"cstdint", "stdint.h", "cstddef", "stddef.h"};
    for (const EmbeddedHeader& header : trace_headers()) {
        headers.push_back(header.text);
        header_names.push_back(header.name);
    }
    Program program;
    nvrtcResult r =
        nvrtcCreateProgram(program.out(), source.c_str(), path.c_str(),
                           static_cast<int>(headers.size()), headers.data(), header_names.data());
    if (r != NVRTC_SUCCESS) return Result::failure("NVRTC: " + nvrtc_text(r));
    const std::string name_expression = "&" + kernel;
    r = nvrtcAddNameExpression(program.get(), name_expression.c_str());
    if (r != NVRTC_SUCCESS) return Result::failure("NVRTC: " + nvrtc_text(r));
    const std::string arch_option = "-arch=" + arch;
    std::vector<const char*> options = {arch_option.c_str(), "-lineinfo", "-std=c++17"};
    std::vector<std::string> define_options;
    for (const std::string& define : defines) define_options.push_back("-D" + define);
    for (const std::string& option : define_options) options.push_back(option.c_str());
#ifdef TCLENS_CUDA_INCLUDE_DIR
    const std::string include = std::string("-I") + TCLENS_CUDA_INCLUDE_DIR;
    options.push_back(include.c_str());
#endif
    const nvrtcResult compiled =
        nvrtcCompileProgram(program.get(), static_cast<int>(options.size()), options.data());
    std::size_t log_size = 0;
    std::string log;
    if (nvrtcGetProgramLogSize(program.get(), &log_size) == NVRTC_SUCCESS && log_size > 1) {
        log.resize(log_size);
        nvrtcGetProgramLog(program.get(), log.data());
        log.resize(log_size - 1);
    }
    NvrtcBuild build;
    const std::vector<Diagnostic> diagnostics = user_diagnostics(log, path, shown_name);
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == "warning") build.warnings += d.text + "\n";
    }
    if (compiled != NVRTC_SUCCESS) {
        std::string line = first_error_line(diagnostics);
        if (line.empty()) line = tool_error_line(log, "");
        if (line.empty()) line = "NVRTC: " + nvrtc_text(compiled) + " compiling " + shown_name;
        if (line.find("host functions are not allowed") != std::string::npos ||
            line.find("cannot open source file") != std::string::npos) {
            line +=
                " (NVRTC compiles device code only: wrap host code in #ifndef "
                "__CUDACC_RTC__, or write a host launcher)";
        }
        return Result::failure(line);
    }
    const char* lowered = nullptr;
    r = nvrtcGetLoweredName(program.get(), name_expression.c_str(), &lowered);
    if (r != NVRTC_SUCCESS || lowered == nullptr) {
        return Result::failure(shown_name + ": NVRTC found no kernel " + kernel + " (" +
                               nvrtc_text(r) + ")");
    }
    build.lowered_name = lowered;
    std::size_t cubin_size = 0;
    r = nvrtcGetCUBINSize(program.get(), &cubin_size);
    if (r == NVRTC_SUCCESS) {
        build.cubin.resize(cubin_size);
        r = nvrtcGetCUBIN(program.get(), build.cubin.data());
    }
    if (r != NVRTC_SUCCESS || cubin_size == 0) {
        return Result::failure("NVRTC gave no cubin for " + arch + ": " + nvrtc_text(r));
    }
    return Result::success(build);
}

}  // namespace tclens::kernels::user
