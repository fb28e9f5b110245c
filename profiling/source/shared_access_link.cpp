#include "profiling/source/shared_access_link.h"

#include <cctype>

#include "common/text.h"
#include "kernels/shared_access.h"

namespace tclens::profiling {
namespace {

// The dot-separated parts of an opcode after its name: "LDSM.16.MT88.4" -> {"16", "MT88", "4"}.
std::vector<std::string> modifiers(const std::string& opcode) {
    std::vector<std::string> parts;
    std::size_t at = opcode.find('.');
    while (at != std::string::npos) {
        const std::size_t next = opcode.find('.', at + 1);
        parts.push_back(opcode.substr(at + 1, next == std::string::npos ? next : next - at - 1));
        at = next;
    }
    return parts;
}

std::string name_of(const std::string& opcode) { return opcode.substr(0, opcode.find('.')); }

// What the opcode does, as the bank lab's pattern names say it.
struct AccessKind {
    std::string family;    // "ldmatrix", "cp.async", "lds", "sts"
    std::string exact;     // ldmatrix only: the pattern name, "ldmatrix.x4.trans"
    int access_bytes = 0;  // lds, sts, cp.async: bytes per lane
};

std::optional<AccessKind> kind_of(const std::string& opcode) {
    const std::string name = name_of(opcode);
    const std::vector<std::string> parts = modifiers(opcode);
    const auto has = [&parts](const char* part) {
        for (const std::string& p : parts) {
            if (p == part) return true;
        }
        return false;
    };
    AccessKind kind;
    if (name == "LDSM") {
        std::string count = "1";
        for (const char* n : {"2", "4"}) {
            if (has(n)) count = n;
        }
        kind.family = "ldmatrix";
        kind.exact = "ldmatrix.x" + count + (has("MT88") ? ".trans" : "");
        return kind;
    }
    const int bytes = has("128") ? 16 : has("64") ? 8 : 4;
    if (name == "LDGSTS") {
        kind.family = "cp.async";
        kind.access_bytes = bytes;
        return kind;
    }
    if (name == "LDS" || name == "STS") {
        kind.family = name == "LDS" ? "lds" : "sts";
        kind.access_bytes = bytes;
        return kind;
    }
    return std::nullopt;
}

bool in_family(const kernels::KernelAccess& access, const AccessKind& kind) {
    return common::starts_with(access.pattern.name, (kind.family + ".").c_str()) ||
           access.pattern.name == kind.family;
}

// Identifiers of `line` outside string and character literals and // comments.
std::vector<std::string> identifiers(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote != 0) {
            if (c == '\\') {
                ++i;
            } else if (c == quote) {
                quote = 0;
            }
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
            break;
        }
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            word += c;
            continue;
        }
        if (!word.empty() && !std::isdigit(static_cast<unsigned char>(word.front()))) {
            words.push_back(word);
        }
        word.clear();
    }
    if (!word.empty() && !std::isdigit(static_cast<unsigned char>(word.front()))) {
        words.push_back(word);
    }
    return words;
}

// Whether identifier `word` names operand `operand` ('a' or 'b').
bool names_operand(const std::string& word, char operand) {
    std::string lower;
    for (char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string letter(1, operand);
    if (lower == letter || common::starts_with(lower, (letter + "_").c_str()) ||
        common::ends_with(lower, "_" + letter) ||
        lower.find("_" + letter + "_") != std::string::npos) {
        return true;
    }
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(operand)));
    if (word == std::string("s") + upper || word == std::string(1, upper) + "s") return true;
    // kARowBytes: a constant about A.
    return word.size() >= 3 && word[0] == 'k' && word[1] == upper &&
           std::isupper(static_cast<unsigned char>(word[2]));
}

// Which operands the identifiers of `line` name.
struct Mentions {
    bool a = false;
    bool b = false;
};
Mentions operand_mentions(const std::string& line) {
    Mentions mentions;
    for (const std::string& word : identifiers(line)) {
        mentions.a = mentions.a || names_operand(word, 'a');
        mentions.b = mentions.b || names_operand(word, 'b');
    }
    return mentions;
}

}  // namespace

bool is_shared_memory_opcode(const std::string& opcode) {
    const std::string name = name_of(opcode);
    return name == "LDS" || name == "LDSM" || name == "STS" || name == "LDGSTS";
}

std::optional<char> operand_named_by(const std::string& line) {
    const Mentions mentions = operand_mentions(line);
    if (mentions.a == mentions.b) return std::nullopt;
    return mentions.a ? 'A' : 'B';
}

SharedAccessLink link_shared_access(const std::string& kernel_id, const std::string& opcode,
                                    const std::vector<std::string>& lines) {
    SharedAccessLink link;
    const std::optional<AccessKind> kind = kind_of(opcode);
    if (!kind) return link;
    std::vector<const kernels::KernelAccess*> same_kind;
    std::vector<const kernels::KernelAccess*> exact;
    for (const kernels::KernelAccess& access : kernels::kernel_accesses()) {
        if (access.kernel == nullptr || access.kernel->id != kernel_id) continue;
        if (!in_family(access, *kind)) continue;
        same_kind.push_back(&access);
        const bool fits = kind->exact.empty() ? access.pattern.access_bytes == kind->access_bytes
                                              : access.pattern.name == kind->exact;
        if (fits) exact.push_back(&access);
    }
    // ldmatrix has no "widened" form: a different shape is a different access.
    const std::vector<const kernels::KernelAccess*>& fitting =
        !exact.empty() || !kind->exact.empty() ? exact : same_kind;
    for (const kernels::KernelAccess* access : fitting) link.candidates.push_back(access->name);
    if (fitting.size() == 1) {
        link.access = fitting.front()->name;
        return link;
    }
    if (fitting.empty()) return link;
    for (const std::string& line : lines) {
        const Mentions mentions = operand_mentions(line);
        if (!mentions.a && !mentions.b) continue;
        if (mentions.a && mentions.b) return link;
        const char operand = mentions.a ? 'A' : 'B';
        const kernels::KernelAccess* chosen = nullptr;
        for (const kernels::KernelAccess* access : fitting) {
            if (access->access->operand != operand) continue;
            if (chosen != nullptr) return link;  // two of one operand: still open
            chosen = access;
        }
        if (chosen != nullptr) link.access = chosen->name;
        return link;
    }
    return link;
}

}  // namespace tclens::profiling
