#include "kernels/user/launch_directive.h"

#include <cctype>
#include <limits>

namespace tclens::kernels::user {

// An expression tree node: a number, a size (M, N, K), or an operator with two operands
// (unary minus is 0 - x).
struct SizeExpr::Node {
    enum class Kind { kNumber, kM, kN, kK, kAdd, kSub, kMul, kDiv, kMod, kCdiv, kMin, kMax };
    Kind kind = Kind::kNumber;
    std::int64_t number = 0;
    std::shared_ptr<const Node> left, right;
    std::string text;  // the subexpression as written, for errors
};

namespace {

using Node = SizeExpr::Node;
using Kind = Node::Kind;
using NodePtr = std::shared_ptr<const Node>;

std::string sizes_text(const GemmProblem& p) {
    return "M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) + " K=" + std::to_string(p.k);
}

bool add_overflows(std::int64_t a, std::int64_t b, std::int64_t& out) {
    return __builtin_add_overflow(a, b, &out);
}

// Recursive evaluation; "" or one line of error.
std::string eval(const Node& node, const GemmProblem& p, std::int64_t& out) {
    switch (node.kind) {
        case Kind::kNumber:
            out = node.number;
            return "";
        case Kind::kM:
            out = p.m;
            return "";
        case Kind::kN:
            out = p.n;
            return "";
        case Kind::kK:
            out = p.k;
            return "";
        default:
            break;
    }
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::string error = eval(*node.left, p, a);
    if (error.empty()) error = eval(*node.right, p, b);
    if (!error.empty()) return error;
    const std::string at = node.text + " at " + sizes_text(p);
    bool overflow = false;
    switch (node.kind) {
        case Kind::kAdd:
            overflow = add_overflows(a, b, out);
            break;
        case Kind::kSub:
            overflow = __builtin_sub_overflow(a, b, &out);
            break;
        case Kind::kMul:
            overflow = __builtin_mul_overflow(a, b, &out);
            break;
        case Kind::kDiv:
        case Kind::kMod:
            if (b == 0) return node.text + ": division by zero at " + sizes_text(p);
            if (a == std::numeric_limits<std::int64_t>::min() && b == -1) {
                overflow = true;
                break;
            }
            out = node.kind == Kind::kDiv ? a / b : a % b;
            break;
        case Kind::kCdiv:
            if (b <= 0) return node.text + ": cdiv needs a divisor >= 1 at " + sizes_text(p);
            overflow = add_overflows(a, b - 1, out);
            if (!overflow) out /= b;
            break;
        case Kind::kMin:
            out = a < b ? a : b;
            break;
        case Kind::kMax:
            out = a < b ? b : a;
            break;
        default:
            break;
    }
    if (overflow) return at + ": overflows 64-bit integers";
    return "";
}

// Recursive-descent parser over one expression text (the grammar in the header).
class ExprParser {
  public:
    explicit ExprParser(const std::string& text) : text_(text) {}

