// Host side of the fragment layout probes: element encodings, probe plans, decoding of the
// registers the GPU returns, comparison with the model, device checks and dispatch.
//
// [SECTION] Element encodings
// [SECTION] Register images
// [SECTION] Decoding helpers
// [SECTION] mma.sync plan and decode
// [SECTION] ldmatrix plan and decode
// [SECTION] wgmma plan and decode
// [SECTION] Measurement and comparison
// [SECTION] Device staging
#include "kernels/probes/fragment_probe.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "kernels/cuda_util.h"
#include "viz/layouts/wgmma_layouts.h"

namespace tclens::kernels {

namespace {

std::string number_text(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    std::ostringstream text;
    text << value;
    return text.str();
}

std::string coord_text(int row, int col) {
    return "(" + std::to_string(row) + "," + std::to_string(col) + ")";
}

}  // namespace

// [SECTION] Element encodings ------------------------------------------------------------------

namespace {

struct FloatFormat {
    int exp_bits;
    int man_bits;
    bool has_infinity;  // IEEE-style: the top exponent holds inf and NaN. e4m3 has only NaN.
};

constexpr FloatFormat kF16{5, 10, true};
constexpr FloatFormat kBf16{8, 7, true};
constexpr FloatFormat kTf32{8, 10, true};  // kept in the top 19 bits of an f32 pattern
constexpr FloatFormat kE4m3{4, 3, false};
constexpr FloatFormat kF32{8, 23, true};
constexpr FloatFormat kF64{11, 52, true};
constexpr int kTf32DroppedBits = 13;

uint64_t low_mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Integers only: the pattern of `value` if the mantissa holds every bit below its leading one
// and the exponent fits below the special values.
std::optional<uint64_t> encode_float(const FloatFormat& format, int value) {
    if (value == 0) {
        return uint64_t{0};
    }
    const uint64_t sign = value < 0 ? 1 : 0;
    const uint64_t magnitude = value < 0 ? uint64_t(-int64_t{value}) : uint64_t(value);
    int exponent = 0;
    while ((magnitude >> (exponent + 1)) != 0) {
        ++exponent;
    }
    if (exponent > format.man_bits && (magnitude & low_mask(exponent - format.man_bits)) != 0) {
        return std::nullopt;
    }
    const uint64_t fraction =
        (exponent >= format.man_bits ? magnitude >> (exponent - format.man_bits)
                                     : magnitude << (format.man_bits - exponent)) &
        low_mask(format.man_bits);
    const uint64_t top = low_mask(format.exp_bits);
    const uint64_t biased = uint64_t(exponent) + (uint64_t{1} << (format.exp_bits - 1)) - 1;
    if (biased > top || (format.has_infinity && biased == top) ||
        (biased == top && fraction == low_mask(format.man_bits))) {
        return std::nullopt;
    }
    return sign << (format.exp_bits + format.man_bits) | biased << format.man_bits | fraction;
}

std::optional<double> decode_float(const FloatFormat& format, uint64_t bits) {
    const uint64_t top = low_mask(format.exp_bits);
    const uint64_t fraction = bits & low_mask(format.man_bits);
    const uint64_t biased = (bits >> format.man_bits) & top;
    const bool negative = ((bits >> (format.exp_bits + format.man_bits)) & 1) != 0;
    if ((format.has_infinity && biased == top) ||
        (!format.has_infinity && biased == top && fraction == low_mask(format.man_bits))) {
        return std::nullopt;
    }
    const int bias = (1 << (format.exp_bits - 1)) - 1;
    const double magnitude = biased == 0
                                 ? std::ldexp(double(fraction), 1 - bias - format.man_bits)
                                 : std::ldexp(double(fraction | (uint64_t{1} << format.man_bits)),
                                              int(biased) - bias - format.man_bits);
    return negative ? -magnitude : magnitude;
}

}  // namespace

int element_bits(ElementType type) {
    switch (type) {
        case ElementType::Tf32:
        case ElementType::F32:
        case ElementType::S32:
            return 32;
        case ElementType::F16:
        case ElementType::Bf16:
            return 16;
        case ElementType::S8:
        case ElementType::E4m3:
            return 8;
        case ElementType::F64:
            return 64;
    }
    return 0;
}

const char* element_name(ElementType type) {
    switch (type) {
        case ElementType::Tf32:
            return "tf32";
        case ElementType::F16:
            return "f16";
        case ElementType::Bf16:
            return "bf16";
        case ElementType::S8:
            return "s8";
        case ElementType::E4m3:
            return "e4m3";
        case ElementType::F64:
            return "f64";
        case ElementType::F32:
            return "f32";
        case ElementType::S32:
            return "s32";
    }
    return "?";
}

std::optional<uint64_t> encode_exact(ElementType type, int value) {
    switch (type) {
        case ElementType::Tf32: {
            const std::optional<uint64_t> bits = encode_float(kTf32, value);
            if (!bits) return std::nullopt;
            return *bits << kTf32DroppedBits;
        }
        case ElementType::F16:
            return encode_float(kF16, value);
        case ElementType::Bf16:
            return encode_float(kBf16, value);
        case ElementType::E4m3:
            return encode_float(kE4m3, value);
        case ElementType::F32:
            return encode_float(kF32, value);
        case ElementType::F64:
            return encode_float(kF64, value);
        case ElementType::S8:
            if (value < -128 || value > 127) return std::nullopt;
            return uint64_t(value) & 0xff;
        case ElementType::S32:
            return uint64_t(uint32_t(value));
    }
    return std::nullopt;
}

std::optional<double> decode_element(ElementType type, uint64_t bits) {
    switch (type) {
        case ElementType::Tf32:
        case ElementType::F32:
            return decode_float(kF32, bits & 0xffffffffu);
        case ElementType::F16:
            return decode_float(kF16, bits & 0xffff);
        case ElementType::Bf16:
            return decode_float(kBf16, bits & 0xffff);
        case ElementType::E4m3:
            return decode_float(kE4m3, bits & 0xff);
        case ElementType::F64:
            return decode_float(kF64, bits);
        case ElementType::S8:
            return double(int8_t(uint8_t(bits & 0xff)));
        case ElementType::S32:
            return double(int32_t(uint32_t(bits & 0xffffffffu)));
    }
    return std::nullopt;
}

// [SECTION] Register images --------------------------------------------------------------------

int words_per_register(int elem_bits) { return elem_bits == 64 ? 2 : 1; }

size_t image_words(const viz::OperandLayout& layout, int threads) {
    return size_t(threads) * layout.regs_per_thread * words_per_register(layout.elem_bits);
}

namespace {

size_t slot_word(const viz::OperandLayout& layout, const viz::LayoutElement& slot) {
    return (size_t(slot.lane) * layout.regs_per_thread + slot.reg) *
           words_per_register(layout.elem_bits);
}

}  // namespace

void write_slot(uint32_t* image, const viz::OperandLayout& layout, const viz::LayoutElement& slot,
                uint64_t bits) {
    const size_t word = slot_word(layout, slot);
    if (layout.elem_bits == 64) {
        image[word] = uint32_t(bits);
        image[word + 1] = uint32_t(bits >> 32);
        return;
    }
    const int shift = slot.sub * layout.elem_bits;
    const uint64_t mask = low_mask(layout.elem_bits) << shift;
    image[word] = uint32_t((image[word] & ~mask) | ((bits << shift) & mask));
}

uint64_t read_slot(const uint32_t* image, const viz::OperandLayout& layout,
                   const viz::LayoutElement& slot) {
    const size_t word = slot_word(layout, slot);
    if (layout.elem_bits == 64) {
        return uint64_t(image[word]) | uint64_t(image[word + 1]) << 32;
    }
    return (uint64_t(image[word]) >> (slot.sub * layout.elem_bits)) & low_mask(layout.elem_bits);
}

std::string fill_operand(uint32_t* image, const viz::OperandLayout& layout, ElementType type,
                         const std::function<int(int row, int col)>& value) {
    for (const viz::LayoutElement& slot : layout.elements) {
        const int v = value(slot.row, slot.col);
        const std::optional<uint64_t> bits = encode_exact(type, v);
        if (!bits) {
            return std::string(1, viz::operand_letter(layout.operand)) +
                   coord_text(slot.row, slot.col) + " = " + std::to_string(v) +
                   " is not exact in " + element_name(type);
        }
        write_slot(image, layout, slot, *bits);
    }
    return "";
}

// [SECTION] Decoding helpers -------------------------------------------------------------------

int k_digit(int k, int j) { return 1 + (j % 2 == 0 ? k % 8 : k / 8); }

int product_row_scale(int cols) {
    int scale = 1;
    while (scale <= cols) {
        scale *= 2;
    }
    return scale;
}

DecodedCoord decode_product(std::optional<double> value, int row_scale, int rows, int cols) {
    DecodedCoord out;
    if (!value) {
        out.problem = "not a number (never written?)";
        return out;
    }
    const double v = *value;
    if (v != std::floor(v) || v < 1 || v > double(row_scale) * rows) {
        out.problem = "value " + number_text(v) +
                      " is not S*m + n + 1 (S = " + std::to_string(row_scale) + ")";
        return out;
    }
    const long long code = static_cast<long long>(v) - 1;
    const int row = int(code / row_scale);
    const int col = int(code % row_scale);
    if (row >= rows || col >= cols) {
        out.problem = "value " + number_text(v) + " decodes to " + coord_text(row, col) +
                      ", outside the matrix";
        return out;
    }
    out.row = row;
    out.col = col;
    return out;
}

DecodedCoord decode_one_hot(viz::Operand operand, const std::vector<AccumulatorReading>& d,
                            int rows, int cols, int depth) {
    // For A the nonzero values lie along one D row ("line") and spell k across its columns
    // ("positions"); for B along one D column, spelling k down its rows.
    const bool along_row = operand == viz::Operand::A;
    const char* line_name = along_row ? "row" : "column";
    const int positions = along_row ? cols : rows;
    DecodedCoord out;
    if (positions < 2) {
        out.problem = "D is too small to spell k";
        return out;
    }
    std::vector<double> spelled(size_t(positions), 0.0);
    std::vector<int> seen(size_t(positions), 0);
    int line = -1;
    for (const AccumulatorReading& reading : d) {
        if (!reading.value) {
            out.problem = "D" + coord_text(reading.row, reading.col) + " is not a number";
            return out;
        }
        if (*reading.value == 0) {
            continue;
        }
        const int this_line = along_row ? reading.row : reading.col;
        const int position = along_row ? reading.col : reading.row;
        if (line != -1 && this_line != line) {
            out.problem = std::string("nonzero D values in ") + line_name + "s " +
                          std::to_string(line) + " and " + std::to_string(this_line);
            return out;
        }
        if (position < 0 || position >= positions || seen[size_t(position)]++ != 0) {
            out.problem = "D" + coord_text(reading.row, reading.col) + " is held twice";
            return out;
        }
        line = this_line;
        spelled[size_t(position)] = *reading.value;
    }
    if (line == -1) {
        out.problem = "D is all zero";
        return out;
    }
    for (int p = 0; p < positions; ++p) {
        if (!seen[size_t(p)]) {
            out.problem = std::string("D ") + line_name + " " + std::to_string(line) +
                          " is zero at " + std::to_string(p);
            return out;
        }
    }
    const double low = spelled[0] - 1;
    const double high = spelled[1] - 1;
    const bool digits_ok = low == std::floor(low) && high == std::floor(high) && low >= 0 &&
                           low < 8 && high >= 0 && high < 8 && int(low) + 8 * int(high) < depth;
    const int k = digits_ok ? int(low) + 8 * int(high) : -1;
    for (int p = 0; p < positions; ++p) {
        if (!digits_ok || spelled[size_t(p)] != k_digit(k, p)) {
            out.problem = std::string("D ") + line_name + " " + std::to_string(line) + " holds " +
                          number_text(spelled[size_t(p)]) + " at " + std::to_string(p) +
                          ", which spells no k < " + std::to_string(depth);
            return out;
        }
    }
    out.row = along_row ? line : k;
    out.col = along_row ? k : line;
    return out;
}

namespace {

MeasuredOperand measured_from(const viz::OperandLayout& layout,
                              const std::vector<DecodedCoord>& decoded) {
    MeasuredOperand measured{layout.operand, layout.elements, {}};
    measured.problems.resize(layout.elements.size());
    for (size_t i = 0; i < layout.elements.size(); ++i) {
        measured.elements[i].row = decoded[i].row;
        measured.elements[i].col = decoded[i].col;
        measured.problems[i] = decoded[i].problem;
    }
    return measured;
}

MeasuredOperand unmeasured(const viz::OperandLayout& layout, const std::string& why) {
    return measured_from(
        layout, std::vector<DecodedCoord>(layout.elements.size(), DecodedCoord{-1, -1, why}));
}

// D of the product experiment: every register names its own (m, n).
MeasuredOperand measure_product(const viz::OperandLayout& d_layout, ElementType accumulator,
                                const uint32_t* image, int row_scale) {
    std::vector<DecodedCoord> decoded;
    decoded.reserve(d_layout.elements.size());
    for (const viz::LayoutElement& slot : d_layout.elements) {
        decoded.push_back(
            decode_product(decode_element(accumulator, read_slot(image, d_layout, slot)), row_scale,
                           d_layout.rows, d_layout.cols));
    }
    return measured_from(d_layout, decoded);
}

// A or B from their one-hot experiments: the D image at first_image + i * image_stride comes
// from the experiment that is one-hot at slot i of `layout`.
MeasuredOperand measure_one_hot(const viz::OperandLayout& layout,
                                const viz::OperandLayout& d_layout, ElementType accumulator,
                                const uint32_t* first_image, size_t image_stride, int depth) {
    std::vector<DecodedCoord> decoded;
    decoded.reserve(layout.elements.size());
    std::vector<AccumulatorReading> readings(d_layout.elements.size());
    for (size_t i = 0; i < layout.elements.size(); ++i) {
        const uint32_t* image = first_image + i * image_stride;
        for (size_t j = 0; j < d_layout.elements.size(); ++j) {
            const viz::LayoutElement& slot = d_layout.elements[j];
            readings[j] = {slot.row, slot.col,
                           decode_element(accumulator, read_slot(image, d_layout, slot))};
        }
        decoded.push_back(
            decode_one_hot(layout.operand, readings, d_layout.rows, d_layout.cols, depth));
    }
    return measured_from(layout, decoded);
}

std::string shape_error(const char* what, const viz::OperandLayout& layout, int rows, int cols,
                        int bits) {
    if (layout.rows == rows && layout.cols == cols && layout.elem_bits == bits) {
        return "";
    }
    return std::string(what) + ": model " + viz::operand_letter(layout.operand) + " is " +
           std::to_string(layout.rows) + "x" + std::to_string(layout.cols) + " of " +
           std::to_string(layout.elem_bits) + "-bit elements, the instruction needs " +
           std::to_string(rows) + "x" + std::to_string(cols) + " of " + std::to_string(bits);
}

}  // namespace

// [SECTION] mma.sync plan and decode -----------------------------------------------------------

namespace {

// clang-format off
constexpr MmaProbeSpec kMmaProbeSpecs[] = {
    {"mma.m16n8k4.tf32",  MmaInstruction::M16n8k4Tf32,  ElementType::Tf32, ElementType::F32, 80},
    {"mma.m16n8k8.tf32",  MmaInstruction::M16n8k8Tf32,  ElementType::Tf32, ElementType::F32, 80},
    {"mma.m16n8k8.f16",   MmaInstruction::M16n8k8F16,   ElementType::F16,  ElementType::F32, 80},
    {"mma.m16n8k16.f16",  MmaInstruction::M16n8k16F16,  ElementType::F16,  ElementType::F32, 80},
    {"mma.m16n8k16.bf16", MmaInstruction::M16n8k16Bf16, ElementType::Bf16, ElementType::F32, 80},
    {"mma.m16n8k32.s8",   MmaInstruction::M16n8k32S8,   ElementType::S8,   ElementType::S32, 80},
    {"mma.m16n8k32.e4m3", MmaInstruction::M16n8k32E4m3, ElementType::E4m3, ElementType::F32, 89},
    {"mma.m8n8k4.f64",    MmaInstruction::M8n8k4F64,    ElementType::F64,  ElementType::F64, 80},
};
// clang-format on

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

// The D experiment's operands: A[m][0] = m, A[m][1] = 1; B[0][n] = S, B[1][n] = n + 1.
int product_a(int row, int col) { return col == 0 ? row : col == 1 ? 1 : 0; }

std::function<int(int, int)> product_b(int row_scale) {
    return [row_scale](int k, int n) { return k == 0 ? row_scale : k == 1 ? n + 1 : 0; };
}

// The largest D value of the product experiment must be exact in the accumulator; every
// smaller integer then is too (f32, f64 and s32 hold all integers up to their limit).
std::string check_accumulator(ElementType accumulator, int row_scale, int rows, int cols) {
    const int largest = row_scale * (rows - 1) + cols;
    if (encode_exact(accumulator, largest)) {
        return "";
    }
    return "D value " + std::to_string(largest) + " is not exact in " + element_name(accumulator);
}

}  // namespace

const MmaProbeSpec* find_mma_probe_spec(std::string_view id) {
    for (const MmaProbeSpec& spec : kMmaProbeSpecs) {
        if (id == spec.id) {
            return &spec;
        }
    }
    return nullptr;
}

MmaProbePlan plan_mma_probe(const viz::FragmentLayout& model, const MmaProbeSpec& spec) {
    MmaProbePlan plan;
    plan.instruction = spec.instruction;
    MmaOperands ops{};
    if ((plan.error = find_mma_operands(model, spec, ops)) != "") {
        return plan;
    }
    const int m = ops.a->rows, n = ops.b->cols;
    const size_t a_words = image_words(*ops.a, model.threads);
    const size_t b_words = image_words(*ops.b, model.threads);
    const size_t c_words = image_words(*ops.c, model.threads);
    const size_t a_slots = ops.a->elements.size(), b_slots = ops.b->elements.size();
    plan.experiments = int(2 + a_slots + b_slots);
    // All-zero bits are 0 in every element type, so unset slots hold 0.
    plan.a.assign(plan.experiments * a_words, 0);
    plan.b.assign(plan.experiments * b_words, 0);
    plan.c.assign(plan.experiments * c_words, 0);
    const int row_scale = product_row_scale(n);
    if ((plan.error = check_accumulator(spec.accumulator, row_scale, m, n)) != "") {
        return plan;
    }

    // Experiment 0: D[m][n] = S*m + n + 1.
    std::string error = fill_operand(&plan.a[0], *ops.a, spec.input, product_a);
    if (error.empty()) error = fill_operand(&plan.b[0], *ops.b, spec.input, product_b(row_scale));

    // Experiment 1: C slot i holds i + 1, A = B = 0.
    for (size_t i = 0; i < ops.c->elements.size() && error.empty(); ++i) {
        const std::optional<uint64_t> bits = encode_exact(spec.accumulator, int(i + 1));
        if (!bits) {
            error = "C value " + std::to_string(i + 1) + " is not exact";
            break;
        }
        write_slot(&plan.c[c_words], *ops.c, ops.c->elements[i], *bits);
    }

    // The digit images, made once and copied into each one-hot experiment.
    std::vector<uint32_t> b_digits(b_words, 0), a_digits(a_words, 0);
    if (error.empty()) {
        error = fill_operand(b_digits.data(), *ops.b, spec.input,
                             [](int k, int col) { return k_digit(k, col); });
    }
    if (error.empty()) {
        error = fill_operand(a_digits.data(), *ops.a, spec.input,
                             [](int row, int k) { return k_digit(k, row); });
    }
    const std::optional<uint64_t> one = encode_exact(spec.input, 1);
    if (!error.empty() || !one) {
        plan.error = model.id + ": " + (error.empty() ? "1 is not exact" : error);
        return plan;
    }
    for (size_t i = 0; i < a_slots; ++i) {
        const size_t e = 2 + i;
        write_slot(&plan.a[e * a_words], *ops.a, ops.a->elements[i], *one);
        std::copy(b_digits.begin(), b_digits.end(), plan.b.begin() + std::ptrdiff_t(e * b_words));
    }
    for (size_t i = 0; i < b_slots; ++i) {
        const size_t e = 2 + a_slots + i;
        write_slot(&plan.b[e * b_words], *ops.b, ops.b->elements[i], *one);
        std::copy(a_digits.begin(), a_digits.end(), plan.a.begin() + std::ptrdiff_t(e * a_words));
    }
    return plan;
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
    const size_t experiments = 2 + a_slots + b_slots;
    if (d.size() != experiments * d_words) {
        const std::string why = "no output from the GPU";
        return {unmeasured(*ops.a, why), unmeasured(*ops.b, why), unmeasured(*ops.c, why),
                unmeasured(*ops.d, why)};
    }
    const int k = ops.a->cols;
    const int row_scale = product_row_scale(ops.d->cols);

    MeasuredOperand measured_d = measure_product(*ops.d, spec.accumulator, &d[0], row_scale);

    // C: find the D register that each C slot's value i + 1 reached.
    const uint32_t* c_image = &d[d_words];
    std::vector<long> arrived(ops.c->elements.size(), -1);
    for (size_t j = 0; j < ops.d->elements.size(); ++j) {
        const std::optional<double> v =
            decode_element(spec.accumulator, read_slot(c_image, *ops.d, ops.d->elements[j]));
        if (v && *v >= 1 && *v <= double(arrived.size()) && *v == std::floor(*v)) {
            arrived[size_t(*v) - 1] = long(j);
        }
    }
    std::vector<DecodedCoord> c_coords;
    for (size_t i = 0; i < ops.c->elements.size(); ++i) {
        if (arrived[i] < 0) {
            const std::string why = "its value " + std::to_string(i + 1) + " reached no D register";
            c_coords.push_back({-1, -1, why});
        } else {
            const viz::LayoutElement& at = ops.d->elements[size_t(arrived[i])];
            c_coords.push_back({at.row, at.col, ""});
        }
    }
    MeasuredOperand measured_c = measured_from(*ops.c, c_coords);

    MeasuredOperand measured_a =
        measure_one_hot(*ops.a, *ops.d, spec.accumulator, &d[2 * d_words], d_words, k);
    MeasuredOperand measured_b =
        measure_one_hot(*ops.b, *ops.d, spec.accumulator, &d[(2 + a_slots) * d_words], d_words, k);
    return {measured_a, measured_b, measured_c, measured_d};
}

// [SECTION] ldmatrix plan and decode -----------------------------------------------------------

namespace {

constexpr uint16_t kTileTag = 0x4000;
constexpr uint16_t kDecoyTag = 0x6000;
constexpr uint16_t kTagMask = 0xf000;
constexpr int kRowBytes = kLdmatrixRowElems * 2;

// lane -> position of its row slot: an odd multiplier permutes the 32 slots, so a hardware
// that ignored the lane's address and read row r at 16 * r would be caught. 3 -> 7
int ldmatrix_slot_position(int lane) { return (lane * 13) % kLdmatrixSlots; }

// "ldmatrix.x4.trans" -> matrices 4, trans true; false if `id` is not an ldmatrix ID.
bool parse_ldmatrix_id(std::string_view id, int& matrices, bool& trans) {
    for (int count : {1, 2, 4}) {
        const std::string base = "ldmatrix.x" + std::to_string(count);
        if (id == base || id == base + ".trans") {
            matrices = count;
            trans = id.size() > base.size();
            return true;
        }
    }
    return false;
}

}  // namespace

uint16_t ldmatrix_tile_value(int row, int col) { return uint16_t(kTileTag | row << 4 | col); }

uint16_t ldmatrix_decoy_value(int lane, int col) { return uint16_t(kDecoyTag | lane << 4 | col); }

DecodedCoord decode_ldmatrix_value(uint16_t value, int rows) {
    DecodedCoord out;
    const int index = (value >> 4) & 0xff;
    const int col = value & 0xf;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%04x", unsigned(value));
    if ((value & kTagMask) == kDecoyTag) {
        out.problem = std::string(hex) + " comes from the decoy row of lane " +
                      std::to_string(index) + ", a lane the model gives no row";
    } else if ((value & kTagMask) != kTileTag) {
        out.problem = std::string(hex) +
                      (value == 0xffff ? " (poison: never written)" : " is not a tile value");
    } else if (index >= rows || col >= kLdmatrixRowElems) {
        out.problem = std::string(hex) + " lies outside the tile";
    } else {
        out.row = index;
        out.col = col;
    }
    return out;
}

LdmatrixProbePlan plan_ldmatrix_probe(const viz::FragmentLayout& model) {
    LdmatrixProbePlan plan;
    const viz::OperandLayout* d = model.find(viz::Operand::D);
    if (!parse_ldmatrix_id(model.id, plan.matrices, plan.trans)) {
        plan.error = model.id + " is not an ldmatrix ID";
        return plan;
    }
    const int rows = 8 * plan.matrices;
    if (!d || model.threads != 32 || d->regs_per_thread != plan.matrices) {
        plan.error = model.id + ": the model needs a D layout of " + std::to_string(plan.matrices) +
                     " registers on 32 lanes";
        return plan;
    }
    if ((plan.error = shape_error(model.id.c_str(), *d, rows, kLdmatrixRowElems, 16)) != "") {
        return plan;
    }
    if (model.address_lanes.size() != size_t(rows)) {
        plan.error = model.id + ": address_lanes must name one lane for each of the " +
                     std::to_string(rows) + " rows";
        return plan;
    }
    std::vector<int> row_of_lane(kLdmatrixSlots, -1);
    for (int row = 0; row < rows; ++row) {
        const int lane = model.address_lanes[size_t(row)];
        if (lane < 0 || lane >= kLdmatrixSlots || row_of_lane[size_t(lane)] != -1) {
            plan.error = model.id + ": address lane " + std::to_string(lane) + " of row " +
                         std::to_string(row) + " is out of range or repeated";
            return plan;
        }
        row_of_lane[size_t(lane)] = row;
    }
    plan.smem.assign(size_t(kLdmatrixSlots) * kLdmatrixRowElems, 0);
    plan.lane_offsets.assign(kLdmatrixSlots, 0);
    for (int lane = 0; lane < kLdmatrixSlots; ++lane) {
        const int position = ldmatrix_slot_position(lane);
        plan.lane_offsets[size_t(lane)] = uint32_t(position * kRowBytes);
        const int row = row_of_lane[size_t(lane)];
        for (int col = 0; col < kLdmatrixRowElems; ++col) {
            plan.smem[size_t(position * kLdmatrixRowElems + col)] =
                row >= 0 ? ldmatrix_tile_value(row, col) : ldmatrix_decoy_value(lane, col);
        }
    }
    return plan;
}

std::vector<MeasuredOperand> decode_ldmatrix_probe(const viz::FragmentLayout& model,
                                                   const std::vector<uint32_t>& registers) {
    const viz::OperandLayout* d = model.find(viz::Operand::D);
    if (!d || d->elem_bits != 16) {
        return {};
    }
    const int matrices = d->regs_per_thread;
    if (registers.size() != size_t(kLdmatrixSlots) * matrices) {
        return {unmeasured(*d, "no output from the GPU")};
    }
    std::vector<DecodedCoord> decoded;
    for (const viz::LayoutElement& slot : d->elements) {
        const uint32_t word = registers[size_t(slot.lane * matrices + slot.reg)];
        decoded.push_back(decode_ldmatrix_value(uint16_t(word >> (16 * slot.sub)), d->rows));
    }
    return {measured_from(*d, decoded)};
}

// [SECTION] wgmma plan and decode --------------------------------------------------------------

size_t wgmma_b_offset(int k, int n) {
    const size_t core_bytes =
        size_t(n / 8) * kWgmmaStrideBytes + size_t(k / 8) * kWgmmaLeadingBytes;
    return core_bytes / 2 + size_t(n % 8) * 8 + size_t(k % 8);
}

uint64_t wgmma_descriptor(uint32_t smem_address, uint32_t leading_bytes, uint32_t stride_bytes) {
    const auto encode = [](uint32_t x) { return uint64_t((x & 0x3ffff) >> 4); };
    return encode(smem_address) | encode(leading_bytes) << 16 | encode(stride_bytes) << 32;
}

namespace {

std::string find_wgmma_operands(const viz::FragmentLayout& model, int n,
                                const viz::OperandLayout*& a, const viz::OperandLayout*& d) {
    a = model.find(viz::Operand::A);
    d = model.find(viz::Operand::D);
    if (n == 0) return model.id + " is not a wgmma ID";
    if (!a || !d) return model.id + ": the model lacks A or D";
    if (model.threads != kWgmmaThreads) {
        return model.id + ": wgmma runs on a warpgroup of 128 threads, the model has " +
               std::to_string(model.threads);
    }
    if (a->regs_per_thread != kWgmmaARegs || d->regs_per_thread != n / 2) {
        return model.id + ": the instruction takes 4 A registers and " + std::to_string(n / 2) +
               " D registers per thread";
    }
    const std::string a_error = shape_error(model.id.c_str(), *a, kWgmmaM, kWgmmaK, 16);
    return a_error.empty() ? shape_error(model.id.c_str(), *d, kWgmmaM, n, 32) : a_error;
}

std::string fill_b_tile(uint16_t* tile, int n, const std::function<int(int k, int col)>& value) {
    for (int k = 0; k < kWgmmaK; ++k) {
        for (int col = 0; col < n; ++col) {
            const std::optional<uint64_t> bits = encode_exact(ElementType::F16, value(k, col));
            if (!bits) {
                return "B" + coord_text(k, col) + " = " + std::to_string(value(k, col)) +
                       " is not exact in f16";
            }
            tile[wgmma_b_offset(k, col)] = uint16_t(*bits);
        }
    }
    return "";
}

}  // namespace

WgmmaProbePlan plan_wgmma_probe(const viz::FragmentLayout& model) {
    WgmmaProbePlan plan;
    plan.n = viz::wgmma_layout_n(model.id);
    const viz::OperandLayout* a = nullptr;
    const viz::OperandLayout* d = nullptr;
    if ((plan.error = find_wgmma_operands(model, plan.n, a, d)) != "") {
        return plan;
    }
    const size_t a_words = image_words(*a, kWgmmaThreads);
    const size_t tile_elems = size_t(kWgmmaK) * plan.n;
    plan.experiments = int(1 + a->elements.size());
    plan.a.assign(plan.experiments * a_words, 0);
    plan.b_tiles.assign(2 * tile_elems, 0);
    plan.tile_index.assign(size_t(plan.experiments), 1);
    plan.tile_index[0] = 0;
    plan.descriptor_template = wgmma_descriptor(0, kWgmmaLeadingBytes, kWgmmaStrideBytes);

    const int row_scale = product_row_scale(plan.n);
    std::string error = check_accumulator(ElementType::F32, row_scale, kWgmmaM, plan.n);
    // Experiment 0 (tile 0): D[m][n] = S*m + n + 1. One-hot experiments use tile 1: digits.
    if (error.empty()) error = fill_operand(&plan.a[0], *a, ElementType::F16, product_a);
    if (error.empty()) error = fill_b_tile(&plan.b_tiles[0], plan.n, product_b(row_scale));
    if (error.empty()) {
        error = fill_b_tile(&plan.b_tiles[tile_elems], plan.n,
                            [](int k, int col) { return k_digit(k, col); });
    }
    if (!error.empty()) {
        plan.error = model.id + ": " + error;
        return plan;
    }
    const uint64_t one = *encode_exact(ElementType::F16, 1);
    for (size_t i = 0; i < a->elements.size(); ++i) {
        write_slot(&plan.a[(1 + i) * a_words], *a, a->elements[i], one);
    }
    return plan;
}

std::vector<MeasuredOperand> decode_wgmma_probe(const viz::FragmentLayout& model,
                                                const std::vector<uint32_t>& d) {
    const int n = viz::wgmma_layout_n(model.id);
    const viz::OperandLayout* a = nullptr;
    const viz::OperandLayout* d_layout = nullptr;
    if (!find_wgmma_operands(model, n, a, d_layout).empty()) {
        return {};
    }
    const size_t d_words = image_words(*d_layout, kWgmmaThreads);
    if (d.size() != (1 + a->elements.size()) * d_words) {
        return {unmeasured(*a, "no output from the GPU"),
                unmeasured(*d_layout, "no output from the GPU")};
    }
    MeasuredOperand measured_d =
        measure_product(*d_layout, ElementType::F32, &d[0], product_row_scale(n));
    MeasuredOperand measured_a =
        measure_one_hot(*a, *d_layout, ElementType::F32, &d[d_words], d_words, kWgmmaK);
    return {measured_a, measured_d};
}

// [SECTION] Measurement and comparison ---------------------------------------------------------

namespace {

std::string sm_text(int sm) { return "sm_" + std::to_string(sm); }

// The current device's compute capability as major * 10 + minor, or an error.
std::string current_sm(int& sm) {
    int device = 0, major = 0, minor = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    }
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    }
    if (status != cudaSuccess) {
        return "no usable CUDA device: " + cuda_text(status);
    }
    sm = major * 10 + minor;
    return "";
}

