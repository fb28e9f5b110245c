#include "kernels/user/fragment_exercise.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "common/text.h"
#include "kernels/user/discovery.h"

namespace tclens::kernels::user {
namespace {

struct Shape {
    int rows, cols, depth;
};

Shape shape_of(const viz::FragmentLayout& layout) {
    const viz::OperandLayout* a = layout.find(viz::Operand::A);
    const viz::OperandLayout* b = layout.find(viz::Operand::B);
    return {a->rows, b->cols, a->cols};
}

float code_c(const Shape& s, int i, int j) { return static_cast<float>(1 + i * s.cols + j); }
float code_b(const Shape& s, int k, int n) { return static_cast<float>(1 + k * s.cols + n); }
float code_a(const Shape& s, int m, int k) { return static_cast<float>(1 + m * s.depth + k); }

std::string place(int row, int col) {
    return "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
}

struct Entry {
    int row, col;
    float value;
};

// The nonzero (and NaN) entries of a rows x cols output.
std::vector<Entry> nonzero(const std::vector<float>& out, int rows, int cols) {
    std::vector<Entry> found;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const float v = out[static_cast<std::size_t>(r) * cols + c];
            if (v != 0.0f || std::isnan(v)) found.push_back({r, c, v});
        }
    }
    return found;
}

// Where each memory element of an operand acted in the instruction: index row * cols + col ->
// (row, col) of the instruction's operand. The identity unless measured otherwise.
using Placement = std::vector<std::pair<int, int>>;

Placement identity(int rows, int cols) {
    Placement p;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) p.emplace_back(r, c);
    }
    return p;
}

// Decodes a one-hot experiment's output. For A, values are code_b(k', n') of b's memory element
// (k', n'), which acted as B (kh, nh) = other[k', n']; found at (r, s) with nh == s in one row r
// and one kh for all, the element acted as A (r, kh). For B, values are code_a(m', k') of a's
// element, which acted as A (mh, kh) = other[m', k']; found at (r, s) with mh == r in one column
// s and one kh for all, the element acted as B (kh, s). Correct when it acted as itself in every
// column (A) or row (B).
void decode_one_hot(ExerciseElement& e, const std::vector<float>& out, const Shape& s,
                    bool operand_a, const Placement& other) {
    e.correct = false;
    e.went_row = e.went_col = -1;
    const std::vector<Entry> found = nonzero(out, s.rows, s.cols);
    for (const Entry& x : found) {
        if (std::isnan(x.value) || std::isinf(x.value)) {
            e.outcome = "not a number at " + place(x.row, x.col) + " of c";
            return;
        }
    }
    if (found.empty()) {
        e.outcome = "lost: c stayed zero";
        return;
    }
    const int limit = operand_a ? s.depth * s.cols : s.rows * s.depth;
    int went_row = -1;
    int went_col = -1;
    bool consistent = true;
    for (const Entry& x : found) {
        const int code = static_cast<int>(x.value);
        if (static_cast<float>(code) != x.value || code < 1 || code > limit) {
            consistent = false;
            break;
        }
        const std::pair<int, int> acted = other[static_cast<std::size_t>(code - 1)];
        int r = 0;
        int c = 0;
        if (operand_a) {  // b element acted as B (kh, nh)
            consistent = acted.second == x.col;
            r = x.row;
            c = acted.first;
        } else {  // a element acted as A (mh, kh)
            consistent = acted.first == x.row;
            r = acted.second;
            c = x.col;
        }
        if (went_row >= 0 && (r != went_row || c != went_col)) consistent = false;
        if (!consistent) break;
        went_row = r;
        went_col = c;
    }
    if (!consistent) {
        const Entry& x = found.front();
        char value[32];
        std::snprintf(value, sizeof value, "%g", static_cast<double>(x.value));
        e.outcome = "spread over " + std::to_string(found.size()) + " places of c, first " +
                    place(x.row, x.col) + " = " + value;
        return;
    }
    const int expected_count = operand_a ? s.cols : s.rows;
    const bool complete = static_cast<int>(found.size()) == expected_count;
    if (complete && went_row == e.row && went_col == e.col) {
        e.correct = true;
        e.outcome.clear();
        return;
    }
    e.went_row = went_row;
    e.went_col = went_col;
    e.outcome = "went to " + place(went_row, went_col);
    if (!complete) {
        e.outcome += " (seen in " + std::to_string(found.size()) + " of " +
                     std::to_string(expected_count) + (operand_a ? " columns)" : " rows)");
    }
}

// Every element's place as an operand decoded it, when each has one and no two share it.
std::optional<Placement> measured_placement(const ExerciseOperand& op) {
    Placement p;
    std::vector<bool> taken(op.elements.size(), false);
    for (const ExerciseElement& e : op.elements) {
        const int r = e.correct ? e.row : e.went_row;
        const int c = e.correct ? e.col : e.went_col;
        if (r < 0 || c < 0 || r >= op.rows || c >= op.cols) return std::nullopt;
        const std::size_t at = static_cast<std::size_t>(r) * op.cols + c;
        if (taken[at]) return std::nullopt;
        taken[at] = true;
        p.emplace_back(r, c);
    }
    return p;
}

