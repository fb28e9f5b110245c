#include "kernels/user/source_scan.h"

#include <algorithm>
#include <cctype>

#include "common/one_line.h"
#include "common/text.h"

namespace tclens::kernels::user {
namespace {

enum class TokenKind { kWord, kNumber, kString, kPunct };

struct Token {
    TokenKind kind;
    std::string text;
    int line;
};

bool is_word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Notes "tf32" and mma shapes ("m16n8k8") in code or literal text.
void note_code_text(const std::string& text, SourceScan& scan) {
    if (text.find("tf32") != std::string::npos || text.find("TF32") != std::string::npos) {
        scan.mentions_tf32 = true;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != 'm' || (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))))
            continue;
        std::size_t j = i + 1;
        auto digits = [&] {
            const std::size_t from = j;
            while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
            return j > from;
        };
        if (!digits() || j >= text.size() || text[j] != 'n') continue;
        ++j;
        if (!digits() || j >= text.size() || text[j] != 'k') continue;
        ++j;
        if (!digits()) continue;
        if (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) continue;
        const std::string shape = text.substr(i, j - i);
        if (std::find(scan.mma_shapes.begin(), scan.mma_shapes.end(), shape) ==
            scan.mma_shapes.end()) {
            scan.mma_shapes.push_back(shape);
        }
    }
}

// Splits the source into tokens, dropping comments and preprocessor lines.
std::vector<Token> tokenize(const std::string& s, SourceScan& scan) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    int line = 1;
    bool line_start = true;  // only blanks so far on this line
    const std::size_t n = s.size();
    while (i < n) {
        const char c = s[i];
        if (c == '\n') {
            ++line;
            ++i;
            line_start = true;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                    ++line;
                    ++i;
                }
                ++i;
            }
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
                if (s[i] == '\n') ++line;
                ++i;
            }
            i = std::min(n, i + 2);
            continue;
        }
        if (c == '#' && line_start) {
            const std::size_t from = i;
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                    ++line;
                    ++i;
                } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
                    break;  // a comment ends the directive's text (the loop above skips it)
                }
                ++i;
            }
            note_code_text(s.substr(from, i - from), scan);
            continue;
        }
        line_start = false;
        // Raw string literal: R"delim( ... )delim" (with an optional encoding prefix).
        if (c == 'R' && i + 1 < n && s[i + 1] == '"') {
            const std::size_t open = s.find('(', i + 2);
            if (open != std::string::npos) {
                const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
                const std::size_t end = s.find(close, open + 1);
                const std::size_t stop = end == std::string::npos ? n : end + close.size();
                const std::string body = s.substr(i, stop - i);
                line += static_cast<int>(std::count(body.begin(), body.end(), '\n'));
                note_code_text(body, scan);
                tokens.push_back({TokenKind::kString, body, line});
                i = stop;
                continue;
            }
        }
        if (c == '"' || c == '\'') {
            const std::size_t from = i;
            const int first_line = line;
            ++i;
            while (i < n && s[i] != c && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n) {
                    if (s[i + 1] == '\n') ++line;
                    ++i;
                }
                ++i;
            }
            if (i < n && s[i] == c) ++i;
            const std::string body = s.substr(from, i - from);
            note_code_text(body, scan);
            tokens.push_back({TokenKind::kString, body, first_line});
            continue;
        }
        if (is_word_start(c)) {
            const std::size_t from = i;
            while (i < n && is_word_char(s[i])) ++i;
            std::string word = s.substr(from, i - from);
            note_code_text(word, scan);
            tokens.push_back({TokenKind::kWord, std::move(word), line});
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            const std::size_t from = i;
            while (i < n && (is_word_char(s[i]) || s[i] == '.' || s[i] == '\'')) ++i;
            tokens.push_back({TokenKind::kNumber, s.substr(from, i - from), line});
            continue;
        }
        if (c == ':' && i + 1 < n && s[i + 1] == ':') {
            tokens.push_back({TokenKind::kPunct, "::", line});
            i += 2;
            continue;
        }
        if (c == '-' && i + 1 < n && s[i + 1] == '>') {
            tokens.push_back({TokenKind::kPunct, "->", line});
            i += 2;
            continue;
        }
        tokens.push_back({TokenKind::kPunct, std::string(1, c), line});
        ++i;
    }
    return tokens;
}