void finish(LayoutProbeResult& result, const viz::FragmentLayout& model, const DeviceRun& run,
            int sm, const std::function<std::vector<MeasuredOperand>()>& decode) {
    if (!run.error.empty()) {
        result.error = model.id + ": " + run.error;
    } else if (run.not_compiled) {
        result.skipped_reason = model.id + ": this build of tclens has no " + model.ptx +
                                " code for " + sm_text(sm) + " (see CMAKE_CUDA_ARCHITECTURES)";
    } else {
        result.operands = decode();
    }
}

std::string slot_name(const viz::OperandLayout& layout, const viz::LayoutElement& slot) {
    const int subs = viz::elements_per_register(layout.elem_bits);
    std::string name(1, char(viz::operand_letter(layout.operand) - 'A' + 'a'));
    name += std::to_string(slot.reg * subs + slot.sub);
    if (subs > 1) {
        name += " (reg " + std::to_string(slot.reg) + ", sub " + std::to_string(slot.sub) + ")";
    }
    return name;
}

}  // namespace

LayoutProbeResult measure_fragment_layout(const viz::FragmentLayout& model) {
    LayoutProbeResult result;
    const std::string_view id = model.id;
    const MmaProbeSpec* mma = find_mma_probe_spec(id);
    int ld_matrices = 0;
    bool ld_trans = false;
    const bool is_ldmatrix = parse_ldmatrix_id(id, ld_matrices, ld_trans);
    const bool is_wgmma = viz::wgmma_layout_n(id) != 0;
    if (!mma && !is_ldmatrix && !is_wgmma) {
        result.error = model.id + ": no probe for this layout ID";
        return result;
    }
    int sm = 0;
    if ((result.error = current_sm(sm)) != "") {
        return result;
    }
    if (mma) {
        if (sm < mma->min_sm) {
            result.skipped_reason = model.id + " needs " + sm_text(mma->min_sm) +
                                    " or newer (FP8 mma.sync); this GPU is " + sm_text(sm);
            return result;
        }
        const MmaProbePlan plan = plan_mma_probe(model, *mma);
        if ((result.error = plan.error) != "") return result;
        const DeviceRun run = run_mma_probe(plan);
        finish(result, model, run, sm, [&] { return decode_mma_probe(model, *mma, run.out); });
    } else if (is_ldmatrix) {
        const LdmatrixProbePlan plan = plan_ldmatrix_probe(model);
        if ((result.error = plan.error) != "") return result;
        const DeviceRun run = run_ldmatrix_probe(plan);
        finish(result, model, run, sm, [&] { return decode_ldmatrix_probe(model, run.out); });
    } else {
        // wgmma exists only as the sm_90a feature set: not on sm_89 and older, and not on
        // Blackwell (sm_100 and up), which replaced it with tcgen05.
        if (sm != 90) {
            result.skipped_reason = model.id + " needs sm_90a (compute capability 9.0, " +
                                    "Hopper); this GPU is " + sm_text(sm);
            return result;
        }
        const WgmmaProbePlan plan = plan_wgmma_probe(model);
        if ((result.error = plan.error) != "") return result;
        const DeviceRun run = run_wgmma_probe(plan);
        finish(result, model, run, sm, [&] { return decode_wgmma_probe(model, run.out); });
    }
    return result;
}

