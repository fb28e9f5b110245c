#include "kernels/user/discovery.h"

#include <algorithm>
#include <sstream>

#include "common/one_line.h"
#include "common/text.h"

namespace tclens::kernels::user {
namespace {

constexpr const char* kAcceptedGemm =
    "(M, N, K, const T* A, const T* B, float* C) or (const T* A, const T* B, float* C, M, N, K) "
    "with T float, __half or __nv_bfloat16 and M, N, K integers";

struct ParamType {
    enum class Kind { kInt32, kInt64, kPointer, kOther } kind = Kind::kOther;
    std::string element;  // pointee with qualifiers removed: "float", "__half", "void"
    bool const_pointee = false;
};

// Classifies a scanned parameter type ("const float * __restrict__", "std::int64_t").
ParamType classify(const std::string& type) {
    std::istringstream words(type);
    std::vector<std::string> base;
    int stars = 0;
    bool const_before_star = false;
    bool other = false;
    std::string word;
    while (words >> word) {
        if (word == "*") {
            ++stars;
            continue;
        }
        if (word == "const") {
            if (stars == 0) const_before_star = true;
            continue;
        }
        if (word == "volatile" || word == "__restrict__" || word == "__restrict" ||
            word == "restrict")
            continue;
        if (stars > 0 || word == "&" || word == "&&" || word == "[" || word == "]") {
            other = true;  // a name after the '*', a reference or an array: not ours
            continue;
        }
        if (word.rfind("std::", 0) == 0) word = word.substr(5);
        if (word.rfind("::", 0) == 0) word = word.substr(2);
        base.push_back(word);
    }
    ParamType p;
    if (other || stars > 1) return p;
    std::string joined;
    for (const std::string& w : base) joined += (joined.empty() ? "" : " ") + w;
    if (stars == 1) {
        p.kind = ParamType::Kind::kPointer;
        p.element = joined;
        p.const_pointee = const_before_star;
        return p;
    }
    static const char* const k32[] = {"int",          "int32_t", "uint32_t",  "unsigned",
                                      "unsigned int", "signed",  "signed int"};
    static const char* const k64[] = {"int64_t",
                                      "uint64_t",
                                      "long",
                                      "long int",
                                      "long long",
                                      "long long int",
                                      "unsigned long",
                                      "unsigned long int",
                                      "unsigned long long",
                                      "unsigned long long int",
                                      "long unsigned int",
                                      "size_t",
                                      "ptrdiff_t",
                                      "ssize_t"};
    for (const char* t : k32) {
        if (joined == t) p.kind = ParamType::Kind::kInt32;
    }
    for (const char* t : k64) {
        if (joined == t) p.kind = ParamType::Kind::kInt64;
    }
    return p;
}

std::optional<Precision> element_precision(const std::string& element) {
    if (element == "float") return Precision::kF32;
    if (element == "__half" || element == "half") return Precision::kF16;
    if (element == "__nv_bfloat16" || element == "nv_bfloat16") return Precision::kBF16;
    return std::nullopt;
}

const char* element_spelling(Precision p) {
    return p == Precision::kF16 ? "__half" : p == Precision::kBF16 ? "__nv_bfloat16" : "float";
}

// A parameter quoted in an error line: one line and cut, as its tokens may hold a string
// literal continued over a line (found by fuzz_kernel_discovery).
std::string param_text(const ScannedParam& p) {
    return "'" + common::one_line_excerpt(p.type + (p.name.empty() ? "" : " " + p.name), 80) + "'";
}

std::string at_line(const std::string& file, const ScannedFunction& f) {
    return file + ":" + std::to_string(f.line) + ": ";
}

std::string function_list(const std::vector<const ScannedFunction*>& functions) {
    return common::join(functions, ", ", [](const ScannedFunction* f) {
        return f->qualified + " (line " + std::to_string(f->line) + ")";
    });
}

bool names_function(const std::string& entry, const ScannedFunction& f) {
    const std::string wanted = entry.rfind("::", 0) == 0 ? entry.substr(2) : entry;
    if (f.qualified == wanted || f.name == wanted) return true;
    return f.qualified.size() >= wanted.size() + 2 &&  // room for "::" + wanted
           f.qualified.compare(f.qualified.size() - wanted.size() - 2, std::string::npos,
                               "::" + wanted) == 0;
}

bool is_gemm_like_name(const std::string& name) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("launch") != std::string::npos || lower.find("gemm") != std::string::npos ||
           lower.find("matmul") != std::string::npos;
}

// The float GEMM's precision: the ref's, else the directive's, else tf32 when the source
// mentions it. For 16-bit inputs the type must agree.
common::Expected<Precision> gemm_precision(Precision element, const KernelRef& ref,
                                           const std::optional<Precision>& directive_type,
                                           bool mentions_tf32, const std::string& where) {
    using Result = common::Expected<Precision>;
    std::optional<Precision> wanted = ref.precision ? ref.precision : directive_type;
    const char* origin = ref.precision ? "the kernel ref's type" : "the directive's type=";
    if (element == Precision::kF32) {
        if (!wanted) return Result::success(mentions_tf32 ? Precision::kTF32 : Precision::kF32);
        if (*wanted == Precision::kF32 || *wanted == Precision::kTF32) {
            return Result::success(*wanted);
        }
        return Result::failure(where + origin + " is " + precision_name(*wanted) +
                               " but A and B are float: use f32 or tf32");
    }
    if (wanted && *wanted != element) {
        return Result::failure(where + origin + " is " + precision_name(*wanted) +
                               " but A and B are " + element_spelling(element) + " (" +
                               precision_name(element) + ")");
    }
    return Result::success(element);
}

}  // namespace

