// compile_user_kernel / compile_user_source (user_kernel.h): read, discover, build. The loader
// (load_user_kernel, run_fragment_exercise) is in user_loader.cpp.
#include "kernels/user/user_kernel.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/user/nvcc_build.h"
#include "kernels/user/nvrtc_build.h"
#include "kernels/user/trace_headers.h"
#include "kernels/user/work_dir.h"

namespace tclens::kernels::user {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The current GPU's compute capability, or 0 without one.
int current_sm() {
    int device = 0;
    int major = 0;
    int minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        cudaGetLastError();  // leave no sticky "no device" behind
        return 0;
    }
    return major * 10 + minor;
}

std::string arch_for(int sm) { return "sm_" + std::to_string(sm) + (sm == 90 ? "a" : ""); }

std::string base_name(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// "" when `source` may be CUDA text, else why not.
std::string not_cuda(const std::string& source, const std::string& shown) {
    if (source.empty()) return shown + ": the file is empty";
    const std::size_t nul = source.find('\0');
    if (nul != std::string::npos) {
        return shown + ": not a CUDA source (binary data: a NUL byte at offset " +
               std::to_string(nul) + ")";
    }
    return "";
}

// Writes trace_headers() under `folder` (their names are paths below it); "" or why not.
std::string write_trace_headers(const std::string& folder) {
    for (const EmbeddedHeader& header : trace_headers()) {
        const std::filesystem::path path = std::filesystem::path(folder) / header.name;
        std::error_code error;
        std::filesystem::create_directories(path.parent_path(), error);
        std::ofstream file(path);
        file << header.text;
        if (error || !file) return "cannot write " + path.string();
    }
    return "";
}

// `on_disk`: the user's file as nvcc should include it (absolute), or "" to write `source`
// into the work folder first.
common::Expected<CompiledKernel> compile(const std::string& source, std::string on_disk,
                                         const std::string& shown, const KernelRef& ref,
                                         const CompileOptions& options, Clock::time_point start) {
    using Result = common::Expected<CompiledKernel>;
    if (const std::string why = not_cuda(source, shown); !why.empty()) {
        return Result::failure(why);
    }
    auto discovered = discover_kernel(source, shown, ref);
    if (!discovered) return Result::failure(discovered.error());

    CompiledKernel out;
    out.ref = ref;
    out.ref.path = shown;
    out.source = source;
    out.discovered = *discovered;
    out.id = user_kernel_id(out.ref);
    out.traced = options.traced;
    out.sm = options.sm > 0 ? options.sm : current_sm();
    if (out.sm == 0) out.sm = 90;
    out.arch = arch_for(out.sm);
    auto work = WorkDir::create(options.work_dir);
    if (!work) return Result::failure(work.error());
    out.work = *work;
    std::vector<std::string> defines;
    if (options.traced) defines.push_back("TCLENS_TRACE");

    if (discovered->form == KernelForm::kDirectiveKernel) {
        out.path = on_disk.empty() ? shown : on_disk;
        auto built = build_with_nvrtc(source, out.path, shown, discovered->function.qualified,
                                      out.arch, defines);
        if (!built) return Result::failure(built.error());
        out.cubin = built->cubin;
        out.lowered_name = built->lowered_name;
        out.warnings = built->warnings;
        out.cubin_path = out.work->file(std::filesystem::path(shown).stem().string() + ".cubin");
        std::ofstream cubin(out.cubin_path, std::ios::binary);
        cubin.write(out.cubin.data(), static_cast<std::streamsize>(out.cubin.size()));
        if (!cubin) return Result::failure("cannot write " + out.cubin_path);
        out.compile_seconds = seconds_since(start);
        return Result::success(out);
    }

    const std::string nvcc = find_nvcc(options.nvcc);
    if (nvcc.empty()) {
        return Result::failure(shown + " is a " + form_name(discovered->form) +
                               ": building it needs the CUDA toolkit's nvcc, which was not found" +
                               (options.nvcc.empty() ? " (set TCLENS_NVCC or put nvcc on PATH)"
                                                     : " at '" + options.nvcc + "'"));
    }
    if (on_disk.empty()) {
        on_disk = out.work->file(base_name(shown));
        std::ofstream file(on_disk);
        file << source;
        if (!file) return Result::failure("cannot write " + on_disk);
    }
    out.path = on_disk;
    std::vector<std::string> includes;
    if (!discovered->directive.include.empty()) {
        includes.push_back(
            (std::filesystem::path(on_disk).parent_path() / discovered->directive.include)
                .lexically_normal()
                .string());
    }
    const std::string trace_include = out.work->file("include");
    if (const std::string why = write_trace_headers(trace_include); !why.empty()) {
        return Result::failure(why);
    }
    includes.push_back(trace_include);
    auto built = build_with_nvcc(nvcc, on_disk, shown, *discovered, out.arch, includes,
                                 out.work->path(), defines);
    if (!built) return Result::failure(built.error());
    out.library_path = built->library_path;
    out.cubin_path = built->cubin_path;
    out.warnings = built->warnings;
    out.compile_seconds = seconds_since(start);
    return Result::success(out);
}

}  // namespace

common::Expected<CompiledKernel> compile_user_kernel(const KernelRef& ref,
                                                     const CompileOptions& options) {
    using Result = common::Expected<CompiledKernel>;
    const Clock::time_point start = Clock::now();
    std::error_code error;
    const std::filesystem::path path(ref.path);
    if (!std::filesystem::exists(path, error)) {
        return Result::failure("kernel file '" + ref.path + "' does not exist");
    }
    if (std::filesystem::is_directory(path, error)) {
        return Result::failure("kernel file '" + ref.path + "' is a folder, not a .cu file");
    }
    std::ifstream file(ref.path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    if (!file.good() && !file.eof()) {
        return Result::failure("kernel file '" + ref.path +
                               "' cannot be read: " + std::strerror(errno));
    }
    if (!file.is_open()) {
        return Result::failure("kernel file '" + ref.path + "' cannot be read (permission?)");
    }
    const std::string absolute = std::filesystem::absolute(path, error).lexically_normal().string();
    return compile(text.str(), absolute, ref.path, ref, options, start);
}

common::Expected<CompiledKernel> compile_traced(const CompiledKernel& compiled) {
    CompileOptions options;
    options.sm = compiled.sm;
    options.traced = true;
    // A source given as text was written into the untraced build's folder: write it again.
    const bool from_text = compiled.work && compiled.path.rfind(compiled.work->path(), 0) == 0;
    return compile(compiled.source, from_text ? "" : compiled.path, compiled.ref.path, compiled.ref,
                   options, Clock::now());
}

int user_trace_records_per_warp(std::int64_t k) {
    const std::int64_t steps = (std::max<std::int64_t>(k, 0) + 15) / 16;
    return static_cast<int>(std::min<std::int64_t>(4 * steps + 64, 65536));
}

common::Expected<CompiledKernel> compile_user_source(const std::string& source,
                                                     const std::string& path, const KernelRef& ref,
                                                     const CompileOptions& options) {
    return compile(source, "", path, ref, options, Clock::now());
}

}  // namespace tclens::kernels::user
