#include "profiling/source/disassembler.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <system_error>

#include "common/child_process.h"
#include "kernels/instruction_mix.h"

#ifndef TCLENS_CUDA_BIN_DIR
#define TCLENS_CUDA_BIN_DIR ""
#endif

namespace tclens::profiling {
namespace {

namespace fs = std::filesystem;
using common::ProgramOutput;

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

bool read_file(const std::string& path, std::string& bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream text;
    text << in.rdbuf();
    bytes = text.str();
    return true;
}

// The cubins cuobjdump took out of one binary, in a folder of their own that lives as long as the
// process (removed at exit).
// Why a tool that did not succeed failed: "exit status 1 (its stderr's first 200 bytes)".
std::string failure_text(const ProgramOutput& out) {
    return (out.error.empty() ? "exit status " + std::to_string(out.exit_status) : out.error) +
           (out.err.empty() ? "" : " (" + out.err.substr(0, 200) + ")");
}

struct ExtractedCubins {
    std::string folder;
    std::vector<std::string> paths;
    std::string error;  // why there are none
    ~ExtractedCubins() {
        if (!folder.empty()) {
            std::error_code ignored;
            fs::remove_all(folder, ignored);
        }
    }
};

struct Cache {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<ExtractedCubins>> extracted;  // by binary path
    std::map<std::string, Disassembly> disassembled;                    // by cubin path
};

Cache& cache() {
    static Cache instance;
    return instance;
}

std::unique_ptr<ExtractedCubins> extract_cubins(const std::string& binary,
                                                const DisassemblyTools& tools) {
    auto extracted = std::make_unique<ExtractedCubins>();
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/tclens-cubins-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        extracted->error = "cannot make a temporary folder for the cubins (" + pattern + ")";
        return extracted;
    }
    extracted->folder = pattern;
    common::ProgramOptions options;
    options.working_dir = extracted->folder;
    options.max_out_bytes = 64 << 20;
    const ProgramOutput out =
        common::run_program({tools.cuobjdump, "-xelf", "all", binary}, options);
    if (!out.ok()) {
        extracted->error = "cuobjdump -xelf all " + binary + " failed: " + failure_text(out);
        return extracted;
    }
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(extracted->folder, error)) {
        const std::string path = entry.path().string();
        if (!cubin_arch(file_name(path)).empty()) extracted->paths.push_back(path);
    }
    if (extracted->paths.empty()) {
        extracted->error = binary + " holds no cubin (cuobjdump -xelf all took none out)";
    }
    return extracted;
}

Disassembly disassemble_file(const std::string& cubin_path, const DisassemblyTools& tools) {
    Disassembly result;
    ProgramOutput out;
    if (!tools.nvdisasm.empty()) {
        out = common::run_program({tools.nvdisasm, "-c", "-gi", cubin_path});
        result.how = "nvdisasm -c -gi " + file_name(cubin_path);
    } else if (!tools.cuobjdump.empty()) {
        out = common::run_program({tools.cuobjdump, "-sass", cubin_path});
        result.how = "cuobjdump -sass " + file_name(cubin_path) + " (no nvdisasm: no source lines)";
    } else {
        result.error = missing_tools_message(tools);
        return result;
    }
    if (!out.ok()) {
        result.error = result.how + " failed: " + failure_text(out);
        return result;
    }
    result.functions = parse_sass_text(out.out);
    if (result.functions.empty()) {
        result.error = result.how + " printed no function";
        return result;
    }
    for (const SassFunction& function : result.functions) {
        result.line_info = result.line_info || function.has_line_info();
    }
    return result;
}

}  // namespace

std::string find_program(const std::string& name, const std::vector<std::string>& dirs,
                         const std::function<bool(const std::string&)>& is_executable) {
    for (const std::string& dir : dirs) {
        if (dir.empty()) continue;
        const std::string path = (fs::path(dir) / name).string();
        if (is_executable(path)) return path;
    }
    return "";
}

std::vector<std::string> split_search_path(std::string_view path) {
    std::vector<std::string> dirs;
    while (!path.empty()) {
        const std::size_t colon = path.find(':');
        const std::string_view dir = path.substr(0, colon);
        if (!dir.empty()) dirs.emplace_back(dir);
        if (colon == std::string_view::npos) break;
        path.remove_prefix(colon + 1);
    }
    return dirs;
}

DisassemblyTools find_disassembly_tools() {
    std::vector<std::string> dirs;
    if (const char* bin = std::getenv("TCLENS_CUDA_BIN"); bin != nullptr && *bin != '\0') {
        dirs.emplace_back(bin);
    }
    if (const char* path = std::getenv("PATH")) {
        for (std::string& dir : split_search_path(path)) dirs.push_back(std::move(dir));
    }
    dirs.emplace_back(TCLENS_CUDA_BIN_DIR);
    dirs.emplace_back("/usr/local/cuda/bin");
    const auto executable = [](const std::string& path) {
        std::error_code error;
        return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
    };
    DisassemblyTools tools;
    tools.cuobjdump = find_program("cuobjdump", dirs, executable);
    tools.nvdisasm = find_program("nvdisasm", dirs, executable);
    tools.searched = "PATH, " + std::string(TCLENS_CUDA_BIN_DIR) + ", /usr/local/cuda/bin";
    if (const char* bin = std::getenv("TCLENS_CUDA_BIN"); bin != nullptr && *bin != '\0') {
        tools.searched = std::string(bin) + ", " + tools.searched;
    }
    return tools;
}