const char* form_name(KernelForm form) {
    switch (form) {
        case KernelForm::kHostLauncher:
            return "host launcher";
        case KernelForm::kDirectiveKernel:
            return "directive kernel";
        case KernelForm::kFragmentExercise:
            return "exercise";
    }
    return "?";
}

common::Expected<GemmSignature> match_gemm_signature(const ScannedFunction& function,
                                                     bool allow_workspace) {
    using Result = common::Expected<GemmSignature>;
    const std::string head = signature_text(function) + " is not an accepted signature: ";
    const std::size_t count = function.params.size();
    if (count != 6 && !(allow_workspace && count == 7)) {
        return Result::failure(head + "it takes " + std::to_string(count) +
                               " parameters; expected " + kAcceptedGemm +
                               (allow_workspace ? ", optionally then void* workspace" : ""));
    }
    GemmSignature sig;
    sig.workspace = count == 7;
    std::vector<ParamType> types;
    for (const ScannedParam& p : function.params) types.push_back(classify(p.type));
    sig.pointers_first = types[0].kind == ParamType::Kind::kPointer;
    const int first_int = sig.pointers_first ? 3 : 0;
    const int first_ptr = sig.pointers_first ? 0 : 3;
    static const char* const kSizes[] = {"M", "N", "K"};
    static const char* const kMatrices[] = {"A", "B", "C"};
    for (int i = 0; i < 3; ++i) {
        const ParamType& t = types[static_cast<std::size_t>(first_int + i)];
        if (t.kind != ParamType::Kind::kInt32 && t.kind != ParamType::Kind::kInt64) {
            return Result::failure(head + "parameter " + std::to_string(first_int + i + 1) + " " +
                                   param_text(function.params[first_int + i]) +
                                   " must be an integer (" + kSizes[i] +
                                   "): int, int32_t, "
                                   "int64_t, size_t, ...");
        }
    }
    std::optional<Precision> element;
    for (int i = 0; i < 3; ++i) {
        const std::size_t index = static_cast<std::size_t>(first_ptr + i);
        const ParamType& t = types[index];
        const std::string which =
            "parameter " + std::to_string(index + 1) + " " + param_text(function.params[index]);
        if (i == 2) {
            if (t.kind != ParamType::Kind::kPointer || t.element != "float" || t.const_pointee) {
                return Result::failure(head + which + " must be float* (C, written by the kernel)");
            }
            continue;
        }
        const std::optional<Precision> p =
            t.kind == ParamType::Kind::kPointer ? element_precision(t.element) : std::nullopt;
        if (!p) {
            return Result::failure(head + which +
                                   " must be const float*, const __half* or "
                                   "const __nv_bfloat16* (" +
                                   kMatrices[i] + ")");
        }
        if (element && *element != *p) {
            return Result::failure(head + "A is " + element_spelling(*element) + " but B is " +
                                   element_spelling(*p) + "; both must have one type");
        }
        element = p;
    }
    if (sig.workspace) {
        const ParamType& t = types[6];
        if (t.kind != ParamType::Kind::kPointer || t.element != "void" || t.const_pointee) {
            return Result::failure(head + "parameter 7 " + param_text(function.params[6]) +
                                   " must be void* (the workspace)");
        }
    }
    sig.element = *element;
    for (const ParamType& t : types) {
        sig.params.push_back(t.kind == ParamType::Kind::kInt32   ? ParamKind::kInt32
                             : t.kind == ParamType::Kind::kInt64 ? ParamKind::kInt64
                                                                 : ParamKind::kPointer);
    }
    return Result::success(sig);
}