    common::Expected<SizeExpr> parse() {
        NodePtr root = expr();
        if (error_.empty() && !at_end()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
        if (!error_.empty()) return common::Expected<SizeExpr>::failure(error_);
        return common::Expected<SizeExpr>::success(SizeExpr(root, compact(text_)));
    }

  private:
    static std::string compact(const std::string& text) {
        std::string out;
        for (char c : text) {
            if (!std::isspace(static_cast<unsigned char>(c))) out += c;
        }
        return out;
    }

    void skip_blanks() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool at_end() {
        skip_blanks();
        return pos_ >= text_.size();
    }
    bool accept(char c) {
        skip_blanks();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void fail(const std::string& what) {
        if (error_.empty()) {
            error_ = "'" + text_ + "': " + what + " at position " + std::to_string(pos_ + 1);
        }
    }
    NodePtr make(Kind kind, NodePtr left, NodePtr right, std::size_t start) {
        auto node = std::make_shared<Node>();
        node->kind = kind;
        node->left = std::move(left);
        node->right = std::move(right);
        node->text = compact(text_.substr(start, pos_ - start));
        return node;
    }

    NodePtr expr() {
        skip_blanks();
        const std::size_t start = pos_;
        NodePtr left = term();
        while (error_.empty()) {
            if (accept('+')) {
                NodePtr right = term();
                left = make(Kind::kAdd, left, right, start);
            } else if (accept('-')) {
                NodePtr right = term();
                left = make(Kind::kSub, left, right, start);
            } else {
                break;
            }
        }
        return left;
    }

    NodePtr term() {
        skip_blanks();
        const std::size_t start = pos_;
        NodePtr left = unary();
        while (error_.empty()) {
            Kind kind;
            if (accept('*')) {
                kind = Kind::kMul;
            } else if (accept('/')) {
                kind = Kind::kDiv;
            } else if (accept('%')) {
                kind = Kind::kMod;
            } else {
                break;
            }
            NodePtr right = unary();
            left = make(kind, left, right, start);
        }
        return left;
    }

    NodePtr unary() {
        skip_blanks();
        const std::size_t start = pos_;
        if (accept('-')) {
            if (++depth_ > kMaxDepth) {
                fail("nested too deeply");
                return nullptr;
            }
            NodePtr operand = unary();
            --depth_;
            auto zero = std::make_shared<Node>();
            zero->text = "0";
            return make(Kind::kSub, zero, operand, start);
        }
        return primary();
    }

    NodePtr primary() {
        skip_blanks();
        const std::size_t start = pos_;
        if (pos_ >= text_.size()) {
            fail("expected a number, M, N, K, cdiv, min, max or '(' but the text ends");
            return nullptr;
        }
        const char c = text_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            std::int64_t value = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                if (__builtin_mul_overflow(value, 10, &value) ||
                    __builtin_add_overflow(value, text_[pos_] - '0', &value)) {
                    fail("number too large");
                    return nullptr;
                }
                ++pos_;
            }
            auto node = std::make_shared<Node>();
            node->number = value;
            node->text = text_.substr(start, pos_ - start);
            return node;
        }
        if (c == '(') {
            ++pos_;
            if (++depth_ > kMaxDepth) {
                fail("nested too deeply");
                return nullptr;
            }
            NodePtr inner = expr();
            --depth_;
            if (error_.empty() && !accept(')')) fail("expected ')'");
            return inner;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t end = pos_;
            while (end < text_.size() &&
                   (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_'))
                ++end;
            const std::string word = text_.substr(pos_, end - pos_);
            if (word == "M" || word == "N" || word == "K") {
                pos_ = end;
                auto node = std::make_shared<Node>();
                node->kind = word == "M" ? Kind::kM : word == "N" ? Kind::kN : Kind::kK;
                node->text = word;
                return node;
            }
            if (word == "cdiv" || word == "min" || word == "max") {
                pos_ = end;
                if (!accept('(')) {
                    fail("expected '(' after " + word);
                    return nullptr;
                }
                if (++depth_ > kMaxDepth) {
                    fail("nested too deeply");
                    return nullptr;
                }
                NodePtr left = expr();
                if (error_.empty() && !accept(',')) fail("expected ',' in " + word + "(a, b)");
                NodePtr right = error_.empty() ? expr() : nullptr;
                --depth_;
                if (error_.empty() && !accept(')')) fail("expected ')' after " + word + "(a, b");
                if (!error_.empty()) return nullptr;
                const Kind kind = word == "cdiv"  ? Kind::kCdiv
                                  : word == "min" ? Kind::kMin
                                                  : Kind::kMax;
                return make(kind, left, right, start);
            }
            fail("unknown name '" + word + "' (sizes are M, N, K; functions cdiv, min, max)");
            return nullptr;
        }
        fail("unexpected '" + std::string(1, c) + "'");
        return nullptr;
    }

    static constexpr int kMaxDepth = 64;
    const std::string& text_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::string error_;
};

// Splits the text after "tclens:" into items at blanks outside parentheses.
std::vector<std::string> split_items(const std::string& text, std::string& error) {
    std::vector<std::string> items;
    std::string current;
    int depth = 0;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c)) && depth == 0) {
            if (!current.empty()) items.push_back(current);
            current.clear();
            continue;
        }
        if (c == '(') ++depth;
        if (c == ')' && --depth < 0) {
            error = "')' without '('";
            return {};
        }
        current += c;
    }
    if (depth > 0) {
        error = "'(' without ')'";
        return {};
    }
    if (!current.empty()) items.push_back(current);
    return items;
}

// Splits "a, b, c" at top-level commas.
std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    std::string current;
    int depth = 0;
    for (char c : text) {
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(current);
            current.clear();
            continue;
        }
        current += c;
    }
    parts.push_back(current);
    return parts;
}

bool is_qualified_name(const std::string& text) {
    if (text.empty()) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t sep = text.find("::", start);
        const std::string part = text.substr(start, sep - start);
        if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0]))) return false;
        for (char c : part) {
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
        }
        if (sep == std::string::npos) return true;
        start = sep + 2;
    }
}

