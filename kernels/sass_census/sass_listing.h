#pragma once
// Reads the text `cuobjdump -sass` prints for a binary (an executable, object or static library
// with CUDA fat binaries) into static instruction counts per __global__ function and per
// architecture. The lines it reads, everything else skipped:
//   code for sm_90a                            the architecture of the functions that follow
//   Function : _ZN6tclens7kernels...           a new function, by its mangled symbol
//   /*0040*/  @!P0 HMMA.16816.F32 R4, ... ;    one instruction: offset, optional predicate, opcode
// Skipped: encoding words ("/* 0x000fe4... */"), labels (".L_x_3:"), .headerflags, archive
// member names, PTX sections.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/sass_census/op_class.h"

namespace tclens::kernels {

// One function's static counts in one architecture's cubin.
struct FunctionMix {
    std::string arch;      // as cuobjdump names the cubin: "sm_80", "sm_89", "sm_90a"
    std::string function;  // demangled, e.g. "void tclens::kernels::(anonymous
                           // namespace)::wmma_gemm_kernel<__half>(__half const*, ...)"
    OpCounts counts{};
};

// Fed one line at a time, so a listing of hundreds of megabytes is never held whole.
class SassListingReader {
  public:
    void add_line(std::string_view line);
    // Every function read, in listing order. A symbol listed twice for one architecture (the
    // same template in two objects) counts once: the first listing.
    const std::vector<FunctionMix>& functions() const { return functions_; }

  private:
    std::vector<FunctionMix> functions_;
    std::map<std::string, size_t> seen_;  // arch + ' ' + mangled symbol -> index in functions_
    std::string arch_;
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t current_ = kNone;  // index of the function receiving instructions; kNone: skip them
};

// The whole listing at once (tests, small files).
std::vector<FunctionMix> parse_sass_listing(std::string_view text);

// Itanium demangling, as c++filt does; `symbol` itself when it does not demangle.
std::string demangle_symbol(const std::string& symbol);

}  // namespace tclens::kernels
