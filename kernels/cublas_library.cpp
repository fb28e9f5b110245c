#include "kernels/cublas_library.h"

#include <dlfcn.h>

#include <cstdio>

namespace tclens::kernels {
namespace {

// The library `file` (e.g. "libcublas.so.13") as the loader finds it, else in the toolkit's
// library folder of the build; nullptr and `why` when neither opens.
void* open_library(const std::string& file, std::string& why) {
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle != nullptr) return handle;
    const char* first = dlerror();
    why = first != nullptr ? first : file + ": not found";
    const std::string in_toolkit = std::string(TCLENS_CUDA_LIBRARY_DIR) + "/" + file;
    handle = dlopen(in_toolkit.c_str(), RTLD_NOW | RTLD_GLOBAL);
    return handle;
}

// Resolves `name` into `function`; false (and `missing` = name) when the library lacks it.
template <typename Function>
bool resolve(void* library, const char* name, Function& function, std::string& missing) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    if (function == nullptr && missing.empty()) missing = name;
    return function != nullptr;
}

struct LoadedCublas {
    CublasFunctions functions;
    std::string error;  // "" when loaded
};

struct LoadedCublasLt {
    CublasLtFunctions functions;
    std::string error;
};

std::string soname(const char* stem) {
    return std::string(stem) + ".so." + std::to_string(TCLENS_CUBLAS_SONAME_MAJOR);
}

LoadedCublas load_cublas() {
    LoadedCublas loaded;
    const std::string file = soname("libcublas");
    std::string why;
    void* library = open_library(file, why);
    if (library == nullptr) {
        loaded.error = "cannot load cuBLAS: " + why;
        return loaded;
    }
    CublasFunctions& f = loaded.functions;
    std::string missing;
    resolve(library, "cublasCreate_v2", f.create, missing);
    resolve(library, "cublasDestroy_v2", f.destroy, missing);
    resolve(library, "cublasSetStream_v2", f.set_stream, missing);
    resolve(library, "cublasGemmEx", f.gemm_ex, missing);
    if (!missing.empty()) loaded.error = "cannot load cuBLAS: " + file + " has no " + missing;
    return loaded;
}

LoadedCublasLt load_cublaslt() {
    LoadedCublasLt loaded;
    const std::string file = soname("libcublasLt");
    std::string why;
    void* library = open_library(file, why);
    if (library == nullptr) {
        loaded.error = "cannot load cuBLASLt: " + why;
        return loaded;
    }
    CublasLtFunctions& f = loaded.functions;
    std::string missing;
    resolve(library, "cublasLtCreate", f.create, missing);
    resolve(library, "cublasLtDestroy", f.destroy, missing);
    resolve(library, "cublasLtMatmul", f.matmul, missing);
    resolve(library, "cublasLtMatmulAlgoGetHeuristic", f.algo_get_heuristic, missing);
    resolve(library, "cublasLtMatmulDescCreate", f.desc_create, missing);
    resolve(library, "cublasLtMatmulDescDestroy", f.desc_destroy, missing);
    resolve(library, "cublasLtMatmulDescSetAttribute", f.desc_set_attribute, missing);
    resolve(library, "cublasLtMatmulPreferenceCreate", f.preference_create, missing);
    resolve(library, "cublasLtMatmulPreferenceDestroy", f.preference_destroy, missing);
    resolve(library, "cublasLtMatmulPreferenceSetAttribute", f.preference_set_attribute, missing);
    resolve(library, "cublasLtMatrixLayoutCreate", f.layout_create, missing);
    resolve(library, "cublasLtMatrixLayoutDestroy", f.layout_destroy, missing);
    if (!missing.empty()) loaded.error = "cannot load cuBLASLt: " + file + " has no " + missing;
    return loaded;
}

// Says once on stderr why a library could not be loaded (the descriptors' launch functions can
// return only a cudaError_t).
template <typename Loaded>
const Loaded& said(const Loaded& loaded) {
    if (!loaded.error.empty()) std::fprintf(stderr, "tclens: %s\n", loaded.error.c_str());
    return loaded;
}

}  // namespace

const CublasFunctions* cublas_functions(std::string* error) {
    static const LoadedCublas loaded = said(load_cublas());
    if (error != nullptr) *error = loaded.error;
    return loaded.error.empty() ? &loaded.functions : nullptr;
}

const CublasLtFunctions* cublaslt_functions(std::string* error) {
    static const LoadedCublasLt loaded = said(load_cublaslt());
    if (error != nullptr) *error = loaded.error;
    return loaded.error.empty() ? &loaded.functions : nullptr;
}

}  // namespace tclens::kernels
