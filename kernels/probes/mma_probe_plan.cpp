// mma.sync probe plans and decoding; see mma_probe_plan.h.
#include "kernels/probes/mma_probe_plan.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace tclens::kernels {

namespace {

using ET = ElementType;
using MI = MmaInstruction;

// clang-format off
constexpr MmaProbeSpec kMmaProbeSpecs[] = {
    {"mma.m16n8k4.tf32",         MI::M16n8k4Tf32,     ET::Tf32, ET::F32, 80, PopcOp::kNone},
    {"mma.m16n8k8.tf32",         MI::M16n8k8Tf32,     ET::Tf32, ET::F32, 80, PopcOp::kNone},
    {"mma.m16n8k8.f16",          MI::M16n8k8F16,      ET::F16,  ET::F32, 80, PopcOp::kNone},
    {"mma.m16n8k16.f16",         MI::M16n8k16F16,     ET::F16,  ET::F32, 80, PopcOp::kNone},
    {"mma.m16n8k16.bf16",        MI::M16n8k16Bf16,    ET::Bf16, ET::F32, 80, PopcOp::kNone},
    {"mma.m16n8k32.s8",          MI::M16n8k32S8,      ET::S8,   ET::S32, 80, PopcOp::kNone},
    {"mma.m16n8k32.e4m3",        MI::M16n8k32E4m3,    ET::E4m3, ET::F32, 89, PopcOp::kNone},
    {"mma.m8n8k4.f64",           MI::M8n8k4F64,       ET::F64,  ET::F64, 80, PopcOp::kNone},
    {"mma.m16n8k8.bf16",         MI::M16n8k8Bf16,     ET::Bf16, ET::F32, 80, PopcOp::kNone},
    {"mma.m16n8k16.f16.f16acc",  MI::M16n8k16F16F16,  ET::F16,  ET::F16, 80, PopcOp::kNone},
    {"mma.m16n8k32.e5m2",        MI::M16n8k32E5m2,    ET::E5m2, ET::F32, 89, PopcOp::kNone},
    {"mma.m16n8k32.e4m3.f16acc", MI::M16n8k32E4m3F16, ET::E4m3, ET::F16, 89, PopcOp::kNone},
    {"mma.m16n8k32.e5m2.f16acc", MI::M16n8k32E5m2F16, ET::E5m2, ET::F16, 89, PopcOp::kNone},
    {"mma.m16n8k64.s4",          MI::M16n8k64S4,      ET::S4,   ET::S32, 80, PopcOp::kNone},
    {"mma.m16n8k64.u4",          MI::M16n8k64U4,      ET::U4,   ET::S32, 80, PopcOp::kNone},
    {"mma.m16n8k256.b1.and",     MI::M16n8k256B1And,  ET::B1,   ET::S32, 80, PopcOp::kAnd},
    {"mma.m16n8k256.b1.xor",     MI::M16n8k256B1Xor,  ET::B1,   ET::S32, 80, PopcOp::kXor},
    {"mma.m8n8k16.s8",           MI::M8n8k16S8,       ET::S8,   ET::S32, 80, PopcOp::kNone},
    {"mma.m8n8k32.s4",           MI::M8n8k32S4,       ET::S4,   ET::S32, 80, PopcOp::kNone},
};
// clang-format on

constexpr int kB1BitsPositions = 8;  // bits of k (K = 256) in D's 8 columns
constexpr int kB1BPositions = 9;     // bits of k + 1 (up to 256) down D's rows

struct MmaOperands {
    const viz::OperandLayout* a;
    const viz::OperandLayout* b;
    const viz::OperandLayout* c;
    const viz::OperandLayout* d;
};

std::string find_mma_operands(const viz::FragmentLayout& model, const MmaProbeSpec& spec,
                              MmaOperands& out) {
    out = {model.find(viz::Operand::A), model.find(viz::Operand::B), model.find(viz::Operand::C),
           model.find(viz::Operand::D)};
    if (!out.a || !out.b || !out.c || !out.d) {
        return model.id + ": the model lacks one of A, B, C, D";
    }
    if (model.threads != 32) {
        return model.id + ": mma.sync runs on 32 lanes, the model has " +
               std::to_string(model.threads);
    }
    const int m = out.a->rows, k = out.a->cols, n = out.b->cols;
    const int in_bits = element_bits(spec.input), acc_bits = element_bits(spec.accumulator);
    for (const std::string& error :
         {shape_error(spec.id, *out.a, m, k, in_bits), shape_error(spec.id, *out.b, k, n, in_bits),
          shape_error(spec.id, *out.c, m, n, acc_bits),
          shape_error(spec.id, *out.d, m, n, acc_bits)}) {
        if (!error.empty()) return error;
    }
    if (out.c->regs_per_thread != out.d->regs_per_thread) {
        return model.id + ": the model gives C and D different register counts";
    }
    if (k < 2 || n < 2 || m < 2) {
        return model.id + ": the probe needs M, N, K >= 2";
    }
    return "";
}

struct Images {
    size_t a_words, b_words, c_words;
};

Images image_sizes(const MmaOperands& ops, int threads) {
    return {image_words(*ops.a, threads), image_words(*ops.b, threads),
            image_words(*ops.c, threads)};
}

// Experiments 0 (D) and 1 (C), shared by both plans.
std::string fill_product_and_c(MmaProbePlan& plan, const MmaOperands& ops, const MmaProbeSpec& spec,
                               const ProductDesign& design, const Images& words) {
    std::string error = fill_operand(&plan.a[0], *ops.a, spec.input,
                                     [&](int m, int kk) { return design.a(m, kk); });
    if (error.empty()) {
        error = fill_operand(&plan.b[0], *ops.b, spec.input,
                             [&](int kk, int n) { return design.b(kk, n); });
    }
    if (error.empty()) error = fill_accumulator_c(&plan.c[words.c_words], *ops.c, spec.accumulator);
    return error;
}

// A plan of `experiments` experiments for spec's instruction, its images all zero (all-zero bits
// are 0 in every element type, so unset slots hold 0).
MmaProbePlan sized_plan(const MmaProbeSpec& spec, const Images& words, size_t experiments) {
    MmaProbePlan plan;
    plan.instruction = spec.instruction;
    plan.experiments = int(experiments);
    plan.a.assign(experiments * words.a_words, 0);
    plan.b.assign(experiments * words.b_words, 0);
    plan.c.assign(experiments * words.c_words, 0);
    return plan;
}

MmaProbePlan plan_dense(const viz::FragmentLayout& model, const MmaProbeSpec& spec,
                        const MmaOperands& ops) {
    const int m = ops.a->rows, k = ops.a->cols, n = ops.b->cols;
    const Images words = image_sizes(ops, model.threads);
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    MmaProbePlan plan = sized_plan(spec, words, 2 + a_slots + b_slots);
    const ProductDesign design = make_product_design(spec.input, m, n, k);
    if ((plan.error = design.error) != "" ||
        (plan.error = check_accumulator(spec.accumulator, design.row_scale, m, n)) != "") {
        plan.error = model.id + ": " + plan.error;
        return plan;
    }
    std::string error = fill_product_and_c(plan, ops, spec, design, words);

    // The digit images, made once and copied into each one-hot experiment.
    const DigitCode code = digit_code(spec.input, k);
    std::vector<uint32_t> b_digits(words.b_words, 0), a_digits(words.a_words, 0);
    if (error.empty()) {
        error = fill_operand(b_digits.data(), *ops.b, spec.input,
                             [&](int kk, int col) { return k_digit(kk, col, code); });
    }
    if (error.empty()) {
        error = fill_operand(a_digits.data(), *ops.a, spec.input,
                             [&](int row, int kk) { return k_digit(kk, row, code); });
    }
    const std::optional<uint64_t> one = encode_exact(spec.input, 1);
    if (!error.empty() || !one) {
        plan.error = model.id + ": " + (error.empty() ? "1 is not exact" : error);
        return plan;
    }
    for (size_t i = 0; i < a_slots; ++i) {
        const size_t e = 2 + i;
        write_slot(&plan.a[e * words.a_words], *ops.a, ops.a->elements[i], *one);
        std::copy(b_digits.begin(), b_digits.end(),
                  plan.b.begin() + std::ptrdiff_t(e * words.b_words));
    }
    for (size_t i = 0; i < b_slots; ++i) {
        const size_t e = 2 + a_slots + i;
        write_slot(&plan.b[e * words.b_words], *ops.b, ops.b->elements[i], *one);
        std::copy(a_digits.begin(), a_digits.end(),
                  plan.a.begin() + std::ptrdiff_t(e * words.a_words));
    }
    return plan;
}

MmaProbePlan plan_b1(const viz::FragmentLayout& model, const MmaProbeSpec& spec,
                     const MmaOperands& ops) {
    const int m = ops.a->rows, k = ops.a->cols, n = ops.b->cols;
    const Images words = image_sizes(ops, model.threads);
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    MmaProbePlan plan = sized_plan(spec, words, 2 + 2 * a_slots + b_slots);
    const ProductDesign design = make_product_design(spec.input, m, n, k);
    if (!design.error.empty() || n < kB1BitsPositions || m < kB1BPositions || k > 256) {
        plan.error =
            model.id + ": " +
            (design.error.empty() ? "the b1 probe needs M >= 9, N >= 8, K <= 256" : design.error);
        return plan;
    }
    std::string error = fill_product_and_c(plan, ops, spec, design, words);
    std::vector<uint32_t> bits(words.b_words, 0), ones(words.b_words, 0), a_bits(words.a_words, 0);
    if (error.empty()) {
        error = fill_operand(bits.data(), *ops.b, spec.input,
                             [](int kk, int col) { return b1_bit(kk, col); });
    }
    if (error.empty())
        error = fill_operand(ones.data(), *ops.b, spec.input, [](int, int) { return 1; });
    if (error.empty()) {
        error = fill_operand(a_bits.data(), *ops.a, spec.input, [](int row, int kk) {
            return row < kB1BPositions ? b1_bit(kk + 1, row) : 0;
        });
    }
    if (!error.empty()) {
        plan.error = model.id + ": " + error;
        return plan;
    }
    for (size_t i = 0; i < a_slots; ++i) {
        for (size_t half = 0; half < 2; ++half) {
            const size_t e = 2 + 2 * i + half;
            write_slot(&plan.a[e * words.a_words], *ops.a, ops.a->elements[i], 1);
            const std::vector<uint32_t>& b = half == 0 ? bits : ones;
            std::copy(b.begin(), b.end(), plan.b.begin() + std::ptrdiff_t(e * words.b_words));
        }
    }
    for (size_t i = 0; i < b_slots; ++i) {
        const size_t e = 2 + 2 * a_slots + i;
        write_slot(&plan.b[e * words.b_words], *ops.b, ops.b->elements[i], 1);
        std::copy(a_bits.begin(), a_bits.end(), plan.a.begin() + std::ptrdiff_t(e * words.a_words));
    }
    return plan;
}

// ---- b1 decoding ----

// One D value of a b1 one-hot experiment, as what the one-hot element did: `moved` (it met
// something: a 1 with AND; anything with XOR) and `bit` (it met a 1). With XOR the count moves
// by +1 (met a 0) or -1 (met a 1) from `baseline`, the count of 1s the other operand alone gives.
struct B1Reading {
    bool valid = true;
    bool moved = false;
    int bit = 0;
};

B1Reading read_b1(PopcOp op, std::optional<double> value, int baseline) {
    B1Reading out;
    if (!value || *value != std::floor(*value)) {
        out.valid = false;
        return out;
    }
    const long v = long(*value);
    if (op == PopcOp::kAnd) {
        out.valid = v == 0 || v == 1;
        out.moved = v == 1;
        out.bit = int(v);
        return out;
    }
    const long step = v - baseline;
    out.valid = step >= -1 && step <= 1;
    out.moved = step != 0;
    out.bit = step == -1 ? 1 : 0;
    return out;
}

std::vector<std::vector<std::optional<double>>> d_values(const viz::OperandLayout& d_layout,
                                                         ElementType accumulator,
                                                         const uint32_t* image) {
    std::vector<std::vector<std::optional<double>>> values(
        size_t(d_layout.rows), std::vector<std::optional<double>>(size_t(d_layout.cols)));
    for (const viz::LayoutElement& slot : d_layout.elements) {
        values[size_t(slot.row)][size_t(slot.col)] =
            decode_element(accumulator, read_slot(image, d_layout, slot));
    }
    return values;
}

// A one-hot: row from the "row" experiment (baseline: B all 1s gives K per column with XOR), k from
// the "bits" experiment (baseline K / 2 per column: half of 0..K-1 have any given bit set).
DecodedCoord decode_b1_a(PopcOp op, const viz::OperandLayout& d_layout, const uint32_t* bits_image,
                         const uint32_t* row_image, int depth) {
    DecodedCoord out;
    const auto rows = d_values(d_layout, ElementType::S32, row_image);
    const auto bits = d_values(d_layout, ElementType::S32, bits_image);
    int row = -1;
    for (int m = 0; m < d_layout.rows; ++m) {
        int moved = 0;
        for (int n = 0; n < d_layout.cols; ++n) {
            const B1Reading r = read_b1(op, rows[size_t(m)][size_t(n)], depth);
            if (!r.valid) {
                out.problem = "row experiment: D(" + std::to_string(m) + "," + std::to_string(n) +
                              ") is no single-bit change";
                return out;
            }
            moved += r.moved;
        }
        if (moved == 0) continue;
        if (moved != d_layout.cols || row != -1) {
            out.problem = "row experiment: D changes outside one whole row";
            return out;
        }
        row = m;
    }
    if (row == -1) {
        out.problem = "row experiment: D is unchanged";
        return out;
    }
    int k = 0;
    for (int m = 0; m < d_layout.rows; ++m) {
        for (int n = 0; n < d_layout.cols; ++n) {
            const B1Reading r = read_b1(op, bits[size_t(m)][size_t(n)], depth / 2);
            const int baseline_bit = n < kB1BitsPositions;
            if (!r.valid || (m != row && r.moved) ||
                (op == PopcOp::kXor && m == row && baseline_bit && !r.moved)) {
                out.problem = "bits experiment: D(" + std::to_string(m) + "," + std::to_string(n) +
                              ") does not spell k in row " + std::to_string(row);
                return out;
            }
            if (m == row && n < kB1BitsPositions) k |= r.bit << n;
        }
    }
    out.row = row;
    out.col = k;
    return out;
}

// B one-hot: column where D moved; k + 1 from the bits down it (baseline: A's row count of 1s).
DecodedCoord decode_b1_b(PopcOp op, const viz::OperandLayout& d_layout, const uint32_t* image,
                         int depth) {
    DecodedCoord out;
    const auto values = d_values(d_layout, ElementType::S32, image);
    const auto row_ones = [depth](int m) {
        int ones = 0;
        for (int kk = 0; kk < depth; ++kk) ones += m < kB1BPositions ? b1_bit(kk + 1, m) : 0;
        return ones;
    };
    int column = -1;
    int k_plus_one = 0;
    for (int n = 0; n < d_layout.cols; ++n) {
        int value = 0;
        bool moved = false;
        for (int m = 0; m < d_layout.rows; ++m) {
            const B1Reading r = read_b1(op, values[size_t(m)][size_t(n)], row_ones(m));
            if (!r.valid) {
                out.problem = "D(" + std::to_string(m) + "," + std::to_string(n) +
                              ") is no single-bit change";
                return out;
            }
            moved = moved || r.moved;
            if (m < kB1BPositions) value |= r.bit << m;
        }
        if (!moved) continue;
        if (column != -1) {
            out.problem =
                "D changes in columns " + std::to_string(column) + " and " + std::to_string(n);
            return out;
        }
        column = n;
        k_plus_one = value;
    }
    if (column == -1 || k_plus_one < 1 || k_plus_one > depth) {
        out.problem = column == -1 ? "D is unchanged" : "the column spells no k < K";
        return out;
    }
    out.row = k_plus_one - 1;
    out.col = column;
    return out;
}

std::vector<MeasuredOperand> decode_b1(const viz::FragmentLayout& model, const MmaProbeSpec& spec,
                                       const MmaOperands& ops, const std::vector<uint32_t>& d) {
    const size_t d_words = image_words(*ops.d, model.threads);
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    const int k = ops.a->cols;
    const ProductDesign design = make_product_design(spec.input, ops.a->rows, ops.b->cols, k);
    const int used = int(design.columns.size());
    const std::function<double(double)> to_and = [used](double v) { return used - v; };
    MeasuredOperand measured_d = measure_product(*ops.d, spec.accumulator, &d[0], design.row_scale,
                                                 spec.popc == PopcOp::kXor ? to_and : nullptr);
    MeasuredOperand measured_c =
        measure_accumulator_c(*ops.c, *ops.d, spec.accumulator, &d[d_words]);
    std::vector<DecodedCoord> a_coords, b_coords;
    for (size_t i = 0; i < a_slots; ++i) {
        a_coords.push_back(decode_b1_a(spec.popc, *ops.d, &d[(2 + 2 * i) * d_words],
                                       &d[(3 + 2 * i) * d_words], k));
    }
    for (size_t i = 0; i < b_slots; ++i) {
        b_coords.push_back(decode_b1_b(spec.popc, *ops.d, &d[(2 + 2 * a_slots + i) * d_words], k));
    }
    return {measured_from(*ops.a, a_coords), measured_from(*ops.b, b_coords), measured_c,
            measured_d};
}

}  // namespace

