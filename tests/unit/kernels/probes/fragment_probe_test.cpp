// CPU tests of the fragment probes' pure parts: element encodings, register images, decoders,
// probe plans and comparison. No GPU: each instruction is emulated on the CPU from its PTX ISA
// description (written here independently of the decoders), so a whole probe (plan -> emulated
// registers -> decode -> compare) runs end to end. Emulating a "hardware" whose layout differs
// from the model shows the probe catching it.
#include "kernels/probes/fragment_probe.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "viz/fragment_layout.h"
#include "viz/layouts/wgmma_layouts.h"

namespace tclens::kernels {
namespace {

using viz::FragmentLayout;
using viz::Operand;
using viz::OperandLayout;

FragmentLayout layout_of(const std::string& id) {
    const std::optional<FragmentLayout> layout = viz::fragment_layout(id);
    EXPECT_TRUE(layout.has_value()) << id;
    return layout.value_or(FragmentLayout{});
}

OperandLayout& operand_of(FragmentLayout& layout, Operand op) {
    for (OperandLayout& operand : layout.operands) {
        if (operand.operand == op) return operand;
    }
    ADD_FAILURE() << "no operand " << viz::operand_letter(op);
    return layout.operands.front();
}

int count_prefixed(const LayoutComparison& comparison, const std::string& prefix) {
    int count = 0;
    for (const std::string& line : comparison.mismatches) {
        count += line.rfind(prefix, 0) == 0 ? 1 : 0;
    }
    return count;
}

// ---- CPU emulation of the instructions ----------------------------------------------------

using Matrix = std::vector<std::vector<double>>;

Matrix read_matrix(const OperandLayout& layout, ElementType type, const uint32_t* image) {
    Matrix m(size_t(layout.rows), std::vector<double>(size_t(layout.cols), 0.0));
    for (const viz::LayoutElement& slot : layout.elements) {
        m[size_t(slot.row)][size_t(slot.col)] =
            decode_element(type, read_slot(image, layout, slot)).value_or(NAN);
    }
    return m;
}

void write_matrix(const OperandLayout& layout, ElementType type, const Matrix& m, uint32_t* image) {
    for (const viz::LayoutElement& slot : layout.elements) {
        const double v = m[size_t(slot.row)][size_t(slot.col)];
        const std::optional<uint64_t> bits = encode_exact(type, int(v));
        ASSERT_TRUE(bits && double(int(v)) == v) << v;
        write_slot(image, layout, slot, *bits);
    }
}

Matrix multiply_add(const Matrix& a, const Matrix& b, const Matrix* c) {
    Matrix d(a.size(), std::vector<double>(b[0].size(), 0.0));
    for (size_t m = 0; m < a.size(); ++m) {
        for (size_t k = 0; k < b.size(); ++k) {
            if (a[m][k] == 0) continue;
            for (size_t n = 0; n < b[0].size(); ++n) d[m][n] += a[m][k] * b[k][n];
        }
        for (size_t n = 0; c && n < b[0].size(); ++n) d[m][n] += (*c)[m][n];
    }
    return d;
}

// mma.sync: D = A * B + C, every operand in the registers `hardware` says.
std::vector<uint32_t> emulate_mma(const FragmentLayout& hardware, const MmaProbeSpec& spec,
                                  const MmaProbePlan& plan) {
    const OperandLayout* a = hardware.find(Operand::A);
    const OperandLayout* b = hardware.find(Operand::B);
    const OperandLayout* c = hardware.find(Operand::C);
    const OperandLayout* d = hardware.find(Operand::D);
    const size_t aw = image_words(*a, 32), bw = image_words(*b, 32), cw = image_words(*c, 32);
    std::vector<uint32_t> out(plan.experiments * cw, 0xffffffffu);
    for (size_t e = 0; e < size_t(plan.experiments); ++e) {
        const Matrix am = read_matrix(*a, spec.input, &plan.a[e * aw]);
        const Matrix bm = read_matrix(*b, spec.input, &plan.b[e * bw]);
        const Matrix cm = read_matrix(*c, spec.accumulator, &plan.c[e * cw]);
        write_matrix(*d, spec.accumulator, multiply_add(am, bm, &cm), &out[e * cw]);
    }
    return out;
}

// ldmatrix.m8n8.b16 (PTX ISA): row r of matrix j comes from the address in lane 8j + r; lane
// 4g + t receives row g, columns 2t and 2t + 1 of each matrix, or with .trans column g, rows 2t
// and 2t + 1; the lower column (row) goes to the low half of the register.
// (lane, reg j, half) -> (row, col) of matrix j: lane 5, r0, high half -> (1, 3); .trans (3, 1)
std::vector<uint32_t> emulate_ldmatrix(const LdmatrixProbePlan& plan) {
    std::vector<uint32_t> out(size_t(32 * plan.matrices), 0xffffffffu);
    for (int lane = 0; lane < 32; ++lane) {
        for (int j = 0; j < plan.matrices; ++j) {
            uint32_t word = 0;
            for (int half = 0; half < 2; ++half) {
                const int row = plan.trans ? 2 * (lane % 4) + half : lane / 4;
                const int col = plan.trans ? lane / 4 : 2 * (lane % 4) + half;
                const uint32_t byte = plan.lane_offsets[size_t(8 * j + row)];
                word |= uint32_t(plan.smem[byte / 2 + size_t(col)]) << (16 * half);
            }
            out[size_t(lane * plan.matrices + j)] = word;
        }
    }
    return out;
}

// wgmma.m64nNk16.f32.f16.f16 with scale-d = 0: D = A * B. B is read from the tile the way the
// PTX ISA's canonical K-major, no-swizzle layout ((8,m),(T,2k)):((1T,SBO),(1,LBO)) says, T = 8
// f16 elements, with LBO and SBO taken from the descriptor.
std::vector<uint32_t> emulate_wgmma(const FragmentLayout& hardware, const WgmmaProbePlan& plan) {
    const OperandLayout* a = hardware.find(Operand::A);
    const OperandLayout* d = hardware.find(Operand::D);
    const size_t lbo_elems = ((plan.descriptor_template >> 16) & 0x3fff) * 16 / 2;
    const size_t sbo_elems = ((plan.descriptor_template >> 32) & 0x3fff) * 16 / 2;
    const size_t aw = image_words(*a, 128), dw = image_words(*d, 128);
    const size_t tile_elems = size_t(16 * plan.n);
    std::vector<Matrix> tiles;
    for (size_t t = 0; t < plan.b_tiles.size() / tile_elems; ++t) {
        Matrix b(16, std::vector<double>(size_t(plan.n), 0.0));
        for (int k = 0; k < 16; ++k) {
            for (int n = 0; n < plan.n; ++n) {
                const size_t at = size_t(n % 8) * 8 + size_t(n / 8) * sbo_elems + size_t(k % 8) +
                                  size_t(k / 8) * lbo_elems;
                b[size_t(k)][size_t(n)] =
                    *decode_element(ElementType::F16, plan.b_tiles[t * tile_elems + at]);
            }
        }
        tiles.push_back(b);
    }
    std::vector<uint32_t> out(plan.experiments * dw, 0xffffffffu);
    for (size_t e = 0; e < size_t(plan.experiments); ++e) {
        const Matrix am = read_matrix(*a, ElementType::F16, &plan.a[e * aw]);
        const Matrix& bm = tiles[size_t(plan.tile_index[e])];
        write_matrix(*d, ElementType::F32, multiply_add(am, bm, nullptr), &out[e * dw]);
    }
    return out;
}

LayoutProbeResult emulated_mma_result(const FragmentLayout& model, const FragmentLayout& hw) {
    const MmaProbeSpec* spec = find_mma_probe_spec(model.id);
    EXPECT_NE(spec, nullptr) << model.id;
    const MmaProbePlan plan = plan_mma_probe(model, *spec);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_mma_probe(model, *spec, emulate_mma(hw, *spec, plan))};
}

LayoutProbeResult emulated_ldmatrix_result(const FragmentLayout& model) {
    const LdmatrixProbePlan plan = plan_ldmatrix_probe(model);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_ldmatrix_probe(model, emulate_ldmatrix(plan))};
}

