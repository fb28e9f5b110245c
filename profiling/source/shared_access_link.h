#pragma once
// Which of a ladder kernel's declared shared-memory accesses (kernels/shared_access.h,
// "KERNEL/ACCESS" in the bank lab) a SASS instruction of that kernel executes, so that a
// conflicting LDS/LDSM/STS/LDGSTS in the source view opens the Banks panel on the access that
// models it. Pure: the registry's declarations, the opcode and the CUDA lines it came from.
//
// Rules:
//   1. the opcode gives the access kind and width:
//        LDSM.16.M88.4 -> ldmatrix.x4, LDSM.16.MT88.2 -> ldmatrix.x2.trans,
//        LDGSTS.E.BYPASS.128 -> cp.async of 16 bytes, LDS.64 -> lds of 8 bytes (LDS, LDS.U32:
//        4), STS.128 -> sts of 16 bytes;
//   2. the kernel's accesses of that kind are the candidates; for lds/sts/cp.async those of the
//      same width, else (the compiler widened a load) every one of the kind;
//   3. one candidate: that one. Several (A and B both cp.async.16, say): the operand is read off
//      the source lines the instruction came from, innermost first, ignoring string literals and
//      comments: the first line naming exactly one operand decides (identifiers a, a_tile,
//      a_dst_, f.a, kARowBytes name A; b... name B); a line naming both leaves it open.
// Example: mma_cp_async.f16, LDGSTS.E.BYPASS.128 from "ptx::cp_async_16(stage + a_dst_ + ...)"
// -> "mma_cp_async.f16/A.cp.async".

#include <optional>
#include <string>
#include <vector>

namespace tclens::profiling {

// LDS*, LDSM*, STS*, LDGSTS*: the instructions that read or write shared memory through the LSU.
bool is_shared_memory_opcode(const std::string& opcode);

// 'A' or 'B' when `line` (CUDA source) names exactly one of the two operands, else nullopt.
std::optional<char> operand_named_by(const std::string& line);

struct SharedAccessLink {
    std::string access;                   // "KERNEL/LABEL", or "" when none or several fit
    std::vector<std::string> candidates;  // every declared access the opcode fits
};

// `lines`: the text of the instruction's source lines, innermost first (may be empty).
SharedAccessLink link_shared_access(const std::string& kernel_id, const std::string& opcode,
                                    const std::vector<std::string>& lines);

}  // namespace tclens::profiling