// The position just after "tclens:" in a directive line, or npos.
std::size_t directive_body(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (line.compare(i, 2, "//") != 0) return std::string::npos;
    i += 2;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (line.compare(i, 7, "tclens:") != 0) return std::string::npos;
    return i + 7;
}

}  // namespace

SizeExpr::SizeExpr(std::shared_ptr<const Node> root, std::string text)
    : root_(std::move(root)), text_(std::move(text)) {}

std::optional<std::int64_t> SizeExpr::constant() const {
    if (empty()) return 0;
    const auto a = evaluate({1, 1, 1});
    const auto b = evaluate({4099, 4093, 4091});
    if (!a || !b || *a != *b) return std::nullopt;
    return *a;
}

common::Expected<std::int64_t> SizeExpr::evaluate(const GemmProblem& problem) const {
    if (root_ == nullptr) return common::Expected<std::int64_t>::failure("empty expression");
    std::int64_t value = 0;
    const std::string error = eval(*root_, problem, value);
    if (!error.empty()) return common::Expected<std::int64_t>::failure(error);
    return common::Expected<std::int64_t>::success(value);
}

common::Expected<SizeExpr> parse_size_expr(const std::string& text) {
    return ExprParser(text).parse();
}

bool is_directive_line(const std::string& line) {
    return directive_body(line) != std::string::npos;
}

common::Expected<LaunchDirective> parse_launch_directive(const std::string& line, int line_number) {
    using Result = common::Expected<LaunchDirective>;
    const std::string where = "line " + std::to_string(line_number) + ": tclens directive: ";
    const std::size_t body = directive_body(line);
    if (body == std::string::npos) {
        return Result::failure(where + "expected '// tclens:' at the start of the line");
    }
    std::string error;
    const std::vector<std::string> items = split_items(line.substr(body), error);
    if (!error.empty()) return Result::failure(where + error);
    if (items.empty())
        return Result::failure(where +
                               "no keys (keys: grid, block, smem, type, "
                               "kernel, exercise, include)");
    LaunchDirective d;
    d.line = line_number;
    std::vector<std::string> seen;
    auto parse_dims = [&](const std::string& key, const std::string& value,
                          std::array<SizeExpr, 3>& dims) -> std::string {
        std::string inner = value;
        bool tuple = false;
        if (inner.size() >= 2 && inner.front() == '(' && inner.back() == ')') {
            // "(a, b)" is a tuple unless the outer parentheses close early: "(N)/(2)".
            int depth = 0;
            tuple = true;
            for (std::size_t i = 0; i + 1 < inner.size(); ++i) {
                if (inner[i] == '(') ++depth;
                if (inner[i] == ')' && --depth == 0) tuple = false;
            }
        }
        std::vector<std::string> parts{inner};
        if (tuple) {
            parts = split_commas(inner.substr(1, inner.size() - 2));
            if (parts.size() > 3) return key + ": at most 3 dimensions (x, y, z)";
        }
        for (std::size_t i = 0; i < parts.size(); ++i) {
            auto parsed = parse_size_expr(parts[i]);
            if (!parsed) return key + ": " + parsed.error();
            dims[i] = *parsed;
        }
        for (std::size_t i = parts.size(); i < 3; ++i) dims[i] = *parse_size_expr("1");
        return "";
    };
    for (const std::string& item : items) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            return Result::failure(where + "'" + item + "' is not KEY=VALUE");
        }
        const std::string key = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        if (key != "grid" && key != "block" && key != "smem" && key != "type" && key != "kernel" &&
            key != "exercise" && key != "include") {
            return Result::failure(where + "unknown key '" + key +
                                   "' (keys: grid, block, smem, type, kernel, exercise, include)");
        }
        for (const std::string& s : seen) {
            if (s == key) return Result::failure(where + key + "= given twice");
        }
        seen.push_back(key);
        if (value.empty()) return Result::failure(where + key + "= has no value");
        if (key == "grid" || key == "block") {
            const std::string failed = parse_dims(key, value, key == "grid" ? d.grid : d.block);
            if (!failed.empty()) return Result::failure(where + failed);
        } else if (key == "smem") {
            auto parsed = parse_size_expr(value);
            if (!parsed) return Result::failure(where + "smem: " + parsed.error());
            d.smem = *parsed;
        } else if (key == "type") {
            d.type = precision_from_name(value);
            if (!d.type) {
                return Result::failure(where + "type '" + value +
                                       "' is not one of f32, tf32, f16, bf16");
            }
        } else if (key == "kernel") {
            if (!is_qualified_name(value)) {
                return Result::failure(where + "kernel '" + value + "' is not a function name");
            }
            d.kernel = value;
        } else if (key == "exercise") {
            d.exercise = value;
        } else {
            d.include = value;
        }
    }
    if (d.grid[0].empty() != d.block[0].empty()) {
        return Result::failure(
            where + (d.grid[0].empty() ? "block= needs grid= too" : "grid= needs block= too"));
    }
    if (!d.smem.empty() && d.grid[0].empty()) {
        return Result::failure(where + "smem= needs grid= and block=");
    }
    return Result::success(d);
}