LayoutProbeResult emulated_wgmma_result(const FragmentLayout& model, const FragmentLayout& hw) {
    const WgmmaProbePlan plan = plan_wgmma_probe(model);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_wgmma_probe(model, emulate_wgmma(hw, plan))};
}

// ---- Encodings --------------------------------------------------------------------------

TEST(FragmentProbeEncoding, KnownBitPatterns) {
    EXPECT_EQ(encode_exact(ElementType::F16, 1), 0x3c00u);
    EXPECT_EQ(encode_exact(ElementType::F16, 2048), 0x6800u);
    EXPECT_EQ(encode_exact(ElementType::F16, -2), 0xc000u);
    EXPECT_EQ(encode_exact(ElementType::Bf16, 1), 0x3f80u);
    EXPECT_EQ(encode_exact(ElementType::E4m3, 1), 0x38u);
    EXPECT_EQ(encode_exact(ElementType::E4m3, 16), 0x58u);
    EXPECT_EQ(encode_exact(ElementType::E4m3, 448), 0x7eu);  // the largest e4m3 number
    EXPECT_EQ(encode_exact(ElementType::Tf32, 1), 0x3f800000u);
    EXPECT_EQ(encode_exact(ElementType::F32, 3), 0x40400000u);
    EXPECT_EQ(encode_exact(ElementType::F64, 1), 0x3ff0000000000000u);
    EXPECT_EQ(encode_exact(ElementType::S8, -1), 0xffu);
    EXPECT_EQ(encode_exact(ElementType::S32, -1), 0xffffffffu);
    EXPECT_EQ(encode_exact(ElementType::F16, 0), 0u);
}

