// mma.sp probe plans and decoding; see mma_sp_probe_plan.h.
#include "kernels/probes/mma_sp_probe_plan.h"

#include <algorithm>
#include <cstddef>

namespace tclens::kernels {

namespace {

using ET = ElementType;
using SI = SparseInstruction;

constexpr int kWarpLanes = 32;

// clang-format off
constexpr SparseProbeSpec kSparseProbeSpecs[] = {
    {"mma.sp.m16n8k16.f16.sel0",  SI::M16n8k16F16,  0, ET::F16,  ET::F32, 80},
    {"mma.sp.m16n8k16.f16.sel1",  SI::M16n8k16F16,  1, ET::F16,  ET::F32, 80},
    {"mma.sp.m16n8k16.f16.sel2",  SI::M16n8k16F16,  2, ET::F16,  ET::F32, 80},
    {"mma.sp.m16n8k16.f16.sel3",  SI::M16n8k16F16,  3, ET::F16,  ET::F32, 80},
    {"mma.sp.m16n8k16.bf16.sel0", SI::M16n8k16Bf16, 0, ET::Bf16, ET::F32, 80},
    {"mma.sp.m16n8k16.bf16.sel1", SI::M16n8k16Bf16, 1, ET::Bf16, ET::F32, 80},
    {"mma.sp.m16n8k16.bf16.sel2", SI::M16n8k16Bf16, 2, ET::Bf16, ET::F32, 80},
    {"mma.sp.m16n8k16.bf16.sel3", SI::M16n8k16Bf16, 3, ET::Bf16, ET::F32, 80},
    {"mma.sp.m16n8k32.f16.sel0",  SI::M16n8k32F16,  0, ET::F16,  ET::F32, 80},
    {"mma.sp.m16n8k32.f16.sel1",  SI::M16n8k32F16,  1, ET::F16,  ET::F32, 80},
    {"mma.sp.m16n8k32.bf16.sel0", SI::M16n8k32Bf16, 0, ET::Bf16, ET::F32, 80},
    {"mma.sp.m16n8k32.bf16.sel1", SI::M16n8k32Bf16, 1, ET::Bf16, ET::F32, 80},
    {"mma.sp.m16n8k32.s8.sel0",   SI::M16n8k32S8,   0, ET::S8,   ET::S32, 80},
    {"mma.sp.m16n8k32.s8.sel1",   SI::M16n8k32S8,   1, ET::S8,   ET::S32, 80},
    {"mma.sp.m16n8k64.s8.sel0",   SI::M16n8k64S8,   0, ET::S8,   ET::S32, 80},
    {"mma.sp.m16n8k64.e4m3.sel0", SI::M16n8k64E4m3, 0, ET::E4m3, ET::F32, 89},
};
// clang-format on

struct SparseOperands {
    const viz::OperandLayout* a;  // compressed
    const viz::OperandLayout* b;
    const viz::OperandLayout* c;
    const viz::OperandLayout* d;
    const viz::OperandLayout* e;
};

std::string find_sparse_operands(const viz::FragmentLayout& model, const SparseProbeSpec& spec,
                                 SparseOperands& out) {
    out = {model.find(viz::Operand::A), model.find(viz::Operand::B), model.find(viz::Operand::C),
           model.find(viz::Operand::D), model.find(viz::Operand::E)};
    if (!out.a || !out.b || !out.c || !out.d || !out.e) {
        return model.id + ": the model lacks one of A, B, C, D, E";
    }
    if (model.threads != kWarpLanes) {
        return model.id + ": mma.sp runs on 32 lanes, the model has " +
               std::to_string(model.threads);
    }
    const int m = out.a->rows, k = out.b->rows, n = out.b->cols;
    const int in_bits = element_bits(spec.input), acc_bits = element_bits(spec.accumulator);
    for (const std::string& error :
         {shape_error(spec.id, *out.a, m, k / 2, in_bits),
          shape_error(spec.id, *out.b, k, n, in_bits), shape_error(spec.id, *out.c, m, n, acc_bits),
          shape_error(spec.id, *out.d, m, n, acc_bits),
          shape_error(spec.id, *out.e, m, k / 2, 2)}) {
        if (!error.empty()) return error;
    }
    if (out.e->regs_per_thread != 1 || k % 4 != 0) {
        return model.id + ": the metadata is one register per lane and K a multiple of 4";
    }
    return "";
}

// Full column of compressed column c when every group's metadata is {first, first + 1}.
int full_column(int c, int first) { return 4 * (c / 2) + first + c % 2; }

struct SparseWords {
    size_t a, b, c;
};

// Every element of every A register of every lane = 1, whatever the model says.
void fill_all_ones(uint32_t* image, size_t words, ElementType type) {
    const int bits = element_bits(type);
    const uint64_t one = *encode_exact(type, 1);
    uint32_t word = 0;
    for (int sub = 0; sub < 32 / bits; ++sub) word |= uint32_t(one) << (sub * bits);
    std::fill(image, image + words, word);
}

// The metadata register with field `field` of the {1, 2} pattern moved onto a spelling column.
uint32_t perturbed_metadata(int field) {
    const uint32_t moved = field % 2 == 0 ? 0u : 3u;
    const uint32_t mask = 3u << (2 * field);
    return (kMetadata12 & ~mask) | moved << (2 * field);
}

}  // namespace

const SparseProbeSpec* find_sparse_probe_spec(std::string_view id) {
    for (const SparseProbeSpec& spec : kSparseProbeSpecs) {
        if (id == spec.id) return &spec;
    }
    return nullptr;
}

SparseProbePlan plan_sparse_probe(const viz::FragmentLayout& model, const SparseProbeSpec& spec) {
    SparseProbePlan plan;
    plan.instruction = spec.instruction;
    plan.selector = spec.selector;
    SparseOperands ops{};
    if ((plan.error = find_sparse_operands(model, spec, ops)) != "") return plan;
    const int m = ops.a->rows, k = ops.b->rows, n = ops.b->cols;
    const SparseWords words{image_words(*ops.a, kWarpLanes), image_words(*ops.b, kWarpLanes),
                            image_words(*ops.c, kWarpLanes)};
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    const size_t e_slots = ops.e->elements.size();
    plan.experiments = int(2 + a_slots + 2 * b_slots + e_slots);
    const size_t experiments = size_t(plan.experiments);
    plan.a.assign(experiments * words.a, 0);
    plan.b.assign(experiments * words.b, 0);
    plan.c.assign(experiments * words.c, 0);
    plan.e.assign(experiments * kWarpLanes, kMetadata01);

    // Experiment 0: the product design in full columns f(0), f(1), ...
    const ProductDesign design = make_product_design(spec.input, m, n, k / 2);
    std::string error = design.error;
    if (error.empty()) error = check_accumulator(spec.accumulator, design.row_scale, m, n);
    if (error.empty()) {
        error = fill_operand(&plan.a[0], *ops.a, spec.input,
                             [&](int row, int c) { return design.a(row, c); });
    }
    if (error.empty()) {
        error = fill_operand(&plan.b[0], *ops.b, spec.input, [&](int kk, int col) {
            for (int c = 0; c < int(design.columns.size()); ++c) {
                if (full_column(c, 0) == kk) return design.b(c, col);
            }
            return 0;
        });
    }
    if (error.empty()) error = fill_accumulator_c(&plan.c[words.c], *ops.c, spec.accumulator);

    // Digit images: B spelling the full k; A_c spelling f(c) or f(c) + 2; B spelling c.
    const DigitCode code = digit_code(spec.input, k);
    std::vector<uint32_t> b_digits(words.b, 0), a_low(words.a, 0), a_high(words.a, 0);
    std::vector<uint32_t> b_compressed(words.b, 0), a_ones(words.a, 0);
    if (error.empty()) {
        error = fill_operand(b_digits.data(), *ops.b, spec.input,
                             [&](int kk, int col) { return k_digit(kk, col, code); });
    }
    for (const int first : {0, 2}) {
        if (!error.empty()) break;
        error =
            fill_operand((first == 0 ? a_low : a_high).data(), *ops.a, spec.input,
                         [&](int row, int c) { return k_digit(full_column(c, first), row, code); });
    }
    if (error.empty()) {
        error = fill_operand(b_compressed.data(), *ops.b, spec.input, [&](int kk, int col) {
            const int group = kk / 4, at = kk % 4;
            return at == 0   ? k_digit(2 * group, col, code)
                   : at == 3 ? k_digit(2 * group + 1, col, code)
                             : 0;
        });
    }
    const std::optional<uint64_t> one = encode_exact(spec.input, 1);
    if (!error.empty() || !one) {
        plan.error = model.id + ": " + (error.empty() ? "1 is not exact" : error);
        return plan;
    }
    fill_all_ones(a_ones.data(), a_ones.size(), spec.input);

    const auto place = [](std::vector<uint32_t>& all, size_t e,
                          const std::vector<uint32_t>& image) {
        std::copy(image.begin(), image.end(), all.begin() + std::ptrdiff_t(e * image.size()));
    };
    size_t e = 2;
    for (size_t i = 0; i < a_slots; ++i, ++e) {
        write_slot(&plan.a[e * words.a], *ops.a, ops.a->elements[i], *one);
        place(plan.b, e, b_digits);
    }
    for (size_t i = 0; i < b_slots; ++i) {
        for (const int first : {0, 2}) {
            write_slot(&plan.b[e * words.b], *ops.b, ops.b->elements[i], *one);
            place(plan.a, e, first == 0 ? a_low : a_high);
            std::fill(plan.e.begin() + std::ptrdiff_t(e * kWarpLanes),
                      plan.e.begin() + std::ptrdiff_t((e + 1) * kWarpLanes),
                      first == 0 ? kMetadata01 : kMetadata23);
            ++e;
        }
    }
    for (size_t i = 0; i < e_slots; ++i, ++e) {
        const viz::LayoutElement& slot = ops.e->elements[i];
        place(plan.a, e, a_ones);
        place(plan.b, e, b_compressed);
        std::fill(plan.e.begin() + std::ptrdiff_t(e * kWarpLanes),
                  plan.e.begin() + std::ptrdiff_t((e + 1) * kWarpLanes), kMetadata12);
        plan.e[e * kWarpLanes + size_t(slot.lane)] = perturbed_metadata(slot.sub);
    }
    return plan;
}

std::vector<MeasuredOperand> decode_sparse_probe(const viz::FragmentLayout& model,
                                                 const SparseProbeSpec& spec,
                                                 const std::vector<uint32_t>& d) {
    SparseOperands ops{};
    if (!find_sparse_operands(model, spec, ops).empty()) return {};
    const size_t d_words = image_words(*ops.d, kWarpLanes);
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    const size_t e_slots = ops.e->elements.size();
    if (d.size() != (2 + a_slots + 2 * b_slots + e_slots) * d_words) {
        const std::string why = "no output from the GPU";
        return {unmeasured(*ops.a, why), unmeasured(*ops.b, why), unmeasured(*ops.c, why),
                unmeasured(*ops.d, why), unmeasured(*ops.e, why)};
    }
    const int k = ops.b->rows;
    const DigitCode code = digit_code(spec.input, k);
    MeasuredProductAndC product =
        measure_product_and_c(*ops.d, *ops.c, spec.accumulator, d.data(), d_words);

    // A: the full column spelled in row m is f(c).
    MeasuredOperand measured_a =
        measure_one_hot(*ops.a, *ops.d, spec.accumulator, &d[2 * d_words], d_words, k, code);
    for (size_t i = 0; i < a_slots; ++i) {
        viz::LayoutElement& e = measured_a.elements[i];
        if (e.col < 0) continue;
        if (e.col % 4 >= 2) {
            measured_a.problems[i] = "landed in full column " + std::to_string(e.col) +
                                     ", which metadata {0, 1} never fills";
            e.row = e.col = -1;
        } else {
            e.col = 2 * (e.col / 4) + e.col % 4;
        }
    }

    // B: whichever of the two experiments shows the column.
    const size_t b_first = 2 + a_slots;
    MeasuredOperand low = measure_one_hot(*ops.b, *ops.d, spec.accumulator, &d[b_first * d_words],
                                          2 * d_words, k, code);
    MeasuredOperand high = measure_one_hot(*ops.b, *ops.d, spec.accumulator,
                                           &d[(b_first + 1) * d_words], 2 * d_words, k, code);
    MeasuredOperand measured_b = low;
    for (size_t i = 0; i < b_slots; ++i) {
        const bool low_ok = low.problems[i].empty(), high_ok = high.problems[i].empty();
        const bool low_zero = low.problems[i] == "D is all zero";
        const bool high_zero = high.problems[i] == "D is all zero";
        if (low_ok && high_zero) continue;
        if (high_ok && low_zero) {
            measured_b.elements[i] = high.elements[i];
            measured_b.problems[i] = "";
            continue;
        }
        measured_b.elements[i].row = measured_b.elements[i].col = -1;
        measured_b.problems[i] = "metadata {0, 1}: " + (low_ok ? "a column" : low.problems[i]) +
                                 "; metadata {2, 3}: " + (high_ok ? "a column" : high.problems[i]);
    }

    // E: row m spells the compressed column of the moved field.
    const size_t e_first = b_first + 2 * b_slots;
    MeasuredOperand measured_e = measure_one_hot(*ops.e, *ops.d, spec.accumulator,
                                                 &d[e_first * d_words], d_words, k / 2, code);
    return {measured_a, measured_b, product.c, product.d, measured_e};
}

}  // namespace tclens::kernels