bool is(const Token& t, const char* text) { return t.text == text && t.kind != TokenKind::kString; }

// Words that look like a call but are attributes or specifiers with arguments.
bool is_attribute_word(const std::string& w) {
    static const char* const kWords[] = {
        "__launch_bounds__", "__attribute__", "__declspec",  "alignas",          "__align__",
        "decltype",          "noexcept",      "__maxnreg__", "__cluster_dims__", "sizeof",
        "static_assert",     "__nv_pure__",   "throw"};
    for (const char* k : kWords) {
        if (w == k) return true;
    }
    return false;
}

// Specifiers that are not part of a function's result type.
bool is_specifier(const std::string& w) {
    static const char* const kWords[] = {"__global__",      "__device__",
                                         "__host__",        "static",
                                         "inline",          "extern",
                                         "__forceinline__", "__noinline__",
                                         "constexpr",       "virtual",
                                         "explicit",        "friend",
                                         "__inline__",      "__launch_bounds__",
                                         "__maxnreg__",     "__cluster_dims__"};
    for (const char* k : kWords) {
        if (w == k) return true;
    }
    return false;
}

bool is_type_keyword(const std::string& w) {
    static const char* const kWords[] = {
        "int",  "long", "short", "unsigned", "signed",       "char",       "float",    "double",
        "void", "bool", "const", "volatile", "__restrict__", "__restrict", "restrict", "auto"};
    for (const char* k : kWords) {
        if (w == k) return true;
    }
    return false;
}

// Index of the token matching the opener at `open` ('(' '[' '{'), or tokens.size().
std::size_t matching(const std::vector<Token>& t, std::size_t open) {
    const std::string opener = t[open].text;
    const std::string closer = opener == "(" ? ")" : opener == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
        if (t[i].kind != TokenKind::kPunct) continue;
        if (t[i].text == opener) ++depth;
        if (t[i].text == closer && --depth == 0) return i;
    }
    return t.size();
}

std::string join(const std::vector<Token>& t, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) {
        if (!out.empty() && !(t[i].text == "::" || (i > from && t[i - 1].text == "::"))) out += ' ';
        out += t[i].text;
    }
    return out;
}

std::vector<ScannedParam> parse_params(const std::vector<Token>& t, std::size_t open,
                                       std::size_t close) {
    std::vector<ScannedParam> params;
    std::size_t start = open + 1;
    int depth = 0;
    for (std::size_t i = open + 1; i <= close; ++i) {
        const bool end = i == close;
        if (!end && t[i].kind == TokenKind::kPunct) {
            const std::string& x = t[i].text;
            if (x == "(" || x == "[" || x == "{" || x == "<") ++depth;
            if (x == ")" || x == "]" || x == "}" || x == ">") --depth;
        }
        if (!end && !(depth == 0 && is(t[i], ","))) continue;
        std::size_t stop = i;
        for (std::size_t j = start; j < i; ++j) {
            if (is(t[j], "=")) {
                stop = j;  // default argument
                break;
            }
        }
        if (stop > start) {
            ScannedParam p;
            std::size_t type_end = stop;
            const Token& last = t[stop - 1];
            std::size_t non_cv = 0;
            for (std::size_t j = start; j + 1 < stop; ++j) {
                if (!is(t[j], "const") && !is(t[j], "volatile")) ++non_cv;
            }
            if (last.kind == TokenKind::kWord && !is_type_keyword(last.text) && non_cv > 0 &&
                !(stop - 1 > start && is(t[stop - 2], "::"))) {
                p.name = last.text;
                type_end = stop - 1;
            }
            p.type = join(t, start, type_end);
            params.push_back(p);
        }
        start = i + 1;
    }
    if (params.size() == 1 && params[0].type == "void" && params[0].name.empty()) params.clear();
    return params;
}