TEST(FragmentProbeEncoding, RefusesValuesTheTypeCannotHoldExactly) {
    EXPECT_FALSE(encode_exact(ElementType::E4m3, 17));  // needs 4 mantissa bits
    EXPECT_TRUE(encode_exact(ElementType::E4m3, 18));
    EXPECT_FALSE(encode_exact(ElementType::E4m3, 480));  // 0x7f is NaN in e4m3
    EXPECT_FALSE(encode_exact(ElementType::F16, 2049));
    EXPECT_FALSE(encode_exact(ElementType::F16, 65536));  // beyond the largest f16
    EXPECT_FALSE(encode_exact(ElementType::Bf16, 257));
    EXPECT_FALSE(encode_exact(ElementType::Tf32, 2049));
    EXPECT_FALSE(encode_exact(ElementType::F32, (1 << 24) + 1));
    EXPECT_FALSE(encode_exact(ElementType::S8, 128));
}

TEST(FragmentProbeEncoding, RoundTripsEverySmallInteger) {
    for (ElementType type :
         {ElementType::Tf32, ElementType::F16, ElementType::Bf16, ElementType::S8,
          ElementType::E4m3, ElementType::F64, ElementType::F32, ElementType::S32}) {
        for (int v = -16; v <= 16; ++v) {
            const std::optional<uint64_t> bits = encode_exact(type, v);
            ASSERT_TRUE(bits) << element_name(type) << " " << v;
            EXPECT_EQ(decode_element(type, *bits), double(v)) << element_name(type);
        }
    }
}

TEST(FragmentProbeEncoding, PoisonDecodesAsNotANumber) {
    EXPECT_FALSE(decode_element(ElementType::F32, 0xffffffffu));
    EXPECT_FALSE(decode_element(ElementType::F64, ~uint64_t{0}));
    EXPECT_FALSE(decode_element(ElementType::F16, 0xffff));
    EXPECT_FALSE(decode_element(ElementType::E4m3, 0x7f));
    EXPECT_EQ(decode_element(ElementType::S32, 0xffffffffu), -1.0);  // caught by range checks
}

// ---- Register images --------------------------------------------------------------------

