#pragma once
// The classes of SASS instructions an instruction mix counts: the ones that tell whether a
// kernel reaches the tensor cores (HMMA: mma.sync and wmma; HGMMA: Hopper's wgmma; IMMA: integer
// MMA), the FP32 pipe (FFMA, FMUL/FADD), and how it moves data (shared memory, global memory,
// TMA, barriers). Pure C++: the build-time census tool and the app share it.

#include <array>
#include <optional>
#include <string_view>

namespace tclens::kernels {

// Display order; kTotal is every instruction, these classes and all others.
enum class OpClass {
    kHmma,
    kHgmma,
    kImma,
    kFfma,
    kFmulFadd,
    kLdsLdsm,
    kSts,
    kLdgLdgsts,
    kUtmaldg,
    kBar,
    kTotal
};
inline constexpr int kOpClassCount = 11;

// Static instruction counts (in the binary, not executed), indexed by OpClass.
using OpCounts = std::array<int, kOpClassCount>;

inline int count_of(const OpCounts& counts, OpClass op) { return counts[static_cast<size_t>(op)]; }

const char* op_class_label(OpClass op);  // "HMMA", "FMUL/FADD", "LDG/LDGSTS", "total"
const char* op_class_key(OpClass op);    // for JSON: "hmma", "fmul_fadd", "ldg_ldgsts", "total"

// The class of a SASS opcode, its modifiers ignored; nullopt for the opcodes no class holds.
// Never kTotal. "HMMA.16816.F32.BF16" -> kHmma, "LDSM.16.M88.4" -> kLdsLdsm,
// "LDGSTS.E.BYPASS.128" -> kLdgLdgsts, "UTMALDG.2D" -> kUtmaldg, "IMAD.WIDE" -> nullopt.
std::optional<OpClass> op_class_of(std::string_view opcode);

// Counts one instruction of `opcode` into `counts`: kTotal and, when it has one, its class. The
// one place every census (build-time listing, source profile, a user's cubin) counts.
void count_instruction(OpCounts& counts, std::string_view opcode);

}  // namespace tclens::kernels