common::Expected<Precision> match_exercise_signature(const ScannedFunction& function) {
    using Result = common::Expected<Precision>;
    const std::string head = signature_text(function) +
                             " is not a fragment exercise: expected (const T* a, const T* b, "
                             "float* c) with T float, __half or __nv_bfloat16";
    if (function.params.size() != 3) return Result::failure(head);
    std::optional<Precision> element;
    for (int i = 0; i < 2; ++i) {
        const ParamType t = classify(function.params[static_cast<std::size_t>(i)].type);
        const std::optional<Precision> p =
            t.kind == ParamType::Kind::kPointer ? element_precision(t.element) : std::nullopt;
        if (!p || (element && *element != *p)) return Result::failure(head);
        element = p;
    }
    const ParamType c = classify(function.params[2].type);
    if (c.kind != ParamType::Kind::kPointer || c.element != "float" || c.const_pointee) {
        return Result::failure(head);
    }
    return Result::success(*element);
}

std::vector<std::string> exercise_layout_ids() {
    return {"mma.m16n8k8.tf32", "mma.m16n8k4.tf32", "mma.m16n8k16.f16", "mma.m16n8k8.f16",
            "mma.m16n8k16.bf16"};
}

namespace {

Precision exercise_element(const std::string& layout) {
    if (layout.find("tf32") != std::string::npos) return Precision::kF32;
    if (layout.find("bf16") != std::string::npos) return Precision::kBF16;
    return Precision::kF16;
}

std::string exercise_layout_for(Precision element, const SourceScan& scan) {
    auto has = [&](const char* shape) {
        return std::find(scan.mma_shapes.begin(), scan.mma_shapes.end(), shape) !=
               scan.mma_shapes.end();
    };
    switch (element) {
        case Precision::kF32:
        case Precision::kTF32:
            return has("m16n8k4") && !has("m16n8k8") ? "mma.m16n8k4.tf32" : "mma.m16n8k8.tf32";
        case Precision::kF16:
            return has("m16n8k8") && !has("m16n8k16") ? "mma.m16n8k8.f16" : "mma.m16n8k16.f16";
        case Precision::kBF16:
            return "mma.m16n8k16.bf16";
        case Precision::kE4M3:  // exercises are of mma.sync's 16- and 32-bit inputs only
            return "";
    }
    return "";
}

// The directive that applies to `f`: one naming it, else the only one naming no kernel.
common::Expected<std::optional<LaunchDirective>> directive_for(
    const ScannedFunction& f, const std::vector<LaunchDirective>& directives,
    const std::string& file) {
    using Result = common::Expected<std::optional<LaunchDirective>>;
    std::optional<LaunchDirective> named;
    std::vector<const LaunchDirective*> unnamed;
    for (const LaunchDirective& d : directives) {
        if (!d.kernel.empty()) {
            if (names_function(d.kernel, f)) named = d;
        } else {
            unnamed.push_back(&d);
        }
    }
    if (named) return Result::success(named);
    if (unnamed.size() > 1) {
        return Result::failure(file + ": " + std::to_string(unnamed.size()) +
                               " tclens directives (lines " + std::to_string(unnamed[0]->line) +
                               " and " + std::to_string(unnamed[1]->line) +
                               ") and none says kernel=NAME; give each its kernel=");
    }
    if (unnamed.empty()) return Result::success(std::nullopt);
    return Result::success(*unnamed[0]);
}

using FunctionChoice = common::Expected<const ScannedFunction*>;

// A __global__ GEMM kernel that no directive launches.
std::string no_directive_error(const std::string& file, const ScannedFunction& kernel) {
    return at_line(file, kernel) + "kernel '" + kernel.qualified +
           "' has no launch directive: add a line such as // tclens: "
           "grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)";
}

// The functions discovery chooses from: every host and __global__ one (`all`), and of those the
// non-template ones by space.
struct Candidates {
    std::vector<const ScannedFunction*> all;
    std::vector<const ScannedFunction*> hosts;
    std::vector<const ScannedFunction*> globals;
};

Candidates candidates_of(const SourceScan& scan) {
    Candidates c;
    for (const ScannedFunction& f : scan.functions) {
        if (f.space == FunctionSpace::kDevice) continue;
        c.all.push_back(&f);
        if (f.is_template) continue;
        (f.space == FunctionSpace::kGlobal ? c.globals : c.hosts).push_back(&f);
    }
    return c;
}

// The function the ref names (`entry`): exactly one definition, not a template, not __device__.
FunctionChoice named_function(const SourceScan& scan, const Candidates& c, const std::string& entry,
                              const std::string& file) {
    std::vector<const ScannedFunction*> matches;
    for (const ScannedFunction& f : scan.functions) {
        if (names_function(entry, f)) matches.push_back(&f);
    }
    if (matches.empty()) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < c.all.size() && i < 8; ++i)
            names.push_back(c.all[i]->qualified);
        const std::string known = common::join(names, ", ") + (c.all.size() > 8 ? ", ..." : "");
        return FunctionChoice::failure(file + ": no function '" + entry + "' (functions: " +
                                       (known.empty() ? "none found" : known) + ")");
    }
    if (matches.size() > 1) {
        const bool overloaded = std::all_of(matches.begin(), matches.end(), [&](auto* f) {
            return f->qualified == matches[0]->qualified;
        });
        return FunctionChoice::failure(
            file + ": '" + entry + "' is " + (overloaded ? "overloaded" : "ambiguous") + ": " +
            function_list(matches) +
            (overloaded ? "; tclens needs exactly one definition" : "; qualify it (ns::name)"));
    }
    const ScannedFunction* chosen = matches[0];
    if (chosen->is_template) {
        return FunctionChoice::failure(at_line(file, *chosen) + chosen->qualified +
                                       " is a template; tclens runs a plain function (instantiate "
                                       "it in a small non-template launcher)");
    }
    if (chosen->space == FunctionSpace::kDevice) {
        return FunctionChoice::failure(at_line(file, *chosen) + chosen->qualified +
                                       " is a __device__ function; tclens runs a host launcher or "
                                       "a __global__ kernel");
    }
    return FunctionChoice::success(chosen);
}