std::string missing_tools_message(const DisassemblyTools& tools) {
    const std::string where = " (looked in " + tools.searched + ")";
    if (tools.cuobjdump.empty() && tools.nvdisasm.empty()) {
        return "no cuobjdump or nvdisasm" + where +
               ": no SASS text or source lines; stall samples and per-instruction counts are "
               "shown by PC offset";
    }
    if (tools.cuobjdump.empty()) {
        return "no cuobjdump" + where +
               ": tclens's own cubins cannot be taken out of its binary, so the ladder's kernels "
               "get no SASS text (a kernel handed over as a cubin still does, through nvdisasm); "
               "samples and counts are shown by PC offset";
    }
    if (tools.nvdisasm.empty()) {
        return "no nvdisasm" + where +
               ": SASS text from cuobjdump -sass, without source lines; samples and counts per "
               "instruction still shown";
    }
    return "";
}

std::string cubin_arch(const std::string& name) {
    const std::string suffix = ".cubin";
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return "";
    }
    const std::string stem = name.substr(0, name.size() - suffix.size());
    const std::size_t dot = stem.rfind('.');
    const std::string last = dot == std::string::npos ? stem : stem.substr(dot + 1);
    if (last.size() < 5 || last.compare(0, 3, "sm_") != 0) return "";
    for (std::size_t i = 3; i < last.size(); ++i) {
        const char c = last[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))) return "";
    }
    return last;
}

bool cubin_names_function(std::string_view cubin, const std::string& mangled) {
    if (mangled.empty()) return false;
    std::size_t at = 0;
    while ((at = cubin.find(mangled, at)) != std::string_view::npos) {
        const std::size_t end = at + mangled.size();
        const bool ends = end < cubin.size() && cubin[end] == '\0';
        const bool starts = at == 0 || cubin[at - 1] == '\0' || cubin[at - 1] == '.';
        if (starts && ends) return true;
        ++at;
    }
    return false;
}

Disassembly disassemble_function(const std::string& binary, int sm, const std::string& mangled,
                                 const DisassemblyTools& tools) {
    Disassembly result;
    if (tools.cuobjdump.empty()) {
        result.error = missing_tools_message(tools);
        return result;
    }
    Cache& shared = cache();
    std::lock_guard<std::mutex> lock(shared.mutex);
    std::unique_ptr<ExtractedCubins>& extracted = shared.extracted[binary];
    if (!extracted) extracted = extract_cubins(binary, tools);
    if (!extracted->error.empty()) {
        result.error = extracted->error;
        return result;
    }
    std::vector<std::string> archs;
    for (const std::string& path : extracted->paths) archs.push_back(cubin_arch(file_name(path)));
    const std::string arch = kernels::cubin_arch_for(archs, sm);
    if (arch.empty()) {
        result.error = "no cubin in " + file_name(binary) + " for sm_" + std::to_string(sm) +
                       ": the driver compiled the kernel from PTX, so there is no SASS to show";
        return result;
    }
    for (const std::string& path : extracted->paths) {
        if (cubin_arch(file_name(path)) != arch) continue;
        std::string bytes;
        if (!read_file(path, bytes) || !cubin_names_function(bytes, mangled)) continue;
        auto found = shared.disassembled.find(path);
        if (found == shared.disassembled.end()) {
            found = shared.disassembled.emplace(path, disassemble_file(path, tools)).first;
        }
        result = found->second;
        if (result.error.empty()) result.how += " (from " + binary + ")";
        return result;
    }
    result.error = "no " + arch + " cubin in " + file_name(binary) + " holds " + mangled;
    return result;
}

void extract_cubins_once(const std::string& binary, const DisassemblyTools& tools) {
    if (tools.cuobjdump.empty()) return;
    Cache& shared = cache();
    std::lock_guard<std::mutex> lock(shared.mutex);
    std::unique_ptr<ExtractedCubins>& extracted = shared.extracted[binary];
    if (!extracted) extracted = extract_cubins(binary, tools);
}

Disassembly disassemble_cubin(const std::string& cubin_path, const DisassemblyTools& tools) {
    std::error_code error;
    if (!fs::is_regular_file(cubin_path, error)) {
        Disassembly result;
        result.error = "cubin " + cubin_path + " not found";
        return result;
    }
    return disassemble_file(cubin_path, tools);
}

std::string own_binary() {
    std::error_code error;
    const fs::path path = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string() : path.string();
}

}  // namespace tclens::profiling
