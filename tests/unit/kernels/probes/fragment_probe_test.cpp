// CPU tests of the fragment probes' pure parts: element encodings, register images, decoders,
// probe plans and comparison. No GPU: each instruction is emulated on the CPU from its PTX ISA
// description (written here independently of the decoders), so a whole probe (plan -> emulated
// registers -> decode -> compare) runs end to end. Emulating a "hardware" whose layout differs
// from the model shows the probe catching it.
#include "kernels/probes/fragment_probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "kernels/probes/matrix_move_probe_plan.h"
#include "kernels/probes/mma_probe_plan.h"
#include "kernels/probes/mma_sp_probe_plan.h"
#include "kernels/probes/wgmma_probe_plan.h"
#include "kernels/probes/wgmma_smem_probe_plan.h"
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

// Emulating every experiment of a b1 probe (4096 or 16384 A slots, two experiments each) takes
// tens of seconds; the b1 tests emulate the D and C experiments and those of every `every`-th
// slot (the rest keep their poison) and check only those slots.
using ExperimentFilter = std::function<bool(size_t experiment)>;

const MeasuredOperand* measured_operand(const LayoutProbeResult& result, Operand op) {
    for (const MeasuredOperand& operand : result.operands) {
        if (operand.operand == op) return &operand;
    }
    return nullptr;
}

