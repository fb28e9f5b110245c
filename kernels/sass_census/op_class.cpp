#include "kernels/sass_census/op_class.h"

namespace tclens::kernels {
namespace {

struct OpClassInfo {
    const char* label;
    const char* key;
    std::array<std::string_view, 2> opcodes;  // base opcodes (before the first '.'); "": none
};

// In OpClass order.
const std::array<OpClassInfo, kOpClassCount>& op_class_table() {
    static const std::array<OpClassInfo, kOpClassCount> table = {{
        {"HMMA", "hmma", {"HMMA"}},
        {"HGMMA", "hgmma", {"HGMMA"}},
        {"IMMA", "imma", {"IMMA"}},
        {"FFMA", "ffma", {"FFMA"}},
        {"FMUL/FADD", "fmul_fadd", {"FMUL", "FADD"}},
        {"LDS/LDSM", "lds_ldsm", {"LDS", "LDSM"}},
        {"STS", "sts", {"STS"}},
        {"LDG/LDGSTS", "ldg_ldgsts", {"LDG", "LDGSTS"}},
        {"UTMALDG", "utmaldg", {"UTMALDG"}},
        {"BAR", "bar", {"BAR"}},
        {"total", "total", {}},
    }};
    return table;
}

}  // namespace

const char* op_class_label(OpClass op) { return op_class_table()[static_cast<size_t>(op)].label; }

const char* op_class_key(OpClass op) { return op_class_table()[static_cast<size_t>(op)].key; }

std::optional<OpClass> op_class_of(std::string_view opcode) {
    const std::string_view base = opcode.substr(0, opcode.find('.'));
    for (int i = 0; i < kOpClassCount; ++i) {
        for (std::string_view candidate : op_class_table()[static_cast<size_t>(i)].opcodes) {
            if (!candidate.empty() && candidate == base) return static_cast<OpClass>(i);
        }
    }
    return std::nullopt;
}

void count_instruction(OpCounts& counts, std::string_view opcode) {
    ++counts[static_cast<size_t>(OpClass::kTotal)];
    if (const auto op = op_class_of(opcode)) ++counts[static_cast<size_t>(*op)];
}

}  // namespace tclens::kernels