common::Expected<std::vector<LaunchDirective>> find_launch_directives(const std::string& source) {
    using Result = common::Expected<std::vector<LaunchDirective>>;
    std::vector<LaunchDirective> found;
    std::size_t start = 0;
    int line_number = 1;
    while (start <= source.size()) {
        std::size_t end = source.find('\n', start);
        if (end == std::string::npos) end = source.size();
        std::string line = source.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (is_directive_line(line)) {
            auto parsed = parse_launch_directive(line, line_number);
            if (!parsed) return Result::failure(parsed.error());
            found.push_back(*parsed);
        }
        if (end == source.size()) break;
        start = end + 1;
        ++line_number;
    }
    return Result::success(found);
}

common::Expected<LaunchGeometry> launch_geometry(const LaunchDirective& directive,
                                                 const GemmProblem& problem,
                                                 const LaunchLimits& limits) {
    using Result = common::Expected<LaunchGeometry>;
    LaunchGeometry g;
    static const char* const kAxis[3] = {"x", "y", "z"};
    const std::string at = " at " + sizes_text(problem);
    for (int i = 0; i < 3; ++i) {
        for (const bool is_grid : {true, false}) {
            const SizeExpr& e = is_grid ? directive.grid[i] : directive.block[i];
            const char* what = is_grid ? "grid" : "block";
            if (e.empty()) return Result::failure(std::string(what) + " is not given");
            auto value = e.evaluate(problem);
            if (!value)
                return Result::failure(std::string(what) + "." + kAxis[i] + ": " + value.error());
            const std::int64_t max = is_grid ? limits.max_grid[i] : limits.max_block[i];
            if (*value < 1 || *value > max) {
                return Result::failure(std::string(what) + "." + kAxis[i] + " = " + e.text() +
                                       " = " + std::to_string(*value) + at + ": must be 1.." +
                                       std::to_string(max));
            }
            (is_grid ? g.grid : g.block)[i] = *value;
        }
    }
    const std::int64_t threads = g.block[0] * g.block[1] * g.block[2];
    if (threads > limits.max_threads_per_block) {
        return Result::failure("block = (" + std::to_string(g.block[0]) + "," +
                               std::to_string(g.block[1]) + "," + std::to_string(g.block[2]) +
                               "): " + std::to_string(threads) + " threads, at most " +
                               std::to_string(limits.max_threads_per_block));
    }
    if (!directive.smem.empty()) {
        auto value = directive.smem.evaluate(problem);
        if (!value) return Result::failure("smem: " + value.error());
        if (*value < 0 || *value > limits.max_dynamic_smem) {
            return Result::failure(
                "smem = " + directive.smem.text() + " = " + std::to_string(*value) + " bytes" + at +
                ": this GPU allows 0.." + std::to_string(limits.max_dynamic_smem));
        }
        g.smem = *value;
    }
    return Result::success(g);
}

int constant_threads(const LaunchDirective& directive) {
    std::int64_t threads = 1;
    for (const SizeExpr& e : directive.block) {
        const auto value = e.constant();
        if (!value || e.empty()) return 0;
        threads *= *value;
    }
    return static_cast<int>(threads);
}

std::string launch_geometry_text(const LaunchGeometry& geometry) {
    const auto triple = [](const std::array<std::int64_t, 3>& v) {
        return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
               std::to_string(v[2]) + ")";
    };
    std::string text = "grid " + triple(geometry.grid) + " x block " + triple(geometry.block);
    if (geometry.smem > 0) {
        text += ", " + std::to_string(geometry.smem) + " B dynamic shared memory";
    }
    return text;
}

}  // namespace tclens::kernels::user