TEST(FragmentProbeImage, PacksSubElementsLowBitsFirst) {
    FragmentLayout layout = layout_of("mma.m16n8k32.s8");
    const OperandLayout& a = operand_of(layout, Operand::A);
    std::vector<uint32_t> image(image_words(a, 32), 0);
    ASSERT_EQ(fill_operand(image.data(), a, ElementType::S8,
                           [](int row, int col) { return (row * 32 + col) % 100; }),
              "");
    // Lane 0, a0..a3 hold A[0][0..3] (PTX ISA m16n8k32 A fragment).
    EXPECT_EQ(image[0], 0x03020100u);
    for (const viz::LayoutElement& slot : a.elements) {
        EXPECT_EQ(read_slot(image.data(), a, slot), uint64_t((slot.row * 32 + slot.col) % 100));
    }
}

TEST(FragmentProbeImage, SixtyFourBitRegistersTakeTwoWords) {
    FragmentLayout layout = layout_of("mma.m8n8k4.f64");
    const OperandLayout& c = operand_of(layout, Operand::C);
    std::vector<uint32_t> image(image_words(c, 32), 0);
    EXPECT_EQ(image.size(), 32u * 2 * 2);
    write_slot(image.data(), c, c.elements[1], 0x0123456789abcdefu);  // lane 0, c1
    EXPECT_EQ(image[2], 0x89abcdefu);
    EXPECT_EQ(image[3], 0x01234567u);
    EXPECT_EQ(read_slot(image.data(), c, c.elements[1]), 0x0123456789abcdefu);
}

TEST(FragmentProbeImage, ReportsInexactValues) {
    FragmentLayout layout = layout_of("mma.m16n8k32.e4m3");
    const OperandLayout& a = operand_of(layout, Operand::A);
    std::vector<uint32_t> image(image_words(a, 32), 0);
    const std::string error =
        fill_operand(image.data(), a, ElementType::E4m3, [](int, int col) { return col + 1; });
    EXPECT_NE(error.find("17 is not exact in e4m3"), std::string::npos) << error;
}

// ---- Decoders ---------------------------------------------------------------------------

TEST(FragmentProbeDecode, ProductValues) {
    EXPECT_EQ(product_row_scale(8), 16);
    EXPECT_EQ(product_row_scale(256), 512);
    const DecodedCoord ok = decode_product(16.0 * 5 + 3 + 1, 16, 16, 8);
    EXPECT_EQ(ok.problem, "");
    EXPECT_EQ(ok.row, 5);
    EXPECT_EQ(ok.col, 3);
    EXPECT_NE(decode_product(std::nullopt, 16, 16, 8).problem, "");
    EXPECT_NE(decode_product(0.0, 16, 16, 8).problem, "");
    EXPECT_NE(decode_product(2.5, 16, 16, 8).problem, "");
    EXPECT_NE(decode_product(16.0 * 2 + 9 + 1, 16, 16, 8).problem, "");  // n = 9 >= N
    EXPECT_NE(decode_product(16.0 * 16 + 1, 16, 16, 8).problem, "");     // m = 16 >= M
}

TEST(FragmentProbeDecode, DigitsSpellK) {
    for (int k = 0; k < 64; ++k) {
        EXPECT_EQ((k_digit(k, 0) - 1) + 8 * (k_digit(k, 1) - 1), k);
        EXPECT_GE(k_digit(k, 5), 1);
        EXPECT_LE(k_digit(k, 5), 8);
    }
}

std::vector<AccumulatorReading> one_hot_readings(int rows, int cols, int line, int k,
                                                 bool along_row) {
    std::vector<AccumulatorReading> readings;
    for (int m = 0; m < rows; ++m) {
        for (int n = 0; n < cols; ++n) {
            const bool hot = along_row ? m == line : n == line;
            readings.push_back({m, n, hot ? double(k_digit(k, along_row ? n : m)) : 0.0});
        }
    }
    return readings;
}

TEST(FragmentProbeDecode, OneHotRowAndColumn) {
    const DecodedCoord a =
        decode_one_hot(Operand::A, one_hot_readings(16, 8, 9, 27, true), 16, 8, 32);
    EXPECT_EQ(a.problem, "");
    EXPECT_EQ(a.row, 9);
    EXPECT_EQ(a.col, 27);
    const DecodedCoord b =
        decode_one_hot(Operand::B, one_hot_readings(16, 8, 6, 13, false), 16, 8, 16);
    EXPECT_EQ(b.problem, "");
    EXPECT_EQ(b.row, 13);
    EXPECT_EQ(b.col, 6);
}

