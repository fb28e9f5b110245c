// The fragment layout probes' plain half: element encodings, register images, the decoding
// helpers and product designs every plan uses, and the comparison with the model. The plans of
// each instruction family live in their own files (see fragment_probe.h); the device checks, the
// dispatch by layout ID and the device staging in fragment_probe_run.cpp (CUDA).
//
// [SECTION] Element encodings
// [SECTION] Register images
// [SECTION] Decoding helpers
// [SECTION] Product designs
// [SECTION] Building blocks for the plans
// [SECTION] Comparison
#include "kernels/probes/fragment_probe.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "kernels/probes/matrix_move_probe_plan.h"
#include "kernels/probes/mma_probe_plan.h"
#include "kernels/probes/mma_sp_probe_plan.h"
#include "kernels/probes/wgmma_probe_plan.h"
#include "kernels/probes/wgmma_smem_probe_plan.h"
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
constexpr FloatFormat kE5m2{5, 2, true};  // IEEE-style: its top exponent holds inf and NaN
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
        case ElementType::E5m2:
        case ElementType::U8:
            return 8;
        case ElementType::S4:
        case ElementType::U4:
            return 4;
        case ElementType::B1:
            return 1;
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
        case ElementType::E5m2:
            return "e5m2";
        case ElementType::U8:
            return "u8";
        case ElementType::S4:
            return "s4";
        case ElementType::U4:
            return "u4";
        case ElementType::B1:
            return "b1";
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
        case ElementType::E5m2:
            return encode_float(kE5m2, value);
        case ElementType::U8:
            if (value < 0 || value > 255) return std::nullopt;
            return uint64_t(value);
        case ElementType::S4:
            if (value < -8 || value > 7) return std::nullopt;
            return uint64_t(value) & 0xf;
        case ElementType::U4:
            if (value < 0 || value > 15) return std::nullopt;
            return uint64_t(value);
        case ElementType::B1:
            if (value < 0 || value > 1) return std::nullopt;
            return uint64_t(value);
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
        case ElementType::E5m2:
            return decode_float(kE5m2, bits & 0xff);
        case ElementType::U8:
            return double(bits & 0xff);
        case ElementType::S4: {
            const int nibble = int(bits & 0xf);
            return double(nibble >= 8 ? nibble - 16 : nibble);
        }
        case ElementType::U4:
            return double(bits & 0xf);
        case ElementType::B1:
            return double(bits & 1);
    }
    return std::nullopt;
}

