#pragma once
// A light scan of a CUDA source for the functions it defines: enough to find a user's launcher
// or kernel and read its parameter types, not a C++ parser. Pure: works on text.
//
// What it sees: comments, string and character literals and preprocessor lines are skipped
// (a directive's continuation lines too); `namespace a { ... }`, `namespace a::b`, anonymous
// and inline namespaces give the qualification; at namespace scope, every
// `... name ( params ) [const|noexcept|...] {` is a function definition (declarations ending in
// ';' are not); bodies of functions, classes, structs, enums and initialisers are skipped by
// brace matching. `template <...>` before a function marks it a template. Macros are not
// expanded: a launcher hidden behind a macro is not found (name it with path.cu:NAME and it is
// still not found; the error says so).

#include <string>
#include <vector>

namespace tclens::kernels::user {

struct ScannedParam {
    std::string type;  // type tokens joined by single blanks, name removed: "const float *"
    std::string name;  // "" when the parameter is unnamed
};

enum class FunctionSpace { kHost, kGlobal, kDevice };  // no qualifier or __host__ = kHost

struct ScannedFunction {
    std::string name;       // unqualified: "launch_matmul_tensor"
    std::string qualified;  // with named namespaces: "matmul_tensor::launch_matmul_tensor"
    std::string result;     // return type tokens, qualifiers removed: "void", "size_t"
    FunctionSpace space = FunctionSpace::kHost;
    bool is_template = false;
    bool is_static = false;
    std::vector<ScannedParam> params;
    int line = 0;  // 1-based line of the name
};

struct SourceScan {
    std::vector<ScannedFunction> functions;  // in source order
    bool mentions_tf32 = false;              // "tf32" appears outside comments
    // Instruction names that appear outside comments, e.g. "mma.sync.aligned.m16n8k8" texts.
    std::vector<std::string> mma_shapes;  // "m16n8k8", "m16n8k16", ... in order, unique
};

SourceScan scan_source(const std::string& source);

// "void launch(int M, const float *A)" style text of a function, for error lines: one line, at
// most 160 characters and "...".
std::string signature_text(const ScannedFunction& function);

}  // namespace tclens::kernels::user