TEST(FragmentProbeDecode, OneHotProblems) {
    std::vector<AccumulatorReading> zero = one_hot_readings(16, 8, 0, 0, true);
    for (AccumulatorReading& r : zero) r.value = 0.0;
    EXPECT_EQ(decode_one_hot(Operand::A, zero, 16, 8, 16).problem, "D is all zero");

    std::vector<AccumulatorReading> poisoned = one_hot_readings(16, 8, 2, 3, true);
    poisoned[40].value = std::nullopt;
    EXPECT_NE(decode_one_hot(Operand::A, poisoned, 16, 8, 16).problem, "");

    std::vector<AccumulatorReading> two_rows = one_hot_readings(16, 8, 2, 3, true);
    two_rows[5 * 8 + 1].value = 1.0;
    EXPECT_NE(decode_one_hot(Operand::A, two_rows, 16, 8, 16).problem, "");

    // k = 20 does not exist when K = 16.
    EXPECT_NE(decode_one_hot(Operand::A, one_hot_readings(16, 8, 2, 20, true), 16, 8, 16).problem,
              "");

    std::vector<AccumulatorReading> wrong_digit = one_hot_readings(16, 8, 2, 3, true);
    wrong_digit[2 * 8 + 6].value = 7.0;
    EXPECT_NE(decode_one_hot(Operand::A, wrong_digit, 16, 8, 16).problem, "");
}

TEST(FragmentProbeDecode, LdmatrixValues) {
    EXPECT_EQ(ldmatrix_tile_value(5, 3), 0x4053);
    const DecodedCoord ok = decode_ldmatrix_value(ldmatrix_tile_value(31, 7), 32);
    EXPECT_EQ(ok.problem, "");
    EXPECT_EQ(ok.row, 31);
    EXPECT_EQ(ok.col, 7);
    EXPECT_NE(decode_ldmatrix_value(ldmatrix_tile_value(9, 0), 8).problem, "");  // not in x1
    EXPECT_NE(decode_ldmatrix_value(ldmatrix_decoy_value(12, 0), 32).problem.find("lane 12"),
              std::string::npos);
    EXPECT_NE(decode_ldmatrix_value(0xffff, 32).problem.find("poison"), std::string::npos);
    EXPECT_NE(decode_ldmatrix_value(0, 32).problem, "");
}

TEST(FragmentProbeDecode, WgmmaSharedMemoryLayoutAndDescriptor) {
    // Core matrices of 8 (N) rows x 16 bytes (8 K elements); K neighbours 128 bytes apart,
    // N neighbours 256 bytes apart.
    EXPECT_EQ(wgmma_b_offset(0, 0), 0u);
    EXPECT_EQ(wgmma_b_offset(1, 0), 1u);
    EXPECT_EQ(wgmma_b_offset(0, 1), 8u);
    EXPECT_EQ(wgmma_b_offset(8, 0), 64u);
    EXPECT_EQ(wgmma_b_offset(0, 8), 128u);
    EXPECT_EQ(wgmma_b_offset(9, 10), 209u);
    EXPECT_EQ(wgmma_b_offset(15, 255), 31u * 128 + 64 + 7 * 8 + 7);
    // Start address 0x400 -> 0x40 in bits 0-13, LBO 128 -> 8 in bits 16-29, SBO 256 -> 16.
    EXPECT_EQ(wgmma_descriptor(0x400, 128, 256), 0x40u | 8ull << 16 | 16ull << 32);
}

// ---- Whole probes on emulated instructions -------------------------------------------------