// Slots i % every == 0 of `op` (and those in `also`) measured as the model says; returns how
// many differ.
int sampled_mismatches(const FragmentLayout& model, const LayoutProbeResult& result, Operand op,
                       size_t every, const std::vector<size_t>& also = {}) {
    const OperandLayout* layout = model.find(op);
    const MeasuredOperand* measured = measured_operand(result, op);
    if (!layout || !measured) return -1;
    int differ = 0;
    for (size_t i = 0; i < layout->elements.size(); ++i) {
        if (i % every != 0 && std::find(also.begin(), also.end(), i) == also.end()) continue;
        const viz::LayoutElement& want = layout->elements[i];
        const viz::LayoutElement& got = measured->elements[i];
        differ += got.row != want.row || got.col != want.col;
    }
    return differ;
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

// mma.sync: D = A * B + C, every operand in the registers `hardware` says. For b1 the product
// is popc(A AND B) or popc(A XOR B) over k (PTX ISA, "mma": .and.popc / .xor.popc).
Matrix popc_add(const Matrix& a, const Matrix& b, const Matrix& c, PopcOp op) {
    Matrix d = c;
    for (size_t m = 0; m < a.size(); ++m) {
        for (size_t n = 0; n < b[0].size(); ++n) {
            for (size_t k = 0; k < b.size(); ++k) {
                const int x = int(a[m][k]), y = int(b[k][n]);
                d[m][n] += op == PopcOp::kAnd ? (x & y) : (x ^ y);
            }
        }
    }
    return d;
}

std::vector<uint32_t> emulate_mma(const FragmentLayout& hardware, const MmaProbeSpec& spec,
                                  const MmaProbePlan& plan,
                                  const ExperimentFilter& keep = nullptr) {
    const OperandLayout* a = hardware.find(Operand::A);
    const OperandLayout* b = hardware.find(Operand::B);
    const OperandLayout* c = hardware.find(Operand::C);
    const OperandLayout* d = hardware.find(Operand::D);
    const size_t aw = image_words(*a, 32), bw = image_words(*b, 32), cw = image_words(*c, 32);
    std::vector<uint32_t> out(plan.experiments * cw, 0xffffffffu);
    for (size_t e = 0; e < size_t(plan.experiments); ++e) {
        if (keep && !keep(e)) continue;
        const Matrix am = read_matrix(*a, spec.input, &plan.a[e * aw]);
        const Matrix bm = read_matrix(*b, spec.input, &plan.b[e * bw]);
        const Matrix cm = read_matrix(*c, spec.accumulator, &plan.c[e * cw]);
        const Matrix dm = spec.popc == PopcOp::kNone ? multiply_add(am, bm, &cm)
                                                     : popc_add(am, bm, cm, spec.popc);
        write_matrix(*d, spec.accumulator, dm, &out[e * cw]);
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

// wgmma.mma_async (A from registers) with scale-d = 0: D = A * B (b1: popc of AND). B is read
// from the tile the way the PTX ISA's canonical K-major, no-swizzle layout
// ((8,m),(T,2k)):((1T,SBO),(1,LBO)) says, T = 128 / bits elements, with LBO and SBO taken from the
// descriptor; a b1 element k of a row is bit k % 8 of its byte.
// What the H100 showed (tests/gpu/results/2026-11-25_h100_session7/atlas/): wgmma with FP8
// inputs keeps only 14 significant bits of its f32 accumulator; 16385 came back as 16384.
double keep_fp8_accumulator_bits(double value) {
    int exponent = 0;
    const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent
    return std::ldexp(std::trunc(std::ldexp(fraction, 14)), exponent - 14);
}

std::vector<uint32_t> emulate_wgmma(const FragmentLayout& hardware, const WgmmaProbePlan& plan,
                                    const ExperimentFilter& keep = nullptr) {
    const OperandLayout* a = hardware.find(Operand::A);
    const OperandLayout* d = hardware.find(Operand::D);
    const ElementType input = wgmma_input_type(plan.kind);
    const ElementType accumulator = wgmma_accumulator_type(plan.kind);
    const int bits = element_bits(input);
    const int t = 128 / bits;
    const int k_elems = 256 / bits;
    const size_t lbo_elems = ((plan.descriptor_template >> 16) & 0x3fff) * 16 * 8 / size_t(bits);
    const size_t sbo_elems = ((plan.descriptor_template >> 32) & 0x3fff) * 16 * 8 / size_t(bits);
    const size_t aw = image_words(*a, 128), dw = image_words(*d, 128);
    const size_t tile_bytes = size_t(32 * plan.n);
    std::vector<Matrix> tiles;
    for (size_t tile = 0; tile < plan.b_tiles.size() / tile_bytes; ++tile) {
        Matrix b(size_t(k_elems), std::vector<double>(size_t(plan.n), 0.0));
        for (int k = 0; k < k_elems; ++k) {
            for (int n = 0; n < plan.n; ++n) {
                const size_t element = size_t(n % 8) * size_t(t) + size_t(n / 8) * sbo_elems +
                                       size_t(k % t) + size_t(k / t) * lbo_elems;
                uint64_t value = 0;
                for (int i = 0; i < bits; ++i) {
                    const size_t bit = element * size_t(bits) + size_t(i);
                    value |= uint64_t((plan.b_tiles[tile * tile_bytes + bit / 8] >> (bit % 8)) & 1)
                             << i;
                }
                b[size_t(k)][size_t(n)] = *decode_element(input, value);
            }
        }
        tiles.push_back(b);
    }
    std::vector<uint32_t> out(plan.experiments * dw, 0xffffffffu);
    for (size_t e = 0; e < size_t(plan.experiments); ++e) {
        if (keep && !keep(e)) continue;
        const Matrix am = read_matrix(*a, input, &plan.a[e * aw]);
        const Matrix& bm = tiles[size_t(plan.tile_index[e])];
        Matrix dm = multiply_add(am, bm, nullptr);
        if (plan.kind == WgmmaKind::E4m3 || plan.kind == WgmmaKind::E5m2) {
            for (std::vector<double>& row : dm) {
                for (double& value : row) value = keep_fp8_accumulator_bits(value);
            }
        }
        write_matrix(*d, accumulator, dm, &out[e * dw]);
    }
    return out;
}

LayoutProbeResult emulated_mma_result(const FragmentLayout& model, const FragmentLayout& hw,
                                      const ExperimentFilter& keep = nullptr) {
    const MmaProbeSpec* spec = find_mma_probe_spec(model.id);
    EXPECT_NE(spec, nullptr) << model.id;
    const MmaProbePlan plan = plan_mma_probe(model, *spec);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_mma_probe(model, *spec, emulate_mma(hw, *spec, plan, keep))};
}

// The b1 mma experiments of every `every`-th A and B slot (and the A slots in `also`), with D
// and C: A slot i is experiments 2 + 2i and 3 + 2i, B slot j is 2 + 2 * A slots + j.
ExperimentFilter b1_mma_sample(const FragmentLayout& model, size_t every,
                               const std::vector<size_t>& also = {}) {
    const size_t a_slots = model.find(Operand::A)->elements.size();
    return [=](size_t e) {
        if (e < 2) return true;
        const size_t slot = e < 2 + 2 * a_slots ? (e - 2) / 2 : e - 2 - 2 * a_slots;
        return slot % every == 0 ||
               (e < 2 + 2 * a_slots && std::find(also.begin(), also.end(), slot) != also.end());
    };
}

LayoutProbeResult emulated_ldmatrix_result(const FragmentLayout& model) {
    const LdmatrixProbePlan plan = plan_ldmatrix_probe(model);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_ldmatrix_probe(model, emulate_ldmatrix(plan))};
}

LayoutProbeResult emulated_wgmma_result(const FragmentLayout& model, const FragmentLayout& hw,
                                        const ExperimentFilter& keep = nullptr) {
    const WgmmaProbePlan plan = plan_wgmma_probe(model);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_wgmma_probe(model, emulate_wgmma(hw, plan, keep))};
}