// The __global__ kernels with a GEMM signature that a launch directive launches; none is an
// error naming the first launching directive and, when there is one, the kernel it may mean.
common::Expected<std::vector<const ScannedFunction*>> directive_kernels(
    const Candidates& c, const std::vector<LaunchDirective>& directives, const std::string& file) {
    using Result = common::Expected<std::vector<const ScannedFunction*>>;
    std::vector<const ScannedFunction*> kernels;
    for (const ScannedFunction* f : c.globals) {
        if (!match_gemm_signature(*f, false)) continue;
        auto d = directive_for(*f, directives, file);
        if (!d) return Result::failure(d.error());
        if (*d && (*d)->has_launch()) kernels.push_back(f);
    }
    if (!kernels.empty()) return Result::success(kernels);
    const LaunchDirective* first = nullptr;
    for (const LaunchDirective& d : directives) {
        if (d.has_launch() && first == nullptr) first = &d;
    }
    const std::string why =
        first->kernel.empty()
            ? "no __global__ kernel with an accepted signature"
            : "no __global__ kernel '" + first->kernel + "' with an accepted signature";
    for (const ScannedFunction* f : c.globals) {
        auto sig = match_gemm_signature(*f, false);
        if (!sig && (first->kernel.empty() || names_function(first->kernel, *f))) {
            return Result::failure(at_line(file, *f) + sig.error());
        }
    }
    return Result::failure(file + ": the directive on line " + std::to_string(first->line) +
                           " launches " + why + " (" + kAcceptedGemm + ")");
}