LayoutComparison compare_layouts(const viz::FragmentLayout& model,
                                 const LayoutProbeResult& measured) {
    LayoutComparison comparison;
    for (const viz::OperandLayout& layout : model.operands) {
        comparison.total += int(layout.elements.size());
    }
    if (!measured.error.empty() || !measured.skipped_reason.empty()) {
        comparison.mismatches.push_back(
            "not measured: " +
            (measured.error.empty() ? "skipped: " + measured.skipped_reason : measured.error));
        return comparison;
    }
    for (const viz::OperandLayout& layout : model.operands) {
        const char letter = viz::operand_letter(layout.operand);
        const MeasuredOperand* found = nullptr;
        for (const MeasuredOperand& operand : measured.operands) {
            if (operand.operand == layout.operand) found = &operand;
        }
        if (!found) {
            comparison.mismatches.push_back(std::string(1, letter) + ": not measured (" +
                                            std::to_string(layout.elements.size()) + " elements)");
            continue;
        }
        std::map<std::tuple<int, int, int>, size_t> by_slot;
        for (size_t i = 0; i < found->elements.size(); ++i) {
            const viz::LayoutElement& e = found->elements[i];
            by_slot[{e.lane, e.reg, e.sub}] = i;
        }
        for (const viz::LayoutElement& slot : layout.elements) {
            const auto it = by_slot.find({slot.lane, slot.reg, slot.sub});
            std::string got;
            if (it == by_slot.end()) {
                got = "nothing (slot not measured)";
            } else {
                const viz::LayoutElement& e = found->elements[it->second];
                if (e.row == slot.row && e.col == slot.col) {
                    ++comparison.matched;
                    continue;
                }
                const std::string& problem =
                    it->second < found->problems.size() ? found->problems[it->second] : "";
                got = problem.empty() ? coord_text(e.row, e.col) : "nothing: " + problem;
            }
            comparison.mismatches.push_back(std::string(1, letter) + " lane " +
                                            std::to_string(slot.lane) + " " +
                                            slot_name(layout, slot) + ": model " +
                                            coord_text(slot.row, slot.col) + " measured " + got);
        }
    }
    return comparison;
}