// The b1 wgmma experiments of every `every`-th A slot (and those in `also`), with both D ones:
// A slot i is experiments 2 + 2i and 3 + 2i.
ExperimentFilter b1_wgmma_sample(size_t every, const std::vector<size_t>& also = {}) {
    return [=](size_t e) {
        if (e < 2) return true;
        const size_t slot = (e - 2) / 2;
        return slot % every == 0 || std::find(also.begin(), also.end(), slot) != also.end();
    };
}

// mma.sp (PTX ISA, "Sparse matrix storage"): each metadata field that the hardware's E layout
// places at (row, c) says in which of the four full columns 4 (c / 2) .. 4 (c / 2) + 3 the
// compressed element A_c(row, c) sits; D = A_full * B + C. Lanes the E layout does not name
// are ignored.
std::vector<uint32_t> emulate_sparse(const FragmentLayout& hardware, const SparseProbeSpec& spec,
                                     const SparseProbePlan& plan) {
    const OperandLayout* a = hardware.find(Operand::A);
    const OperandLayout* b = hardware.find(Operand::B);
    const OperandLayout* c = hardware.find(Operand::C);
    const OperandLayout* d = hardware.find(Operand::D);
    const OperandLayout* e = hardware.find(Operand::E);
    const size_t aw = image_words(*a, 32), bw = image_words(*b, 32), cw = image_words(*c, 32);
    std::vector<uint32_t> out(plan.experiments * cw, 0xffffffffu);
    for (size_t x = 0; x < size_t(plan.experiments); ++x) {
        const Matrix compressed = read_matrix(*a, spec.input, &plan.a[x * aw]);
        const Matrix bm = read_matrix(*b, spec.input, &plan.b[x * bw]);
        const Matrix cm = read_matrix(*c, spec.accumulator, &plan.c[x * cw]);
        Matrix full(size_t(a->rows), std::vector<double>(size_t(b->rows), 0.0));
        for (const viz::LayoutElement& slot : e->elements) {
            const uint32_t word = plan.e[x * 32 + size_t(slot.lane)];
            const int index = int(word >> (2 * slot.sub)) & 3;
            full[size_t(slot.row)][size_t(4 * (slot.col / 2) + index)] +=
                compressed[size_t(slot.row)][size_t(slot.col)];
        }
        write_matrix(*d, spec.accumulator, multiply_add(full, bm, &cm), &out[x * cw]);
    }
    return out;
}

LayoutProbeResult emulated_sparse_result(const FragmentLayout& model, const FragmentLayout& hw) {
    const SparseProbeSpec* spec = find_sparse_probe_spec(model.id);
    EXPECT_NE(spec, nullptr) << model.id;
    const SparseProbePlan plan = plan_sparse_probe(model, *spec);
    EXPECT_EQ(plan.error, "");
    return {"", "", decode_sparse_probe(model, *spec, emulate_sparse(hw, *spec, plan))};
}

// stmatrix (PTX ISA): row r of matrix j is written to the address that lane 8j + r supplies; the
// source register halves go where the hardware's A layout says. The region starts as poison.
std::vector<uint32_t> emulate_stmatrix(const FragmentLayout& hardware,
                                       const StmatrixProbePlan& plan) {
    std::vector<uint16_t> smem(32 * 8, 0xffff);
    const OperandLayout* a = hardware.find(Operand::A);
    for (const viz::LayoutElement& slot : a->elements) {
        const uint32_t word = plan.registers[size_t(slot.lane * plan.matrices + slot.reg)];
        const uint32_t byte = plan.lane_offsets[size_t(hardware.address_lanes[size_t(slot.row)])];
        smem[byte / 2 + size_t(slot.col)] = uint16_t(word >> (16 * slot.sub));
    }
    std::vector<uint32_t> out(smem.size() / 2);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = uint32_t(smem[2 * i]) | uint32_t(smem[2 * i + 1]) << 16;
    return out;
}