TEST(FragmentProbeEmulated, EveryMmaModelMatchesAnEmulatedGpuThatFollowsIt) {
    for (const std::string& id : viz::fragment_layout_ids()) {
        if (!find_mma_probe_spec(id)) continue;
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        const LayoutComparison comparison =
            compare_layouts(model, emulated_mma_result(model, model));
        EXPECT_EQ(comparison.matched, comparison.total);
        EXPECT_TRUE(comparison.mismatches.empty())
            << (comparison.mismatches.empty() ? "" : comparison.mismatches.front());
        int elements = 0;
        for (const OperandLayout& operand : model.operands)
            elements += int(operand.elements.size());
        EXPECT_EQ(comparison.total, elements);
        EXPECT_EQ(comparison_summary(comparison),
                  std::to_string(elements) + "/" + std::to_string(elements) + " elements match");
    }
}

TEST(FragmentProbeEmulated, EveryLdmatrixModelMatchesAnEmulatedGpu) {
    for (const std::string& id : viz::fragment_layout_ids()) {
        if (id.rfind("ldmatrix.", 0) != 0) continue;
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        const LayoutComparison comparison = compare_layouts(model, emulated_ldmatrix_result(model));
        EXPECT_EQ(comparison.matched, comparison.total);
        EXPECT_GT(comparison.total, 0);
    }
}

TEST(FragmentProbeEmulated, WgmmaModelsMatchAnEmulatedGpu) {
    for (const int n : {8, 136, 256}) {
        const std::string id = "wgmma.m64n" + std::to_string(n) + "k16.f16";
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        const LayoutComparison comparison =
            compare_layouts(model, emulated_wgmma_result(model, model));
        EXPECT_EQ(comparison.matched, comparison.total);
        EXPECT_EQ(comparison.total, 64 * 16 + 64 * n);
    }
}

TEST(FragmentProbeEmulated, EveryPlanUsesOnlyExactValues) {
    for (const std::string& id : viz::fragment_layout_ids()) {
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        if (const MmaProbeSpec* spec = find_mma_probe_spec(id)) {
            EXPECT_EQ(plan_mma_probe(model, *spec).error, "");
        } else if (viz::wgmma_layout_n(id) != 0) {
            EXPECT_EQ(plan_wgmma_probe(model).error, "");
        } else {
            EXPECT_EQ(plan_ldmatrix_probe(model).error, "");
        }
    }
}

TEST(FragmentProbeEmulated, CatchesAHardwareWhoseALayoutDiffersFromTheModel) {
    const FragmentLayout model = layout_of("mma.m16n8k16.f16");
    FragmentLayout hardware = model;
    // The "hardware" swaps the two halves of lane 0's a0 register.
    OperandLayout& a = operand_of(hardware, Operand::A);
    std::swap(a.elements[0].col, a.elements[1].col);
    const LayoutComparison comparison =
        compare_layouts(model, emulated_mma_result(model, hardware));
    EXPECT_EQ(count_prefixed(comparison, "A "), 2);
    EXPECT_EQ(count_prefixed(comparison, "A lane 0 a0 (reg 0, sub 0): model (0,0) measured (0,1)"),
              1);
    EXPECT_LT(comparison.matched, comparison.total);
}

TEST(FragmentProbeEmulated, CatchesAHardwareWhoseDLayoutDiffersFromTheModel) {
    const FragmentLayout model = layout_of("mma.m16n8k8.tf32");
    FragmentLayout hardware = model;
    // The "hardware" swaps d1 and d2 of every lane (rows g and g + 8 trade a column).
    OperandLayout& d = operand_of(hardware, Operand::D);
    for (size_t i = 0; i < d.elements.size(); i += 4) {
        std::swap(d.elements[i + 1].row, d.elements[i + 2].row);
        std::swap(d.elements[i + 1].col, d.elements[i + 2].col);
    }
    const LayoutComparison comparison =
        compare_layouts(model, emulated_mma_result(model, hardware));
    EXPECT_EQ(count_prefixed(comparison, "D "), 64);
    EXPECT_EQ(count_prefixed(comparison, "D lane 0 d1: model (0,1) measured (8,0)"), 1);
}

