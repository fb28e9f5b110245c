#include "kernels/user/compile_log.h"

#include <cctype>
#include <sstream>

namespace tclens::kernels::user {
namespace {

std::string without_folder(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string trim(const std::string& text) {
    std::size_t a = 0;
    std::size_t b = text.size();
    while (a < b && std::isspace(static_cast<unsigned char>(text[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
    return text.substr(a, b - a);
}

bool all_digits(const std::string& text) {
    if (text.empty()) return false;
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

bool is_severity(const std::string& s) {
    return s == "error" || s == "warning" || s == "catastrophic error" || s == "remark" ||
           s == "fatal error" || s == "note";
}

struct Parsed {
    std::string path;
    int line = 0;
    std::string severity;
    std::string message;
};

// "<path>(<line>): <severity>[ #123-D]: <message>" (EDG: nvcc's front end and NVRTC) or
// "<path>:<line>:<col>: <severity>: <message>" (the host compiler).
bool parse_line(const std::string& text, Parsed& out) {
    const std::size_t paren = text.find("): ");
    if (paren != std::string::npos) {
        const std::size_t open = text.rfind('(', paren);
        if (open != std::string::npos && open > 0 &&
            all_digits(text.substr(open + 1, paren - open - 1))) {
            const std::size_t colon = text.find(": ", paren + 3);
            if (colon != std::string::npos) {
                std::string severity = text.substr(paren + 3, colon - paren - 3);
                const std::size_t hash = severity.find(" #");
                if (hash != std::string::npos) severity = severity.substr(0, hash);
                if (is_severity(severity)) {
                    out.path = text.substr(0, open);
                    out.line = std::stoi(text.substr(open + 1, paren - open - 1));
                    out.severity = severity;
                    out.message = trim(text.substr(colon + 2));
                    return true;
                }
            }
        }
    }
    // path:line:col: severity: message
    std::size_t search = 0;
    while (true) {
        const std::size_t c1 = text.find(':', search);
        if (c1 == std::string::npos) return false;
        const std::size_t c2 = text.find(':', c1 + 1);
        if (c2 == std::string::npos) return false;
        const std::size_t c3 = text.find(':', c2 + 1);
        if (c3 != std::string::npos && all_digits(text.substr(c1 + 1, c2 - c1 - 1)) &&
            all_digits(text.substr(c2 + 1, c3 - c2 - 1)) && c3 + 2 <= text.size()) {
            const std::size_t c4 = text.find(": ", c3 + 2);
            if (c4 != std::string::npos) {
                const std::string severity = trim(text.substr(c3 + 1, c4 - c3 - 1));
                if (is_severity(severity)) {
                    out.path = text.substr(0, c1);
                    out.line = std::stoi(text.substr(c1 + 1, c2 - c1 - 1));
                    out.severity = severity;
                    out.message = trim(text.substr(c4 + 2));
                    return true;
                }
            }
        }
        search = c1 + 1;
    }
}

bool same_file(const std::string& a, const std::string& b) {
    return a == b || (!without_folder(a).empty() && without_folder(a) == without_folder(b));
}

}  // namespace

std::vector<Diagnostic> user_diagnostics(const std::string& log, const std::string& user_path,
                                         const std::string& shown_name) {
    std::vector<Diagnostic> out;
    std::istringstream lines(log);
    std::string text;
    while (std::getline(lines, text)) {
        if (!text.empty() && text.back() == '\r') text.pop_back();
        Parsed p;
        if (!parse_line(text, p) || !same_file(p.path, user_path) || p.line <= 0) continue;
        Diagnostic d;
        d.line = p.line;
        d.severity = p.severity == "fatal error" ? "error" : p.severity;
        d.message = p.message;
        d.text = shown_name + ":" + std::to_string(p.line) + ": " + d.severity + ": " + p.message;
        bool repeated = false;
        for (const Diagnostic& seen : out) repeated |= seen.text == d.text;
        if (!repeated) out.push_back(d);
    }
    return out;
}

std::string first_error_line(const std::vector<Diagnostic>& diagnostics) {
    const Diagnostic* first = nullptr;
    int errors = 0;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity.find("error") == std::string::npos) continue;
        if (first == nullptr) first = &d;
        ++errors;
    }
    if (first == nullptr) return "";
    std::string line = first->text;
    if (errors > 1) {
        line +=
            " (and " + std::to_string(errors - 1) + " more error" + (errors > 2 ? "s" : "") + ")";
    }
    return line;
}

std::string tool_error_line(const std::string& log, const std::string& hidden_path) {
    // The linker names the object it was linking (the shim's): keep only what it misses.
    const std::size_t undefined = log.find("undefined reference to");
    if (undefined != std::string::npos) {
        const std::size_t end = log.find('\n', undefined);
        return "link error: " + log.substr(undefined, end == std::string::npos ? std::string::npos
                                                                               : end - undefined);
    }
    std::istringstream lines(log);
    std::string text;
    while (std::getline(lines, text)) {
        std::string lower = text;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find("error") == std::string::npos &&
            lower.find("undefined") == std::string::npos)
            continue;
        if (!hidden_path.empty() && (text.find(hidden_path) != std::string::npos ||
                                     text.find(without_folder(hidden_path)) != std::string::npos))
            continue;
        if (lower.find("error detected in the compilation") != std::string::npos ||
            lower.find("errors detected in the compilation") != std::string::npos)
            continue;
        // Shorten absolute paths ("/tmp/tclens-x/shim.ptx" -> "shim.ptx").
        std::string shown;
        std::istringstream words(trim(text));
        std::string word;
        while (words >> word) {
            if (word.size() > 1 && word[0] == '/') word = without_folder(word);
            shown += (shown.empty() ? "" : " ") + word;
        }
        return shown;
    }
    return "";
}

}  // namespace tclens::kernels::user