// movmatrix.trans (PTX ISA): D holds A transposed; each D slot takes the A element at the
// source coordinates the hardware's D layout gives it.
std::vector<uint32_t> emulate_movmatrix(const FragmentLayout& hardware,
                                        const MovmatrixProbePlan& plan) {
    const OperandLayout* a = hardware.find(Operand::A);
    const OperandLayout* d = hardware.find(Operand::D);
    std::vector<uint32_t> out(64, 0xffffffffu);
    for (size_t warp = 0; warp < 2; ++warp) {
        uint16_t source[8][8] = {};
        for (const viz::LayoutElement& slot : a->elements) {
            source[slot.row][slot.col] = uint16_t(read_slot(&plan.a[warp * 32], *a, slot));
        }
        for (const viz::LayoutElement& slot : d->elements) {
            write_slot(&out[warp * 32], *d, slot, source[slot.row][slot.col]);
        }
    }
    return out;
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
    EXPECT_EQ(product_row_scale(8), 8);  // n + 1 <= 8: S*m + n + 1 still decodes
    EXPECT_EQ(product_row_scale(9), 16);
    EXPECT_EQ(product_row_scale(248), 256);
    EXPECT_EQ(product_row_scale(256), 256);
    const DecodedCoord last = decode_product(8.0 * 5 + 7 + 1, 8, 16, 8);
    EXPECT_EQ(last.problem, "");
    EXPECT_EQ(last.row, 5);
    EXPECT_EQ(last.col, 7);
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
    // Core matrices of 8 (N) rows x 16 bytes (8 f16 of K); K neighbours 128 bytes apart,
    // N neighbours 256 bytes apart. Offsets in f16 elements (bits / 16).
    const auto f16 = [](int k, int n) { return wgmma_b_bit_offset(k, n, 16) / 16; };
    EXPECT_EQ(f16(0, 0), 0u);
    EXPECT_EQ(f16(1, 0), 1u);
    EXPECT_EQ(f16(0, 1), 8u);
    EXPECT_EQ(f16(8, 0), 64u);
    EXPECT_EQ(f16(0, 8), 128u);
    EXPECT_EQ(f16(9, 10), 209u);
    EXPECT_EQ(f16(15, 255), 31u * 128 + 64 + 7 * 8 + 7);
    // Every type takes 32 bytes of K per row: tf32 k 4 and e4m3 k 16 start the second core
    // matrix (byte 128); b1 k 139 is bit 11 of it.
    EXPECT_EQ(wgmma_b_bit_offset(4, 0, 32), 128u * 8);
    EXPECT_EQ(wgmma_b_bit_offset(16, 0, 8), 128u * 8);
    EXPECT_EQ(wgmma_b_bit_offset(139, 1, 1), (128u + 16) * 8 + 11);
    // Start address 0x400 -> 0x40 in bits 0-13, LBO 128 -> 8 in bits 16-29, SBO 256 -> 16.
    EXPECT_EQ(wgmma_descriptor(0x400, 128, 256), 0x40u | 8ull << 16 | 16ull << 32);
}

// ---- Whole probes on emulated instructions -------------------------------------------------

TEST(FragmentProbeEmulated, EveryMmaModelMatchesAnEmulatedGpuThatFollowsIt) {
    for (const std::string& id : viz::fragment_layout_ids()) {
        const MmaProbeSpec* spec = find_mma_probe_spec(id);
        if (!spec) continue;
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        int elements = 0;
        for (const OperandLayout& operand : model.operands)
            elements += int(operand.elements.size());
        if (spec->popc != PopcOp::kNone) {
            // b1: D, C and every 7th A and B slot (see ExperimentFilter).
            const LayoutProbeResult result =
                emulated_mma_result(model, model, b1_mma_sample(model, 7));
            const LayoutComparison comparison = compare_layouts(model, result);
            EXPECT_EQ(count_prefixed(comparison, "C "), 0);
            EXPECT_EQ(count_prefixed(comparison, "D "), 0);
            EXPECT_EQ(sampled_mismatches(model, result, Operand::A, 7), 0);
            EXPECT_EQ(sampled_mismatches(model, result, Operand::B, 7), 0);
            EXPECT_EQ(comparison.total, elements);
            continue;
        }
        const LayoutComparison comparison =
            compare_layouts(model, emulated_mma_result(model, model));
        EXPECT_EQ(comparison.matched, comparison.total);
        EXPECT_TRUE(comparison.mismatches.empty())
            << (comparison.mismatches.empty() ? "" : comparison.mismatches.front());
        EXPECT_EQ(comparison.total, elements);
        EXPECT_EQ(comparison_summary(comparison),
                  std::to_string(elements) + "/" + std::to_string(elements) + " elements match");
    }
}