std::string comparison_summary(const LayoutComparison& comparison) {
    return std::to_string(comparison.matched) + "/" + std::to_string(comparison.total) +
           " elements match";
}

// [SECTION] Device staging ---------------------------------------------------------------------

namespace {

// Frees every allocation on scope exit, whatever path the launch took.
struct DeviceAllocations {
    std::vector<void*> pointers;
    ~DeviceAllocations() {
        for (void* p : pointers) cudaFree(p);
    }
    cudaError_t allocate(void** out, size_t bytes) {
        const cudaError_t status = cudaMalloc(out, bytes);
        if (status == cudaSuccess) pointers.push_back(*out);
        return status;
    }
};

}  // namespace

DeviceRun run_on_device(const std::vector<HostBytes>& inputs, size_t out_words,
                        const ProbeLaunch& launch) {
    DeviceRun run;
    DeviceAllocations allocations;
    std::vector<const void*> device_inputs;
    cudaError_t status = cudaSuccess;
    for (const HostBytes& input : inputs) {
        void* p = nullptr;
        if (status == cudaSuccess && input.bytes > 0)
            status = allocations.allocate(&p, input.bytes);
        if (status == cudaSuccess && input.bytes > 0) {
            status = cudaMemcpy(p, input.data, input.bytes, cudaMemcpyHostToDevice);
        }
        device_inputs.push_back(p);
    }
    void* out = nullptr;
    void* flag = nullptr;
    const size_t out_bytes = out_words * sizeof(uint32_t);
    if (status == cudaSuccess) status = allocations.allocate(&out, out_bytes);
    if (status == cudaSuccess) status = cudaMemset(out, 0xff, out_bytes);  // poison
    if (status == cudaSuccess) status = allocations.allocate(&flag, sizeof(int));
    if (status == cudaSuccess) status = cudaMemset(flag, 0, sizeof(int));
    if (status == cudaSuccess) {
        launch(device_inputs, static_cast<uint32_t*>(out), static_cast<int*>(flag));
        status = cudaGetLastError();
    }
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    int not_compiled = 0;
    if (status == cudaSuccess) {
        run.out.resize(out_words);
        status = cudaMemcpy(run.out.data(), out, out_bytes, cudaMemcpyDeviceToHost);
    }
    if (status == cudaSuccess) {
        status = cudaMemcpy(&not_compiled, flag, sizeof(int), cudaMemcpyDeviceToHost);
    }
    if (status != cudaSuccess) {
        run.out.clear();
        run.error = cuda_text(status);
    }
    run.not_compiled = not_compiled != 0;
    return run;
}

}  // namespace tclens::kernels
