#pragma once
// The SASS census built into the binary: what `cuobjdump -sass` read from tclens_kernels when
// it was built, one entry per (architecture, __global__ function). Defined only by the source
// the census tool generates in the build folder (census_source.h); kernels/instruction_mix.h
// is the way to read it.

#include "kernels/sass_census/op_class.h"

namespace tclens::kernels {

struct CensusEntry {
    const char* arch;      // "sm_90a"
    const char* function;  // demangled
    int counts[kOpClassCount];
};

struct Census {
    const CensusEntry* entries;  // nullptr when count is 0
    int count;
    const char* origin;   // how it was read: "cuobjdump -sass .../libtclens_kernels.a"; "" if not
    const char* missing;  // why there are no entries; "" when there are
};

const Census& built_in_census();

}  // namespace tclens::kernels
