// libFuzzer harness for kernels/user/source_scan.h and discovery.h: finding the launcher, kernel
// or exercise in a user's file.
//
// Input: line 1 the kernel ref ("k.cu", "k.cu:launch", "k.cu:tf32"), the rest the source.
// Invariants:
//   - scanning never fails; every function found has a non-empty name ending its qualified
//     name and a line within the source;
//   - discovery gives either one line of error, or a function of the right kind: a host
//     launcher is a host function with an accepted signature, a directive kernel a __global__
//     with one and a directive with grid= and block=, an exercise a __global__ (a, b, c) with a
//     layout tclens runs; a named function is the one named.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/user/discovery.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens::kernels::user;
    const std::vector<std::string> fields = tclens::fuzz::split_fields(data, size, 2);
    const std::string& source = fields[1];
    const SourceScan scan = scan_source(source);
    const int lines = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
    for (const ScannedFunction& f : scan.functions) {
        TCLENS_FUZZ_CHECK(!f.name.empty(), source);
        TCLENS_FUZZ_CHECK(f.qualified.size() >= f.name.size() &&
                              f.qualified.compare(f.qualified.size() - f.name.size(),
                                                  std::string::npos, f.name) == 0,
                          f.qualified + " / " + f.name);
        TCLENS_FUZZ_CHECK(f.line >= 1 && f.line <= lines, f.name);
        signature_text(f);
    }
    auto ref = parse_kernel_ref(fields[0]);
    if (!ref.ok()) {
        TCLENS_FUZZ_CHECK(!ref.error().empty(), fields[0]);
        return 0;
    }
    auto found = discover_kernel(source, "k.cu", *ref);
    if (!found.ok()) {
        TCLENS_FUZZ_CHECK(found.error().rfind("k.cu", 0) == 0, found.error());
        TCLENS_FUZZ_CHECK(found.error().find('\n') == std::string::npos, found.error());
        return 0;
    }
    const Discovered& d = *found;
    switch (d.form) {
        case KernelForm::kHostLauncher:
            TCLENS_FUZZ_CHECK(d.function.space == FunctionSpace::kHost, d.function.qualified);
            TCLENS_FUZZ_CHECK(match_gemm_signature(d.function, true).ok(), d.function.qualified);
            TCLENS_FUZZ_CHECK(!d.signature.workspace || !d.workspace_size.empty(),
                              d.function.qualified);
            break;
        case KernelForm::kDirectiveKernel:
            TCLENS_FUZZ_CHECK(d.function.space == FunctionSpace::kGlobal, d.function.qualified);
            TCLENS_FUZZ_CHECK(match_gemm_signature(d.function, false).ok(), d.function.qualified);
            TCLENS_FUZZ_CHECK(d.directive.has_launch(), d.function.qualified);
            break;
        case KernelForm::kFragmentExercise: {
            TCLENS_FUZZ_CHECK(d.function.space == FunctionSpace::kGlobal, d.function.qualified);
            TCLENS_FUZZ_CHECK(match_exercise_signature(d.function).ok(), d.function.qualified);
            const std::vector<std::string> ids = exercise_layout_ids();
            TCLENS_FUZZ_CHECK(std::find(ids.begin(), ids.end(), d.exercise_layout) != ids.end(),
                              d.exercise_layout);
            break;
        }
    }
    TCLENS_FUZZ_CHECK(!d.function.is_template, d.function.qualified);
    if (!ref->entry.empty()) {
        const std::string& q = d.function.qualified;
        const std::string wanted =
            ref->entry.rfind("::", 0) == 0 ? ref->entry.substr(2) : ref->entry;
        TCLENS_FUZZ_CHECK(
            d.function.name == wanted || q == wanted ||
                (q.size() > wanted.size() &&
                 q.compare(q.size() - wanted.size() - 2, std::string::npos, "::" + wanted) == 0),
            q + " for " + ref->entry);
    }
    return 0;
}