TEST(FragmentProbeEmulated, CatchesAWrongAddressLaneModel) {
    FragmentLayout model = layout_of("ldmatrix.x2");
    std::swap(model.address_lanes[0], model.address_lanes[1]);
    const LayoutComparison comparison = compare_layouts(model, emulated_ldmatrix_result(model));
    // Lanes 0..7 hold rows 0 and 1 of matrix 0: 4 lanes x 2 halves each, 16 elements.
    EXPECT_EQ(int(comparison.mismatches.size()), 16);
    EXPECT_EQ(comparison.matched, comparison.total - 16);
}

TEST(FragmentProbeEmulated, CatchesATransposedModelOfAPlainLoad) {
    const FragmentLayout plain = layout_of("ldmatrix.x1");
    FragmentLayout model = plain;
    model.operands = layout_of("ldmatrix.x1.trans").operands;
    const LayoutComparison comparison = compare_layouts(model, emulated_ldmatrix_result(model));
    EXPECT_EQ(comparison.matched, 8);  // only the diagonal agrees
}

TEST(FragmentProbeEmulated, CatchesAWgmmaHardwareWithADifferentALayout) {
    const FragmentLayout model = layout_of("wgmma.m64n8k16.f16");
    FragmentLayout hardware = model;
    // The "hardware" gives warp 1 the rows of warp 2 and vice versa.
    for (viz::LayoutElement& e : operand_of(hardware, Operand::A).elements) {
        const int warp = e.row / 16;
        if (warp == 1 || warp == 2) e.row += (warp == 1 ? 16 : -16);
    }
    const LayoutComparison comparison =
        compare_layouts(model, emulated_wgmma_result(model, hardware));
    EXPECT_EQ(count_prefixed(comparison, "A "), 2 * 32 * 8);
}

TEST(FragmentProbeEmulated, PoisonedOutputMatchesNothing) {
    const FragmentLayout model = layout_of("mma.m16n8k8.f16");
    const MmaProbeSpec* spec = find_mma_probe_spec(model.id);
    ASSERT_NE(spec, nullptr);
    const MmaProbePlan plan = plan_mma_probe(model, *spec);
    const size_t d_words = image_words(*model.find(Operand::D), 32);
    const std::vector<uint32_t> poison(plan.experiments * d_words, 0xffffffffu);
    const LayoutProbeResult result{"", "", decode_mma_probe(model, *spec, poison)};
    const LayoutComparison comparison = compare_layouts(model, result);
    EXPECT_EQ(comparison.matched, 0);
    EXPECT_EQ(int(comparison.mismatches.size()), comparison.total);
    EXPECT_NE(comparison.mismatches.front().find("measured nothing"), std::string::npos);
}

TEST(FragmentProbeCompare, AnErrorOrSkipMatchesNothing) {
    const FragmentLayout model = layout_of("ldmatrix.x4");
    LayoutProbeResult skipped;
    skipped.skipped_reason = "no reason";
    const LayoutComparison comparison = compare_layouts(model, skipped);
    EXPECT_EQ(comparison.matched, 0);
    EXPECT_EQ(comparison.total, 32 * 4 * 2);
    ASSERT_EQ(comparison.mismatches.size(), 1u);
    EXPECT_EQ(comparison.mismatches[0], "not measured: skipped: no reason");
}

TEST(FragmentProbePlan, RejectsModelsThatDoNotFitTheInstruction) {
    FragmentLayout model = layout_of("mma.m16n8k16.f16");
    operand_of(model, Operand::A).regs_per_thread = 3;
    operand_of(model, Operand::A).elem_bits = 32;
    EXPECT_NE(plan_mma_probe(model, *find_mma_probe_spec(model.id)).error, "");

    FragmentLayout ld = layout_of("ldmatrix.x4");
    ld.address_lanes[3] = ld.address_lanes[4];
    EXPECT_NE(plan_ldmatrix_probe(ld).error, "");

    FragmentLayout wg = layout_of("wgmma.m64n16k16.f16");
    wg.id = "wgmma.m64n24k16.f16";  // D is 64 x 16, the instruction writes 64 x 24
    EXPECT_NE(plan_wgmma_probe(wg).error, "");
}

}  // namespace
}  // namespace tclens::kernels