ExerciseOperand operand_of(const viz::FragmentLayout& layout, viz::Operand op) {
    const viz::OperandLayout* l = layout.find(op);
    ExerciseOperand out;
    out.operand = op;
    out.rows = l->rows;
    out.cols = l->cols;
    out.elements.resize(static_cast<std::size_t>(l->rows) * l->cols);
    for (int r = 0; r < l->rows; ++r) {
        for (int c = 0; c < l->cols; ++c) {
            ExerciseElement& e = out.elements[static_cast<std::size_t>(r) * l->cols + c];
            e.row = r;
            e.col = c;
        }
    }
    for (const viz::LayoutElement& slot : l->elements) {
        ExerciseElement& e = out.elements[static_cast<std::size_t>(slot.row) * l->cols + slot.col];
        e.lane = slot.lane;
        e.reg = slot.reg;
        e.sub = slot.sub;
    }
    return out;
}

}  // namespace

bool is_exercise_layout(const std::string& layout_id) {
    const std::vector<std::string> ids = exercise_layout_ids();
    return std::find(ids.begin(), ids.end(), layout_id) != ids.end();
}

ExercisePlan plan_exercise(const std::string& layout_id) {
    const viz::FragmentLayout layout = *viz::fragment_layout(layout_id);
    const Shape s = shape_of(layout);
    ExercisePlan plan;
    plan.layout_id = layout_id;
    plan.rows = s.rows;
    plan.cols = s.cols;
    plan.depth = s.depth;
    const std::size_t a_count = static_cast<std::size_t>(s.rows) * s.depth;
    const std::size_t b_count = static_cast<std::size_t>(s.depth) * s.cols;
    const std::size_t c_count = static_cast<std::size_t>(s.rows) * s.cols;
    auto blank = [&](viz::Operand op, int row, int col) {
        ExerciseExperiment x;
        x.operand = op;
        x.row = row;
        x.col = col;
        x.a.assign(a_count, 0.0f);
        x.b.assign(b_count, 0.0f);
        x.c.assign(c_count, 0.0f);
        return x;
    };
    ExerciseExperiment c = blank(viz::Operand::C, -1, -1);
    for (int i = 0; i < s.rows; ++i) {
        for (int j = 0; j < s.cols; ++j)
            c.c[static_cast<std::size_t>(i) * s.cols + j] = code_c(s, i, j);
    }
    plan.experiments.push_back(c);
    for (int m = 0; m < s.rows; ++m) {
        for (int k = 0; k < s.depth; ++k) {
            ExerciseExperiment x = blank(viz::Operand::A, m, k);
            x.a[static_cast<std::size_t>(m) * s.depth + k] = 1.0f;
            for (int kk = 0; kk < s.depth; ++kk) {
                for (int n = 0; n < s.cols; ++n) {
                    x.b[static_cast<std::size_t>(kk) * s.cols + n] = code_b(s, kk, n);
                }
            }
            plan.experiments.push_back(x);
        }
    }
    for (int k = 0; k < s.depth; ++k) {
        for (int n = 0; n < s.cols; ++n) {
            ExerciseExperiment x = blank(viz::Operand::B, k, n);
            x.b[static_cast<std::size_t>(k) * s.cols + n] = 1.0f;
            for (int m = 0; m < s.rows; ++m) {
                for (int kk = 0; kk < s.depth; ++kk) {
                    x.a[static_cast<std::size_t>(m) * s.depth + kk] = code_a(s, m, kk);
                }
            }
            plan.experiments.push_back(x);
        }
    }
    ExerciseExperiment product = blank(viz::Operand::D, -1, -1);
    for (int m = 0; m < s.rows; ++m) {
        for (int k = 0; k < s.depth; ++k) {
            product.a[static_cast<std::size_t>(m) * s.depth + k] =
                static_cast<float>((3 * m + 7 * k + 1) % 7 - 3);
        }
    }
    for (int k = 0; k < s.depth; ++k) {
        for (int n = 0; n < s.cols; ++n) {
            product.b[static_cast<std::size_t>(k) * s.cols + n] =
                static_cast<float>((5 * k + 3 * n + 2) % 7 - 3);
        }
    }
    product.c = c.c;
    plan.experiments.push_back(product);
    return plan;
}