// Why no function qualifies: the first near miss (a GEMM kernel without a directive, a
// GEMM-named launcher or kernel whose signature does not fit, a template), else the forms.
std::string no_launcher_error(const SourceScan& scan, const Candidates& c,
                              const std::string& file) {
    for (const ScannedFunction* f : c.globals) {
        if (match_gemm_signature(*f, false)) {
            return no_directive_error(file, *f);
        }
    }
    for (const ScannedFunction* f : c.hosts) {
        if (f->name != "main" && is_gemm_like_name(f->name)) {
            return at_line(file, *f) + match_gemm_signature(*f, true).error();
        }
    }
    for (const ScannedFunction* f : c.globals) {
        if (is_gemm_like_name(f->name) || c.globals.size() == 1) {
            return at_line(file, *f) + match_gemm_signature(*f, false).error();
        }
    }
    for (const ScannedFunction& f : scan.functions) {
        if (f.is_template && (f.space == FunctionSpace::kGlobal || is_gemm_like_name(f.name))) {
            return at_line(file, f) + f.qualified +
                   " is a template; tclens runs a plain function "
                   "(instantiate it in a small non-template launcher)";
        }
    }
    return file + ": no launcher found: expected a host function " + kAcceptedGemm +
           ", a __global__ kernel with a // tclens: launch directive, or a one-warp "
           "exercise __global__ (const float* a, const float* b, float* c)";
}

// The one function the rules in the header find: a host launcher, else a directive kernel, else
// an exercise.
FunctionChoice found_function(const SourceScan& scan, const Candidates& c,
                              const std::vector<LaunchDirective>& directives,
                              const std::string& file) {
    std::vector<const ScannedFunction*> candidates;
    for (const ScannedFunction* f : c.hosts) {
        if (f->name != "main" && match_gemm_signature(*f, true)) candidates.push_back(f);
    }
    bool has_launch_directive = false;
    for (const LaunchDirective& d : directives) has_launch_directive |= d.has_launch();
    if (candidates.empty() && has_launch_directive) {
        auto kernels = directive_kernels(c, directives, file);
        if (!kernels) return FunctionChoice::failure(kernels.error());
        candidates = *kernels;
    }
    if (candidates.empty()) {
        for (const ScannedFunction* f : c.globals) {
            if (match_exercise_signature(*f)) candidates.push_back(f);
        }
    }
    if (candidates.size() > 1) {
        return FunctionChoice::failure(file + ": " + std::to_string(candidates.size()) +
                                       " candidates: " + function_list(candidates) +
                                       "; name one as " + file + ":" + candidates[0]->name);
    }
    if (candidates.empty()) return FunctionChoice::failure(no_launcher_error(scan, c, file));
    return FunctionChoice::success(candidates[0]);
}

// The get_workspace_size(M, N, K) of launcher `f` that takes a workspace: the one in f's
// namespace, else any; its qualified name.
common::Expected<std::string> workspace_size_function(const ScannedFunction& f, const Candidates& c,
                                                      const std::string& file) {
    using Result = common::Expected<std::string>;
    const std::string prefix = f.qualified.substr(0, f.qualified.size() - f.name.size());
    const ScannedFunction* best = nullptr;
    for (const ScannedFunction* h : c.hosts) {
        if (h->name != "get_workspace_size" || h->params.size() != 3) continue;
        if (best == nullptr || h->qualified == prefix + h->name) best = h;
    }
    if (best == nullptr) {
        return Result::failure(at_line(file, f) + f.qualified +
                               " takes a workspace, but the file has no "
                               "get_workspace_size(M, N, K) to say how large");
    }
    for (const ScannedParam& p : best->params) {
        const ParamType t = classify(p.type);
        if (t.kind != ParamType::Kind::kInt32 && t.kind != ParamType::Kind::kInt64) {
            return Result::failure(at_line(file, *best) + signature_text(*best) +
                                   ": get_workspace_size takes three integers (M, N, K)");
        }
    }
    return Result::success(best->qualified);
}