TEST(FragmentProbeDecode, ProductAndCAreExperimentsZeroAndOne) {
    const FragmentLayout model = layout_of("mma.m16n8k16.f16");
    const MmaProbeSpec* spec = find_mma_probe_spec(model.id);
    ASSERT_NE(spec, nullptr);
    const MmaProbePlan plan = plan_mma_probe(model, *spec);
    ASSERT_EQ(plan.error, "");
    const std::vector<uint32_t> d = emulate_mma(model, *spec, plan, nullptr);
    const OperandLayout& c = *model.find(viz::Operand::C);
    const OperandLayout& d_layout = *model.find(viz::Operand::D);
    const size_t d_words = d.size() / size_t(plan.experiments);
    const MeasuredProductAndC both =
        measure_product_and_c(d_layout, c, spec->accumulator, d.data(), d_words);
    const MeasuredOperand product =
        measure_product(d_layout, spec->accumulator, d.data(), product_row_scale(d_layout.cols));
    const MeasuredOperand accumulator =
        measure_accumulator_c(c, d_layout, spec->accumulator, d.data() + d_words);
    EXPECT_EQ(both.d.problems, product.problems);
    EXPECT_EQ(both.c.problems, accumulator.problems);
    ASSERT_EQ(both.c.elements.size(), c.elements.size());
    for (size_t i = 0; i < c.elements.size(); ++i) {
        EXPECT_EQ(both.c.elements[i].row, c.elements[i].row);
        EXPECT_EQ(both.c.elements[i].col, c.elements[i].col);
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
    for (const std::string& type : viz::wgmma_layout_types()) {
        // N = 8 and 16 (every D decodes through the same code; the viz tests check every N's
        // layout, the GPU test every N on the hardware).
        const std::vector<int> ns = viz::wgmma_layout_ns(type);
        for (const int n : {ns[0], ns[1]}) {
            const std::string id = viz::wgmma_layout_id(type, n);
            SCOPED_TRACE(id);
            const FragmentLayout model = layout_of(id);
            const int k = model.find(Operand::A)->cols;
            if (type == "b1") {
                // D and every 61st A slot (see ExperimentFilter).
                const LayoutProbeResult result =
                    emulated_wgmma_result(model, model, b1_wgmma_sample(61));
                EXPECT_EQ(count_prefixed(compare_layouts(model, result), "D "), 0);
                EXPECT_EQ(sampled_mismatches(model, result, Operand::A, 61), 0);
                continue;
            }
            const LayoutComparison comparison =
                compare_layouts(model, emulated_wgmma_result(model, model));
            EXPECT_EQ(comparison.matched, comparison.total);
            EXPECT_EQ(comparison.total, 64 * k + 64 * n);
        }
    }
}

// The widest FP8 wgmma's D (64 x 256) must stay within the 14 bits its accumulator keeps:
// D[m][n] = S*m + n + 1 <= 2^14 with S = 256.
TEST(FragmentProbeEmulated, Fp8WgmmaAtN256DecodesThroughAFourteenBitAccumulator) {
    EXPECT_EQ(keep_fp8_accumulator_bits(16385), 16384);  // the emulation itself
    EXPECT_EQ(keep_fp8_accumulator_bits(16383), 16383);
    // e5m2 takes the same path (its A one-hots decode the whole D, seconds each: one type).
    const FragmentLayout model = layout_of("wgmma.m64n256k32.e4m3");
    const LayoutComparison comparison = compare_layouts(
        model, emulated_wgmma_result(model, model, [](size_t e) { return e == 0; }));
    EXPECT_EQ(count_prefixed(comparison, "D "), 0);
}

TEST(FragmentProbeEmulated, EveryProbedIdHasAPlanWithOnlyExactValues) {
    int probed = 0;
    for (const std::string& id : viz::fragment_layout_ids()) {
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        std::string move;
        int matrices = 0;
        bool trans = false;
        if (const MmaProbeSpec* spec = find_mma_probe_spec(id)) {
            EXPECT_EQ(plan_mma_probe(model, *spec).error, "");
        } else if (const SparseProbeSpec* sparse = find_sparse_probe_spec(id)) {
            EXPECT_EQ(plan_sparse_probe(model, *sparse).error, "");
        } else if (const int n = viz::wgmma_layout_n(id); n != 0) {
            // A sample: the smallest and largest N of each type.
            const std::vector<int> ns = viz::wgmma_layout_ns(viz::wgmma_layout_type(id));
            if (n != ns.front() && n != ns.back()) continue;
            EXPECT_EQ(plan_wgmma_probe(model).error, "");
        } else if (parse_matrix_move_id(id, move, matrices, trans)) {
            const std::string error = move == "ldmatrix"   ? plan_ldmatrix_probe(model).error
                                      : move == "stmatrix" ? plan_stmatrix_probe(model).error
                                                           : plan_movmatrix_probe(model).error;
            EXPECT_EQ(error, "");
        } else if (!model.shared_memory.empty()) {
            EXPECT_EQ(plan_wgmma_smem_probe(model).error, "");
        } else {
            // The rest have no probe: the tcgen05 models.
            EXPECT_FALSE(has_layout_probe(id));
            EXPECT_FALSE(model.verifiable);
            continue;
        }
        EXPECT_TRUE(has_layout_probe(id));
        ++probed;
    }
    EXPECT_EQ(probed, 19 + 16 + 6 + 6 + 1 + 2 * 7 + 20);
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

// A slot the hardware put elsewhere is named twice: as a line, and as the model's slot index
// that the Fragments panel marks.
TEST(FragmentProbeCompare, AMovedElementIsAWrongSlotOfTheModel) {
    const FragmentLayout model = layout_of("ldmatrix.x4");
    LayoutProbeResult result = emulated_ldmatrix_result(model);
    ASSERT_FALSE(result.operands.empty());
    result.operands[0].elements[5].row += 1;
    const LayoutComparison comparison = compare_layouts(model, result);
    EXPECT_EQ(comparison.matched, comparison.total - 1);
    ASSERT_EQ(comparison.mismatches.size(), 1u);
    ASSERT_EQ(comparison.wrong.size(), 1u);
    EXPECT_EQ(comparison.wrong[0].operand, result.operands[0].operand);
    EXPECT_EQ(comparison.wrong[0].element, 5);
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

// ---- The new families ------------------------------------------------------------------------

TEST(FragmentProbeDesign, EveryProbedShapeHasAnExactProductDesign) {
    // (type, M, N, K) of every D experiment: mma.sync, mma.sp (K / 2 columns), wgmma (N = 256).
    const struct {
        ElementType type;
        int m, n, k;
    } kShapes[] = {{ElementType::Tf32, 16, 8, 4},    {ElementType::F16, 16, 8, 16},
                   {ElementType::Bf16, 16, 8, 8},    {ElementType::S8, 8, 8, 16},
                   {ElementType::E4m3, 16, 8, 32},   {ElementType::E5m2, 16, 8, 32},
                   {ElementType::S4, 16, 8, 64},     {ElementType::S4, 8, 8, 32},
                   {ElementType::U4, 16, 8, 64},     {ElementType::B1, 16, 8, 256},
                   {ElementType::F64, 8, 8, 4},      {ElementType::F16, 16, 8, 8},
                   {ElementType::Tf32, 64, 256, 8},  {ElementType::E4m3, 64, 256, 32},
                   {ElementType::E5m2, 64, 256, 32}, {ElementType::S8, 64, 256, 32},
                   {ElementType::U8, 64, 256, 32},   {ElementType::F16, 64, 256, 16}};
    for (const auto& shape : kShapes) {
        SCOPED_TRACE(std::string(element_name(shape.type)) + " " + std::to_string(shape.m) + "x" +
                     std::to_string(shape.n) + "x" + std::to_string(shape.k));
        const ProductDesign design = make_product_design(shape.type, shape.m, shape.n, shape.k);
        ASSERT_EQ(design.error, "");
        EXPECT_LE(int(design.columns.size()), shape.k);
        for (int m = 0; m < shape.m; ++m) {
            for (int n = 0; n < shape.n; ++n) {
                long sum = 0;
                for (int kk = 0; kk < shape.k; ++kk) {
                    ASSERT_TRUE(encode_exact(shape.type, design.a(m, kk)));
                    ASSERT_TRUE(encode_exact(shape.type, design.b(kk, n)));
                    sum += long(design.a(m, kk)) * design.b(kk, n);
                }
                ASSERT_EQ(sum, long(design.row_scale) * m + n + 1) << m << "," << n;
            }
        }
    }
    // The types that hold 0..15 and S keep the two-column design of the first probes.
    const ProductDesign f16 = make_product_design(ElementType::F16, 16, 8, 16);
    EXPECT_EQ(f16.columns.size(), 2u);
    EXPECT_EQ(f16.a(5, 0), 5);
    EXPECT_EQ(f16.b(0, 3), 8);  // S = 8 for N = 8
    EXPECT_EQ(f16.b(1, 3), 4);
    // s4 has no 16: the row weight is spread over columns of 4.
    EXPECT_GT(make_product_design(ElementType::S4, 16, 8, 64).columns.size(), 4u);
    EXPECT_NE(make_product_design(ElementType::B1, 64, 256, 256).error, "");  // b1 wgmma: no
}

TEST(FragmentProbeDesign, DigitCodesStayExactAndSpellEveryK) {
    const DigitCode s4 = digit_code(ElementType::S4, 64);
    EXPECT_EQ(s4.base, 7);
    EXPECT_EQ(s4.digits, 3);
    const DigitCode f16 = digit_code(ElementType::F16, 16);
    EXPECT_EQ(f16.base, 8);
    EXPECT_EQ(f16.digits, 2);
    for (int k = 0; k < 64; ++k) {
        for (int j = 0; j < 8; ++j) {
            EXPECT_TRUE(encode_exact(ElementType::S4, k_digit(k, j, s4)));
            EXPECT_EQ(k_digit(k, j, f16), k_digit(k, j));
        }
        std::vector<AccumulatorReading> row;
        for (int n = 0; n < 8; ++n) row.push_back({3, n, double(k_digit(k, n, s4))});
        const DecodedCoord decoded = decode_one_hot(Operand::A, row, 16, 8, 64, s4);
        EXPECT_EQ(decoded.problem, "");
        EXPECT_EQ(decoded.col, k);
    }
    EXPECT_EQ(decode_element(ElementType::S4, 0xf), -1.0);
    EXPECT_EQ(encode_exact(ElementType::E5m2, 10), 0x49u);  // 1.25 * 8
    EXPECT_FALSE(encode_exact(ElementType::E5m2, 9));
    EXPECT_EQ(largest_dense_exact(ElementType::E5m2), 8);
    EXPECT_EQ(largest_dense_exact(ElementType::B1), 1);
}

TEST(FragmentProbeEmulated, EverySparseModelMatchesAnEmulatedGpu) {
    int checked = 0;
    for (const std::string& id : viz::fragment_layout_ids()) {
        if (!find_sparse_probe_spec(id)) continue;
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        const LayoutComparison comparison =
            compare_layouts(model, emulated_sparse_result(model, model));
        EXPECT_EQ(comparison.matched, comparison.total);
        EXPECT_TRUE(comparison.mismatches.empty())
            << (comparison.mismatches.empty() ? "" : comparison.mismatches.front());
        ++checked;
    }
    EXPECT_EQ(checked, 16);
}

TEST(FragmentProbeEmulated, CatchesASparseHardwareWithAnotherMetadataLayout) {
    const FragmentLayout model = layout_of("mma.sp.m16n8k32.f16.sel0");
    FragmentLayout hardware = model;
    // The "hardware" keeps row g + 8 in the low half of the register and row g in the high half.
    for (viz::LayoutElement& e : operand_of(hardware, Operand::E).elements) {
        e.row = e.row % 8 + (e.row < 8 ? 8 : 0);
    }
    const LayoutComparison comparison =
        compare_layouts(model, emulated_sparse_result(model, hardware));
    EXPECT_EQ(count_prefixed(comparison, "E "), 256);
    EXPECT_EQ(count_prefixed(comparison, "A "), 0);  // A and B keep their own experiments
    EXPECT_EQ(count_prefixed(comparison, "B "), 0);
}

TEST(FragmentProbeEmulated, CatchesASparseHardwareThatReadsAnotherSelector) {
    const FragmentLayout model = layout_of("mma.sp.m16n8k16.bf16.sel1");
    const FragmentLayout hardware = layout_of("mma.sp.m16n8k16.bf16.sel2");
    const LayoutComparison comparison =
        compare_layouts(model, emulated_sparse_result(model, hardware));
    EXPECT_EQ(count_prefixed(comparison, "E "), 128);  // every metadata field, no other operand
    EXPECT_EQ(comparison.matched, comparison.total - 128);
}

TEST(FragmentProbeEmulated, CatchesAB1HardwareWithADifferentALayout) {
    for (const char* id : {"mma.m16n8k256.b1.and", "mma.m16n8k256.b1.xor"}) {
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        FragmentLayout hardware = model;
        // The "hardware" swaps bits 0 and 1 of lane 0's a0.
        OperandLayout& a = operand_of(hardware, Operand::A);
        std::swap(a.elements[0].col, a.elements[1].col);
        const LayoutProbeResult result =
            emulated_mma_result(model, hardware, b1_mma_sample(model, 64, {1}));
        EXPECT_EQ(sampled_mismatches(model, result, Operand::A, 64, {1}), 2);
        const LayoutComparison comparison = compare_layouts(model, result);
        EXPECT_EQ(
            count_prefixed(comparison, "A lane 0 a0 (reg 0, sub 0): model (0,0) measured (0,1)"),
            1);
    }
}

TEST(FragmentProbeEmulated, CatchesAB1XorHardwareThatComputesAnd) {
    const FragmentLayout model = layout_of("mma.m16n8k256.b1.xor");
    const MmaProbeSpec* xor_spec = find_mma_probe_spec(model.id);
    const MmaProbeSpec* and_spec = find_mma_probe_spec("mma.m16n8k256.b1.and");
    const MmaProbePlan plan = plan_mma_probe(model, *xor_spec);
    const LayoutProbeResult result{
        "", "",
        decode_mma_probe(model, *xor_spec,
                         emulate_mma(model, *and_spec, plan, b1_mma_sample(model, 64)))};
    const LayoutComparison comparison = compare_layouts(model, result);
    EXPECT_EQ(count_prefixed(comparison, "D "), 128);  // every D value decodes wrongly
    EXPECT_GT(sampled_mismatches(model, result, Operand::A, 64), 0);
}

TEST(FragmentProbeEmulated, StmatrixAndMovmatrixModelsMatchEmulatedGpus) {
    for (const char* id : {"stmatrix.x1", "stmatrix.x2", "stmatrix.x4", "stmatrix.x1.trans",
                           "stmatrix.x2.trans", "stmatrix.x4.trans"}) {
        SCOPED_TRACE(id);
        const FragmentLayout model = layout_of(id);
        const StmatrixProbePlan plan = plan_stmatrix_probe(model);
        ASSERT_EQ(plan.error, "");
        const LayoutComparison comparison = compare_layouts(
            model, {"", "", decode_stmatrix_probe(model, emulate_stmatrix(model, plan))});
        EXPECT_EQ(comparison.matched, comparison.total);
        EXPECT_EQ(comparison.total, 64 * plan.matrices);
    }
    const FragmentLayout mov = layout_of("movmatrix.trans");
    const MovmatrixProbePlan plan = plan_movmatrix_probe(mov);
    ASSERT_EQ(plan.error, "");
    const LayoutComparison comparison =
        compare_layouts(mov, {"", "", decode_movmatrix_probe(mov, emulate_movmatrix(mov, plan))});
    EXPECT_EQ(comparison.matched, comparison.total);
    EXPECT_EQ(comparison.total, 128);
}

TEST(FragmentProbeEmulated, CatchesStoreAndTransposeHardwareThatDiffers) {
    // A stmatrix that stores without .trans where the model says .trans: only the diagonal agrees.
    FragmentLayout model = layout_of("stmatrix.x1.trans");
    const FragmentLayout plain = layout_of("stmatrix.x1");
    const StmatrixProbePlan plan = plan_stmatrix_probe(model);
    LayoutComparison comparison = compare_layouts(
        model, {"", "", decode_stmatrix_probe(model, emulate_stmatrix(plain, plan))});
    EXPECT_EQ(comparison.matched, 8);
    // Rows 0 and 1 written through each other's address lane.
    FragmentLayout swapped = layout_of("stmatrix.x2");
    std::swap(swapped.address_lanes[0], swapped.address_lanes[1]);
    const StmatrixProbePlan plan2 = plan_stmatrix_probe(swapped);
    comparison = compare_layouts(
        swapped,
        {"", "",
         decode_stmatrix_probe(swapped, emulate_stmatrix(layout_of("stmatrix.x2"), plan2))});
    EXPECT_EQ(comparison.matched, comparison.total - 16);
    // A movmatrix that does not transpose.
    const FragmentLayout mov = layout_of("movmatrix.trans");
    FragmentLayout identity = mov;
    operand_of(identity, Operand::D).elements = operand_of(identity, Operand::A).elements;
    const MovmatrixProbePlan mplan = plan_movmatrix_probe(mov);
    comparison = compare_layouts(
        mov, {"", "", decode_movmatrix_probe(mov, emulate_movmatrix(identity, mplan))});
    EXPECT_EQ(count_prefixed(comparison, "D "), 64 - 8);
}

TEST(FragmentProbeEmulated, CatchesAWgmmaB1HardwareWithADifferentALayout) {
    const FragmentLayout model = layout_of("wgmma.m64n16k256.b1");
    FragmentLayout hardware = model;
    OperandLayout& a = operand_of(hardware, Operand::A);
    // lane 0: bit 3 of a0 (0, 3) and bit 8 of a1 (8, 8) trade places.
    std::swap(a.elements[3].row, a.elements[40].row);
    std::swap(a.elements[3].col, a.elements[40].col);
    const LayoutProbeResult result =
        emulated_wgmma_result(model, hardware, b1_wgmma_sample(1000, {3, 40}));
    EXPECT_EQ(sampled_mismatches(model, result, Operand::A, 1000, {3, 40}), 2);
    // The "rows" D experiment loads A through the model too: (0, 3) gets row 8's 1 and (8, 8)
    // row 0's 0, so rows 0 and 8 count one too many and one too few in all 16 columns.
    EXPECT_EQ(count_prefixed(compare_layouts(model, result), "D "), 32);
}

}  // namespace
}  // namespace tclens::kernels