int largest_dense_exact(ElementType type) {
    constexpr int kCap = 2048;
    int value = 0;
    while (value < kCap && encode_exact(type, value + 1)) ++value;
    return value;
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

DigitCode digit_code(ElementType type, int depth) {
    DigitCode code;
    code.base = std::min(8, largest_dense_exact(type));
    code.digits = 1;
    int reach = code.base;
    while (reach < depth) {
        reach *= code.base;
        ++code.digits;
    }
    code.digits = std::max(code.digits, 2);
    return code;
}

int k_digit(int k, int j) { return k_digit(k, j, DigitCode{}); }

int k_digit(int k, int j, const DigitCode& code) {
    int value = k;
    for (int i = 0; i < j % code.digits; ++i) value /= code.base;
    return 1 + value % code.base;
}

int product_row_scale(int cols) {
    int scale = 1;
    while (scale < cols) {
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
                            int rows, int cols, int depth, const DigitCode& code) {
    // For A (and mma.sp's metadata E) the nonzero values lie along one D row ("line") and spell
    // k across its columns ("positions"); for B along one D column, spelling k down its rows.
    const bool along_row = operand != viz::Operand::B;
    const char* line_name = along_row ? "row" : "column";
    const int positions = along_row ? cols : rows;
    DecodedCoord out;
    if (positions < code.digits) {
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
    // The first `digits` positions give k; every position must then hold its digit of k.
    int k = 0;
    bool digits_ok = true;
    for (int i = code.digits - 1; i >= 0 && digits_ok; --i) {
        const double digit = spelled[size_t(i)] - 1;
        digits_ok = digit == std::floor(digit) && digit >= 0 && digit < code.base;
        k = k * code.base + (digits_ok ? int(digit) : 0);
    }
    digits_ok = digits_ok && k < depth;
    for (int p = 0; p < positions; ++p) {
        if (!digits_ok || spelled[size_t(p)] != k_digit(k, p, code)) {
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

// [SECTION] Product designs --------------------------------------------------------------------

namespace {

int power(int base, int exponent) {
    int value = 1;
    for (int i = 0; i < exponent; ++i) value *= base;
    return value;
}

// Number of base-`base` digits of `largest` (at least 1).
int digit_count(int largest, int base) {
    int count = 1;
    while (power(base, count) <= largest) ++count;
    return count;
}

bool all_exact(ElementType type, int largest_digit, int factor) {
    for (int d = 0; d <= largest_digit; ++d) {
        if (!encode_exact(type, d * factor)) return false;
    }
    return true;
}

// The columns that give x * weight (x in 0..largest) as digits of x: for each digit the fewest
// columns, one where an exact constant times an exact factor * digit makes the digit's weight,
// else repeated columns of the largest exact power-of-two constant.
bool add_terms(ElementType type, bool row_term, int largest, long long weight, int base,
               std::vector<DesignColumn>& columns) {
    const int digits = digit_count(largest, base);
    for (int i = 0; i < digits; ++i) {
        const long long digit_weight = weight * power(base, i);
        const int largest_digit = std::min(base - 1, largest / power(base, i));
        bool placed = false;
        for (long long constant = digit_weight; constant >= 1 && !placed; constant /= 2) {
            if (digit_weight % constant != 0 || !encode_exact(type, int(constant))) continue;
            const long long factor = digit_weight / constant;
            if (factor > (1 << 20) || !all_exact(type, largest_digit, int(factor))) continue;
            columns.push_back({row_term, i, int(factor), int(constant)});
            placed = true;
        }
        if (placed) continue;
        long long constant = 1;
        while (constant * 2 <= digit_weight && digit_weight % (constant * 2) == 0 &&
               encode_exact(type, int(constant * 2))) {
            constant *= 2;
        }
        const long long repeats = digit_weight / constant;
        if (repeats > 4096) return false;
        for (long long r = 0; r < repeats; ++r) columns.push_back({row_term, i, 1, int(constant)});
    }
    return true;
}

int digit_of(int x, int digit, int base) { return (x / power(base, digit)) % base; }

}  // namespace

int ProductDesign::a(int m, int kk) const {
    if (kk < 0 || kk >= int(columns.size())) return 0;
    const DesignColumn& c = columns[size_t(kk)];
    return c.row_term ? c.factor * digit_of(m, c.digit, base) : c.constant;
}

int ProductDesign::b(int kk, int n) const {
    if (kk < 0 || kk >= int(columns.size())) return 0;
    const DesignColumn& c = columns[size_t(kk)];
    return c.row_term ? c.constant : c.factor * digit_of(n + 1, c.digit, base);
}

ProductDesign make_product_design(ElementType input, int m, int n, int k) {
    ProductDesign design;
    design.row_scale = product_row_scale(n);
    const int dense = largest_dense_exact(input);
    for (int base = 2048; base >= 2; base /= 2) {
        if (base - 1 > dense) continue;
        std::vector<DesignColumn> columns;
        if (!add_terms(input, true, m - 1, design.row_scale, base, columns) ||
            !add_terms(input, false, n, 1, base, columns) || int(columns.size()) > k) {
            continue;
        }
        design.base = base;
        design.columns = std::move(columns);
        return design;
    }
    design.error = std::string("no product design for ") + element_name(input) +
                   " fits K = " + std::to_string(k);
    return design;
}

// [SECTION] Building blocks for the plans ------------------------------------------------------

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

MeasuredOperand measure_product(const viz::OperandLayout& d_layout, ElementType accumulator,
                                const uint32_t* image, int row_scale,
                                const std::function<double(double)>& transform) {
    std::vector<DecodedCoord> decoded;
    decoded.reserve(d_layout.elements.size());
    for (const viz::LayoutElement& slot : d_layout.elements) {
        std::optional<double> value = decode_element(accumulator, read_slot(image, d_layout, slot));
        if (value && transform) value = transform(*value);
        decoded.push_back(decode_product(value, row_scale, d_layout.rows, d_layout.cols));
    }
    return measured_from(d_layout, decoded);
}

MeasuredOperand measure_one_hot(const viz::OperandLayout& layout,
                                const viz::OperandLayout& d_layout, ElementType accumulator,
                                const uint32_t* first_image, size_t image_stride, int depth,
                                const DigitCode& code) {
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
            decode_one_hot(layout.operand, readings, d_layout.rows, d_layout.cols, depth, code));
    }
    return measured_from(layout, decoded);
}

MeasuredProductAndC measure_product_and_c(const viz::OperandLayout& d_layout,
                                          const viz::OperandLayout& c_layout,
                                          ElementType accumulator, const uint32_t* d_images,
                                          size_t d_words) {
    return {measure_product(d_layout, accumulator, d_images, product_row_scale(d_layout.cols)),
            measure_accumulator_c(c_layout, d_layout, accumulator, d_images + d_words)};
}

MeasuredOperand measure_accumulator_c(const viz::OperandLayout& c_layout,
                                      const viz::OperandLayout& d_layout, ElementType accumulator,
                                      const uint32_t* d_image) {
    std::vector<long> arrived(c_layout.elements.size(), -1);
    for (size_t j = 0; j < d_layout.elements.size(); ++j) {
        const std::optional<double> v =
            decode_element(accumulator, read_slot(d_image, d_layout, d_layout.elements[j]));
        if (v && *v >= 1 && *v <= double(arrived.size()) && *v == std::floor(*v)) {
            arrived[size_t(*v) - 1] = long(j);
        }
    }
    std::vector<DecodedCoord> coords;
    for (size_t i = 0; i < c_layout.elements.size(); ++i) {
        if (arrived[i] < 0) {
            coords.push_back(
                {-1, -1, "its value " + std::to_string(i + 1) + " reached no D register"});
        } else {
            const viz::LayoutElement& at = d_layout.elements[size_t(arrived[i])];
            coords.push_back({at.row, at.col, ""});
        }
    }
    return measured_from(c_layout, coords);
}

std::string fill_accumulator_c(uint32_t* image, const viz::OperandLayout& c_layout,
                               ElementType accumulator) {
    for (size_t i = 0; i < c_layout.elements.size(); ++i) {
        const std::optional<uint64_t> bits = encode_exact(accumulator, int(i + 1));
        if (!bits) {
            return "C value " + std::to_string(i + 1) + " is not exact in " +
                   element_name(accumulator);
        }
        write_slot(image, c_layout, c_layout.elements[i], *bits);
    }
    return "";
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

std::string check_accumulator(ElementType accumulator, int row_scale, int rows, int cols) {
    const int largest = row_scale * (rows - 1) + cols;
    if (encode_exact(accumulator, largest)) {
        return "";
    }
    return "D value " + std::to_string(largest) + " is not exact in " + element_name(accumulator);
}

// [SECTION] Comparison -------------------------------------------------------------------------

namespace {

std::string slot_name(const viz::OperandLayout& layout, const viz::LayoutElement& slot) {
    const int subs = viz::elements_per_register(layout.elem_bits);
    std::string name(1, char(viz::operand_letter(layout.operand) - 'A' + 'a'));
    name += std::to_string(slot.reg * subs + slot.sub);
    if (subs > 1) {
        name += " (reg " + std::to_string(slot.reg) + ", sub " + std::to_string(slot.sub) + ")";
    }
    return name;
}

// Adds `tile`'s elements to `comparison`, against the measured tile of the same operand.
void compare_tile(const viz::SharedMemoryTile& tile, const std::vector<MeasuredTile>& measured,
                  LayoutComparison& comparison) {
    const char letter = viz::operand_letter(tile.operand);
    const MeasuredTile* found = nullptr;
    for (const MeasuredTile& candidate : measured) {
        if (candidate.operand == tile.operand) found = &candidate;
    }
    if (!found || found->coords.size() != tile.elements.size()) {
        comparison.mismatches.push_back(std::string(1, letter) + " tile: not measured (" +
                                        std::to_string(tile.elements.size()) + " elements)");
        return;
    }
    for (size_t i = 0; i < tile.elements.size(); ++i) {
        const viz::SharedMemoryElement& e = tile.elements[i];
        const DecodedCoord& got = found->coords[i];
        if (got.row == e.row && got.col == e.col) {
            ++comparison.matched;
            continue;
        }
        std::string place = std::string(1, letter) + " byte " + std::to_string(e.byte);
        if (tile.elem_bits < 8) place += " bit " + std::to_string(e.bit);
        comparison.mismatches.push_back(
            place + ": model " + coord_text(e.row, e.col) + " measured " +
            (got.problem.empty() ? coord_text(got.row, got.col) : "nothing: " + got.problem));
    }
}

}  // namespace

bool has_layout_probe(std::string_view id) {
    std::string instruction;
    int matrices = 0;
    bool trans = false;
    WgmmaKind kind = WgmmaKind::F16;
    return find_mma_probe_spec(id) || find_sparse_probe_spec(id) ||
           parse_matrix_move_id(id, instruction, matrices, trans) || viz::wgmma_layout_n(id) != 0 ||
           wgmma_smem_kind_of(id, kind, trans);
}

LayoutComparison compare_layouts(const viz::FragmentLayout& model,
                                 const LayoutProbeResult& measured) {
    LayoutComparison comparison;
    for (const viz::OperandLayout& layout : model.operands) {
        comparison.total += int(layout.elements.size());
    }
    for (const viz::SharedMemoryTile& tile : model.shared_memory) {
        comparison.total += int(tile.elements.size());
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
        for (size_t index = 0; index < layout.elements.size(); ++index) {
            const viz::LayoutElement& slot = layout.elements[index];
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
            comparison.wrong.push_back({layout.operand, int(index)});
            comparison.mismatches.push_back(std::string(1, letter) + " lane " +
                                            std::to_string(slot.lane) + " " +
                                            slot_name(layout, slot) + ": model " +
                                            coord_text(slot.row, slot.col) + " measured " + got);
        }
    }
    for (const viz::SharedMemoryTile& tile : model.shared_memory) {
        compare_tile(tile, measured.tiles, comparison);
    }
    return comparison;
}

std::string comparison_summary(const LayoutComparison& comparison) {
    return std::to_string(comparison.matched) + "/" + std::to_string(comparison.total) +
           " elements match";
}

}  // namespace tclens::kernels