// The fragment layout an exercise with inputs `element` runs: its directive's exercise=ID
// (checked), else the one its file suggests.
common::Expected<std::string> exercise_layout(const std::optional<LaunchDirective>& directive,
                                              Precision element, const SourceScan& scan,
                                              const std::string& file) {
    using Result = common::Expected<std::string>;
    if (!directive || directive->exercise.empty()) {
        return Result::success(exercise_layout_for(element, scan));
    }
    const std::string& id = directive->exercise;
    const std::vector<std::string> ids = exercise_layout_ids();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        return Result::failure(file + ":" + std::to_string(directive->line) + ": exercise '" + id +
                               "' is not one tclens runs (" + common::join(ids, ", ") + ")");
    }
    if (exercise_element(id) != element) {
        return Result::failure(file + ":" + std::to_string(directive->line) + ": exercise " + id +
                               " does not read " + element_spelling(element) + " inputs");
    }
    return Result::success(id);
}

}  // namespace

common::Expected<Discovered> discover_kernel(const std::string& source, const std::string& file,
                                             const KernelRef& ref) {
    using Result = common::Expected<Discovered>;
    const SourceScan scan = scan_source(source);
    auto directives = find_launch_directives(source);
    if (!directives) return Result::failure(file + ": " + directives.error());

    // Picks the function, by name or by the rules in the header.
    const Candidates candidates = candidates_of(scan);
    const FunctionChoice chosen = ref.entry.empty()
                                      ? found_function(scan, candidates, *directives, file)
                                      : named_function(scan, candidates, ref.entry, file);
    if (!chosen) return Result::failure(chosen.error());

    const ScannedFunction& f = **chosen;
    const std::string where = at_line(file, f);
    Discovered out;
    out.function = f;
    auto directive = directive_for(f, *directives, file);
    if (!directive) return Result::failure(directive.error());
    const std::optional<Precision> directive_type =
        *directive ? (*directive)->type : std::optional<Precision>{};
    if (*directive) out.directive = **directive;

    if (f.space == FunctionSpace::kHost) {
        auto sig = match_gemm_signature(f, true);
        if (!sig) return Result::failure(where + sig.error());
        out.form = KernelForm::kHostLauncher;
        out.signature = *sig;
        if (sig->workspace) {
            auto workspace_size = workspace_size_function(f, candidates, file);
            if (!workspace_size) return Result::failure(workspace_size.error());
            out.workspace_size = *workspace_size;
        }
        auto precision =
            gemm_precision(sig->element, ref, directive_type, scan.mentions_tf32, where);
        if (!precision) return Result::failure(precision.error());
        out.precision = *precision;
        return Result::success(out);
    }

    // __global__: a directive kernel or an exercise.
    auto sig = match_gemm_signature(f, false);
    if (sig) {
        if (!*directive || !(*directive)->has_launch()) {
            return Result::failure(no_directive_error(file, f));
        }
        out.form = KernelForm::kDirectiveKernel;
        out.signature = *sig;
        out.directive = **directive;
        auto precision =
            gemm_precision(sig->element, ref, directive_type, scan.mentions_tf32, where);
        if (!precision) return Result::failure(precision.error());
        out.precision = *precision;
        return Result::success(out);
    }
    auto element = match_exercise_signature(f);
    if (!element) {
        return Result::failure(where + sig.error() +
                               "; nor is it a fragment exercise (const T* "
                               "a, const T* b, float* c)");
    }
    out.form = KernelForm::kFragmentExercise;
    out.precision = *element;
    auto layout = exercise_layout(*directive, *element, scan, file);
    if (!layout) return Result::failure(layout.error());
    out.exercise_layout = *layout;
    return Result::success(out);
}

}  // namespace tclens::kernels::user
