#include "kernels/user/kernel_ref.h"

#include <cctype>

namespace tclens::kernels::user {
namespace {

bool is_identifier(const std::string& text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    for (char c : text) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    }
    return true;
}

// "fn", "ns::fn", "::fn", "a::b::fn".
bool is_function_name(const std::string& text) {
    std::size_t start = text.rfind("::", 0) == 0 ? 2 : 0;
    while (true) {
        const std::size_t sep = text.find("::", start);
        if (!is_identifier(text.substr(start, sep - start))) return false;
        if (sep == std::string::npos) return true;
        start = sep + 2;
    }
}

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The length of the path part: the end of the first ".cu" or ".cuh" followed by ':' or the end
// of the text; npos when there is none.
std::size_t path_length(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i + 1 < text.size() && text[i] == ':' && text[i + 1] == ':') {
            ++i;  // "::" belongs to a qualified name, never ends a path
            continue;
        }
        if (text[i] != ':') continue;
        const std::string head = text.substr(0, i);
        if (ends_with(head, ".cu") || ends_with(head, ".cuh")) return i;
    }
    return ends_with(text, ".cu") || ends_with(text, ".cuh") ? text.size() : std::string::npos;
}

}  // namespace

common::Expected<KernelRef> parse_kernel_ref(const std::string& text) {
    using Result = common::Expected<KernelRef>;
    const std::string named = "kernel '" + text + "': ";
    const std::size_t length = path_length(text);
    if (length == std::string::npos || length == 0) {
        return Result::failure(named + "not a CUDA file (the path must end in .cu or .cuh)");
    }
    KernelRef ref;
    ref.path = text.substr(0, length);
    if (ref.path == ".cu" || ref.path == ".cuh" || ends_with(ref.path, "/.cu") ||
        ends_with(ref.path, "/.cuh")) {
        return Result::failure(named + "the file name is empty");
    }
    std::string rest = length < text.size() ? text.substr(length + 1) : "";
    if (length < text.size() && rest.empty()) {
        return Result::failure(named +
                               "nothing after ':' (write path.cu:NAME, path.cu:TYPE or "
                               "path.cu:NAME:TYPE)");
    }
    // rest = "", "NAME", "TYPE" or "NAME:TYPE" (NAME may hold "::").
    std::string type_text;
    const std::size_t last = rest.rfind(':');
    if (last != std::string::npos && (last == 0 || rest[last - 1] != ':')) {
        type_text = rest.substr(last + 1);
        rest = rest.substr(0, last);
        if (!precision_from_name(type_text)) {
            return Result::failure(named + "'" + type_text +
                                   "' is not an input type (one of f32, tf32, f16, bf16)");
        }
    } else if (precision_from_name(rest)) {
        type_text = rest;
        rest.clear();
    }
    if (!rest.empty() && !is_function_name(rest)) {
        return Result::failure(named + "'" + rest +
                               "' is neither a function name nor one of f32, tf32, f16, bf16");
    }
    ref.entry = rest;
    if (!type_text.empty()) ref.precision = precision_from_name(type_text);
    return Result::success(ref);
}

bool names_kernel_file(const std::string& value) {
    if (value.find('/') != std::string::npos) return true;
    return path_length(value) != std::string::npos;
}

std::string user_kernel_id(const KernelRef& ref) {
    std::string stem = ref.path;
    const std::size_t slash = stem.rfind('/');
    if (slash != std::string::npos) stem = stem.substr(slash + 1);
    stem = stem.substr(0, stem.rfind('.'));
    std::string id = "yours." + stem;
    if (!ref.entry.empty()) {
        const std::size_t sep = ref.entry.rfind("::");
        id += "." + (sep == std::string::npos ? ref.entry : ref.entry.substr(sep + 2));
    }
    return id;
}

}  // namespace tclens::kernels::user