int b1_bit(int value, int bit) { return (value >> bit) & 1; }

const MmaProbeSpec* find_mma_probe_spec(std::string_view id) {
    for (const MmaProbeSpec& spec : kMmaProbeSpecs) {
        if (id == spec.id) {
            return &spec;
        }
    }
    return nullptr;
}

MmaProbePlan plan_mma_probe(const viz::FragmentLayout& model, const MmaProbeSpec& spec) {
    MmaOperands ops{};
    if (std::string error = find_mma_operands(model, spec, ops); !error.empty()) {
        MmaProbePlan plan;
        plan.instruction = spec.instruction;
        plan.error = error;
        return plan;
    }
    return spec.popc == PopcOp::kNone ? plan_dense(model, spec, ops) : plan_b1(model, spec, ops);
}

std::vector<MeasuredOperand> decode_mma_probe(const viz::FragmentLayout& model,
                                              const MmaProbeSpec& spec,
                                              const std::vector<uint32_t>& d) {
    MmaOperands ops{};
    if (!find_mma_operands(model, spec, ops).empty()) {
        return {};
    }
    const size_t d_words = image_words(*ops.d, model.threads);
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    const size_t experiments = 2 + a_slots * (spec.popc == PopcOp::kNone ? 1 : 2) + b_slots;
    if (d.size() != experiments * d_words) {
        const std::string why = "no output from the GPU";
        return {unmeasured(*ops.a, why), unmeasured(*ops.b, why), unmeasured(*ops.c, why),
                unmeasured(*ops.d, why)};
    }
    if (spec.popc != PopcOp::kNone) return decode_b1(model, spec, ops, d);
    const int k = ops.a->cols;
    const DigitCode code = digit_code(spec.input, k);
    MeasuredProductAndC product =
        measure_product_and_c(*ops.d, *ops.c, spec.accumulator, d.data(), d_words);
    MeasuredOperand measured_a =
        measure_one_hot(*ops.a, *ops.d, spec.accumulator, &d[2 * d_words], d_words, k, code);
    MeasuredOperand measured_b = measure_one_hot(*ops.b, *ops.d, spec.accumulator,
                                                 &d[(2 + a_slots) * d_words], d_words, k, code);
    (void)b_slots;
    return {measured_a, measured_b, product.c, product.d};
}

}  // namespace tclens::kernels
