#pragma once
// A kernel's instruction mix: static counts per instruction class over the functions its launch
// runs, in one architecture's SASS. Plain C++ (tclens_sass_census): the census makes them
// (kernels/instruction_mix.h), recordings carry them and a client shows them.

#include <string>

#include "kernels/sass_census/op_class.h"

namespace tclens::kernels {

struct InstructionMix {
    std::string arch;   // the cubin the counts come from: "sm_90a"
    int functions = 0;  // functions summed: every instantiation of the kernel's function
    OpCounts counts{};
    int operator[](OpClass op) const { return count_of(counts, op); }
};

}  // namespace tclens::kernels