ExerciseReport decode_exercise(const ExercisePlan& plan,
                               const std::vector<std::vector<float>>& outputs) {
    const viz::FragmentLayout layout = *viz::fragment_layout(plan.layout_id);
    const Shape s{plan.rows, plan.cols, plan.depth};
    ExerciseReport report;
    report.layout_id = plan.layout_id;
    ExerciseOperand a = operand_of(layout, viz::Operand::A);
    ExerciseOperand b = operand_of(layout, viz::Operand::B);
    ExerciseOperand c = operand_of(layout, viz::Operand::C);
    const std::size_t c_count = static_cast<std::size_t>(s.rows) * s.cols;
    // The one-hot experiments' outputs by operand element (empty where missing).
    std::vector<const std::vector<float>*> a_out(a.elements.size(), nullptr);
    std::vector<const std::vector<float>*> b_out(b.elements.size(), nullptr);
    for (std::size_t e = 0; e < plan.experiments.size() && e < outputs.size(); ++e) {
        const ExerciseExperiment& x = plan.experiments[e];
        const std::vector<float>& out = outputs[e];
        if (out.size() != c_count) continue;
        switch (x.operand) {
            case viz::Operand::C:
                for (ExerciseElement& el : c.elements) {
                    const float code = code_c(s, el.row, el.col);
                    const float got = out[static_cast<std::size_t>(el.row) * s.cols + el.col];
                    if (got == code) continue;
                    el.correct = false;
                    std::vector<std::size_t> at;
                    for (std::size_t i = 0; i < out.size(); ++i) {
                        if (out[i] == code) at.push_back(i);
                    }
                    if (at.empty()) {
                        el.outcome = std::isnan(got) ? "lost: c at its place is not a number"
                                                     : "lost: its value appears nowhere in c";
                    } else {
                        el.went_row = static_cast<int>(at[0]) / s.cols;
                        el.went_col = static_cast<int>(at[0]) % s.cols;
                        el.outcome = "went to " + place(el.went_row, el.went_col);
                        if (at.size() > 1) {
                            el.outcome += " and " + std::to_string(at.size() - 1) + " more places";
                        }
                    }
                }
                break;
            case viz::Operand::A:
                a_out[static_cast<std::size_t>(x.row) * s.depth + x.col] = &out;
                break;
            case viz::Operand::B:
                b_out[static_cast<std::size_t>(x.row) * s.cols + x.col] = &out;
                break;
            case viz::Operand::D: {
                std::vector<float> expected = x.c;
                for (int m = 0; m < s.rows; ++m) {
                    for (int n = 0; n < s.cols; ++n) {
                        float sum = expected[static_cast<std::size_t>(m) * s.cols + n];
                        for (int k = 0; k < s.depth; ++k) {
                            sum += x.a[static_cast<std::size_t>(m) * s.depth + k] *
                                   x.b[static_cast<std::size_t>(k) * s.cols + n];
                        }
                        expected[static_cast<std::size_t>(m) * s.cols + n] = sum;
                    }
                }
                report.product_correct = out == expected;
                break;
            }
            case viz::Operand::E:  // sparse metadata: no exercise layout is mma.sp
                break;
        }
    }
    // A is decoded assuming B is read right, and B assuming A is; where one of them decodes to
    // a clean permutation, the other is decoded again through it, so one wrong operand does not
    // make the other look wrong.
    auto decode = [&](ExerciseOperand& op, const std::vector<const std::vector<float>*>& outs,
                      bool is_a, const Placement& other) {
        for (std::size_t i = 0; i < op.elements.size(); ++i) {
            ExerciseElement& el = op.elements[i];
            if (outs[i] == nullptr) {
                el.correct = false;
                el.outcome = "not run";
                continue;
            }
            decode_one_hot(el, *outs[i], s, is_a, other);
        }
    };
    decode(a, a_out, true, identity(s.depth, s.cols));
    decode(b, b_out, false, identity(s.rows, s.depth));
    const std::optional<Placement> a_places = measured_placement(a);
    const std::optional<Placement> b_places = measured_placement(b);
    if (a_places && !b_places) decode(b, b_out, false, *a_places);
    if (b_places && !a_places) decode(a, a_out, true, *b_places);
    for (ExerciseOperand* op : {&a, &b, &c}) {
        op->wrong =
            static_cast<int>(std::count_if(op->elements.begin(), op->elements.end(),
                                           [](const ExerciseElement& e) { return !e.correct; }));
        report.wrong += op->wrong;
    }
    report.operands = {a, b, c};
    return report;
}

std::string ExerciseReport::summary() const {
    if (wrong == 0 && product_correct) {
        return "ok: every element of A, B and C goes where " + layout_id + " puts it";
    }
    std::string text = common::join(operands, ", ", [](const ExerciseOperand& op) {
        return std::to_string(op.wrong) + " of " + std::to_string(op.elements.size()) + " " +
               viz::operand_letter(op.operand) + " elements";
    });
    const ExerciseElement* first = nullptr;
    char first_operand = 'A';
    for (const ExerciseOperand& op : operands) {
        for (const ExerciseElement& e : op.elements) {
            if (!e.correct && first == nullptr) {
                first = &e;
                first_operand = viz::operand_letter(op.operand);
            }
        }
    }
    text += " wrong";
    if (first != nullptr) {
        text += "; first: " + std::string(1, first_operand) + " " + place(first->row, first->col) +
                " " + first->outcome;
    }
    if (!product_correct) text += "; a*b + c on mixed inputs is not exact";
    return text;
}

}  // namespace tclens::kernels::user