class Scanner {
  public:
    Scanner(const std::vector<Token>& tokens, SourceScan& scan) : t_(tokens), scan_(scan) {}

    void run() {
        std::size_t i = 0;
        while (i < t_.size()) i = declaration(i);
    }

  private:
    std::string scope_prefix() const {
        std::string out;
        for (const std::string& name : scopes_) {
            if (!name.empty()) out += name + "::";
        }
        return out;
    }

    // Handles one namespace-scope item starting at `i`; returns the index after it.
    std::size_t declaration(std::size_t i) {
        if (is(t_[i], "}")) {
            if (!scopes_.empty()) scopes_.pop_back();
            return i + 1;
        }
        if (is(t_[i], ";")) return i + 1;
        if (is(t_[i], "namespace") ||
            (is(t_[i], "inline") && i + 1 < t_.size() && is(t_[i + 1], "namespace"))) {
            std::size_t j = is(t_[i], "inline") ? i + 2 : i + 1;
            std::string name;
            while (j < t_.size() && (t_[j].kind == TokenKind::kWord || is(t_[j], "::")) &&
                   !is(t_[j], "inline")) {
                name += t_[j].text;
                ++j;
            }
            if (j < t_.size() && is(t_[j], "inline")) ++j;  // namespace a::inline b
            if (j < t_.size() && is(t_[j], "{")) {
                scopes_.push_back(name);
                return j + 1;
            }
            return skip_to_semicolon(j);  // namespace alias
        }
        if (is(t_[i], "extern") && i + 2 < t_.size() && t_[i + 1].kind == TokenKind::kString &&
            is(t_[i + 2], "{")) {
            scopes_.push_back("");
            return i + 3;
        }
        // Collect up to ';' or '{' at depth 0.
        std::size_t j = i;
        int depth = 0;
        while (j < t_.size()) {
            const Token& x = t_[j];
            if (x.kind == TokenKind::kPunct) {
                if (x.text == "(" || x.text == "[") ++depth;
                if (x.text == ")" || x.text == "]") --depth;
                if (depth <= 0 && (x.text == ";" || x.text == "{" || x.text == "}")) break;
            }
            ++j;
        }
        if (j >= t_.size()) return j;
        if (is(t_[j], ";")) return j + 1;
        if (is(t_[j], "}")) return j;  // unbalanced: let the caller pop the scope
        // '{' : a function body, or a class/enum/initialiser body.
        const std::size_t body_end = matching(t_, j);
        if (!function_definition(i, j)) {
            return body_end >= t_.size() ? body_end : skip_to_semicolon_after_body(body_end + 1);
        }
        return body_end + 1;
    }

    std::size_t skip_to_semicolon(std::size_t j) {
        while (j < t_.size() && !is(t_[j], ";")) {
            if (is(t_[j], "{")) j = matching(t_, j);
            ++j;
        }
        return j + 1;
    }

    // After a non-function body: `struct S { ... } s;` continues to ';'.
    std::size_t skip_to_semicolon_after_body(std::size_t j) {
        if (j < t_.size() && is(t_[j], ";")) return j + 1;
        // `namespace x { struct S {...} }` or a function-try body: stop at '}' or ';'.
        while (j < t_.size() && !is(t_[j], ";") && !is(t_[j], "}")) {
            if (is(t_[j], "{")) j = matching(t_, j);
            ++j;
        }
        return j < t_.size() && is(t_[j], ";") ? j + 1 : j;
    }

    // Records a function if tokens [from, brace) are `specifiers type name ( params ) ...`.
    bool function_definition(std::size_t from, std::size_t brace) {
        std::size_t k = from;
        bool is_template = false;
        if (is(t_[k], "template")) {
            is_template = true;
            ++k;
            if (k < brace && is(t_[k], "<")) {
                int depth = 0;
                for (; k < brace; ++k) {
                    if (is(t_[k], "<")) ++depth;
                    if (is(t_[k], ">") && --depth == 0) break;
                }
                ++k;
            }
        }
        for (std::size_t m = k; m < brace; ++m) {
            if (is(t_[m], "=") || is(t_[m], "class") || is(t_[m], "struct") || is(t_[m], "union") ||
                is(t_[m], "enum") || is(t_[m], "operator"))
                return false;
            if (is(t_[m], "(")) break;
        }
        // The first '(' at depth 0 preceded by a name that is not an attribute word.
        std::size_t open = brace;
        for (std::size_t m = k; m < brace; ++m) {
            if (!is(t_[m], "(")) continue;
            if (m > k && t_[m - 1].kind == TokenKind::kWord && !is_attribute_word(t_[m - 1].text)) {
                open = m;
                break;
            }
            m = matching(t_, m);
        }
        if (open >= brace) return false;
        const std::size_t close = matching(t_, open);
        if (close >= brace) return false;
        // Between ')' and '{' only qualifiers, attributes, a trailing return or `: init` lists.
        for (std::size_t m = close + 1; m < brace; ++m) {
            if (is(t_[m], "=")) return false;
        }
        ScannedFunction f;
        f.name = t_[open - 1].text;
        f.line = t_[open - 1].line;
        f.is_template = is_template;
        std::size_t name_start = open - 1;
        while (name_start >= k + 2 && is(t_[name_start - 1], "::") &&
               t_[name_start - 2].kind == TokenKind::kWord) {
            name_start -= 2;
        }
        f.qualified = scope_prefix() + join(t_, name_start, open);
        bool global = false, device = false, host = false;
        std::vector<Token> result;
        for (std::size_t m = k; m < name_start; ++m) {
            const Token& x = t_[m];
            if (x.kind == TokenKind::kWord && is_attribute_word(x.text) && m + 1 < name_start &&
                is(t_[m + 1], "(")) {
                m = matching(t_, m + 1);
                continue;
            }
            if (is(x, "[") && m + 1 < name_start && is(t_[m + 1], "[")) {
                m = matching(t_, m);
                continue;
            }
            if (is(x, "__global__")) global = true;
            if (is(x, "__device__")) device = true;
            if (is(x, "__host__")) host = true;
            if (is(x, "static")) f.is_static = true;
            if (x.kind == TokenKind::kWord && is_specifier(x.text)) continue;
            if (x.kind == TokenKind::kString) continue;  // extern "C"
            result.push_back(x);
        }
        if (result.empty()) return false;  // a call or a constructor, not a definition
        f.space = global            ? FunctionSpace::kGlobal
                  : device && !host ? FunctionSpace::kDevice
                                    : FunctionSpace::kHost;
        f.result = join(result, 0, result.size());
        f.params = parse_params(t_, open, close);
        scan_.functions.push_back(std::move(f));
        return true;
    }

    const std::vector<Token>& t_;
    SourceScan& scan_;
    std::vector<std::string> scopes_;
};

}  // namespace

SourceScan scan_source(const std::string& source) {
    SourceScan scan;
    const std::vector<Token> tokens = tokenize(source, scan);
    Scanner(tokens, scan).run();
    return scan;
}

std::string signature_text(const ScannedFunction& function) {
    const auto param = [](const ScannedParam& p) {
        return p.type + (p.name.empty() ? "" : " " + p.name);
    };
    const std::string text = function.result + " " + function.name + "(" +
                             common::join(function.params, ", ", param) + ")";
    // A parameter's tokens may hold a string literal continued over a line (found by
    // fuzz_kernel_discovery): one line, and cut, for the error line it goes into.
    return common::one_line_excerpt(text, 160);
}

}  // namespace tclens::kernels::user
