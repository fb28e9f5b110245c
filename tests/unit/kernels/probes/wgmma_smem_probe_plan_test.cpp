// CPU tests of the wgmma shared-memory view probes (kernels/probes/wgmma_smem_probe_plan.h): the
// plans, and whole probes run against an emulated wgmma that reads shared memory the way the PTX
// ISA's "Shared Memory Matrix Layout" describes it, written here from the descriptor's fields
// (LBO, SBO, swizzle mode) and core matrices, independently of the views' own formula. Emulated
// hardware that reads differently (LBO and SBO swapped, no swizzle, b1 bits high first) and a
// view with two elements swapped show the probe catching each.
#include "kernels/probes/wgmma_smem_probe_plan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "kernels/probes/fragment_probe.h"
#include "viz/fragment_layout.h"
#include "viz/layouts/wgmma_layouts.h"
#include "viz/layouts/wgmma_smem_layouts.h"

namespace tclens::kernels {
namespace {

using viz::FragmentLayout;
using viz::Operand;
using viz::OperandLayout;
using Matrix = std::vector<std::vector<double>>;

FragmentLayout view_of(const std::string& id) {
    const std::optional<FragmentLayout> layout = viz::wgmma_smem_layout(id);
    EXPECT_TRUE(layout.has_value()) << id;
    return layout.value_or(FragmentLayout{});
}

// How the emulated hardware deviates from the PTX ISA's description.
enum class Quirk { None, SwappedStrides, NoSwizzle, B1HighBitFirst };

// The bit address (from the descriptor's start) where the hardware finds element (mn, k) of a
// tile: core matrices of 8 rows x 16 bytes; K-major rows are M/N, MN-major rows are K.
//   K-major, no swizzle: core (mn / 8, k-chunk) at mn/8 * SBO + k-chunk * LBO.
//   K-major, W-byte swizzle: 8 rows of W bytes (an atom) per 8 M/N, atoms SBO apart; the 32 bytes
//     of K of a row lie at its start.
//   MN-major, no swizzle: core (mn-chunk, k / 8) at mn-chunk * SBO + k/8 * LBO.
//   MN-major, W-byte swizzle: atoms of 8 K rows x W bytes of M/N; along M/N atoms are LBO apart,
//     along K (k / 8) SBO apart.
// Then the swizzle: byte-address bits 4.. XOR bits 7.., 1, 2 or 3 of them for 32, 64 and 128
// bytes (the tile starts on a 1024-byte boundary).
size_t hardware_bit(uint64_t descriptor, bool mn_major, int bits, int mn, int k, Quirk quirk) {
    size_t lbo = size_t((descriptor >> 16) & 0x3fff) << 4;
    size_t sbo = size_t((descriptor >> 32) & 0x3fff) << 4;
    if (quirk == Quirk::SwappedStrides) std::swap(lbo, sbo);
    const int mode = int(descriptor >> 62);
    const int width = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
    const size_t k_bit = size_t(k) * size_t(bits);
    const size_t mn_bit = size_t(mn) * size_t(bits);
    size_t bit = 0;
    if (!mn_major && width == 0) {
        bit = (size_t(mn / 8) * sbo + k_bit / 128 * lbo + size_t(mn % 8) * 16) * 8 + k_bit % 128;
    } else if (!mn_major) {
        bit = (size_t(mn / 8) * sbo + size_t(mn % 8) * size_t(width)) * 8 + k_bit;
    } else if (width == 0) {
        bit = (mn_bit / 128 * sbo + size_t(k / 8) * lbo + size_t(k % 8) * 16) * 8 + mn_bit % 128;
    } else {
        const size_t atom_bits = size_t(width) * 8;
        bit = (mn_bit / atom_bits * lbo + size_t(k / 8) * sbo + size_t(k % 8) * size_t(width)) * 8 +
              mn_bit % atom_bits;
    }
    size_t byte = bit / 8;
    if (width != 0 && quirk != Quirk::NoSwizzle) {
        const size_t mask = size_t(width / 16 - 1);
        byte ^= ((byte >> 7) & mask) << 4;
    }
    size_t in_byte = bit % 8;
    if (bits == 1 && quirk == Quirk::B1HighBitFirst) in_byte = 7 - in_byte;
    return byte * 8 + in_byte;
}

// The K x 64 (B) or 64 x K (A) matrix the hardware reads from `tile` (`tile_bytes` long). A
// quirk can send an address past the tile: that shared memory reads as zeros here.
Matrix read_tile(const uint8_t* tile, size_t tile_bytes, uint64_t descriptor, bool mn_major,
                 ElementType type, Operand operand, Quirk quirk) {
    const int bits = element_bits(type);
    const int depth = 256 / bits;
    const bool is_a = operand == Operand::A;
    Matrix m(size_t(is_a ? 64 : depth), std::vector<double>(size_t(is_a ? depth : 64), 0.0));
    for (int mn = 0; mn < 64; ++mn) {
        for (int k = 0; k < depth; ++k) {
            const size_t at = hardware_bit(descriptor, mn_major, bits, mn, k, quirk);
            uint64_t value = 0;
            for (int i = 0; i < bits; ++i) {
                const size_t byte = (at + size_t(i)) / 8;
                if (byte >= tile_bytes) continue;
                value |= uint64_t((tile[byte] >> ((at + size_t(i)) % 8)) & 1) << i;
            }
            (is_a ? m[size_t(mn)][size_t(k)] : m[size_t(k)][size_t(mn)]) =
                decode_element(type, value).value_or(NAN);
        }
    }
    return m;
}

// wgmma.mma_async m64n64, scale-d = 0: D = A * B (b1: popc of AND, the same sum for 0s and 1s),
// A from its register image (RS) or from shared memory (SS), D written as the register model of
// the type says.
std::vector<uint32_t> emulate(const WgmmaSmemProbePlan& plan, const std::string& register_id,
                              Quirk quirk = Quirk::None) {
    const FragmentLayout registers = *viz::wgmma_layout(register_id);
    const OperandLayout& a_layout = *registers.find(Operand::A);
    const OperandLayout& d_layout = *registers.find(Operand::D);
    const ElementType input = wgmma_input_type(plan.kind);
    const ElementType accumulator = wgmma_accumulator_type(plan.kind);
    const size_t a_words = image_words(a_layout, 128), d_words = image_words(d_layout, 128);
    std::vector<uint32_t> out(plan.experiments.size() * d_words, 0xffffffffu);
    for (size_t e = 0; e < plan.experiments.size(); ++e) {
        Matrix a(64, std::vector<double>(size_t(a_layout.cols), 0.0));
        if (plan.a_from_registers[e]) {
            for (const viz::LayoutElement& slot : a_layout.elements) {
                a[size_t(slot.row)][size_t(slot.col)] = *decode_element(
                    input, read_slot(&plan.a_registers[e * a_words], a_layout, slot));
            }
        } else {
            a = read_tile(&plan.a_tiles[e * plan.a_tile_bytes], plan.a_tile_bytes,
                          plan.a_descriptor, plan.mn_major, input, Operand::A, quirk);
        }
        const Matrix b = read_tile(&plan.b_tiles[e * plan.b_tile_bytes], plan.b_tile_bytes,
                                   plan.b_descriptor, plan.mn_major, input, Operand::B, quirk);
        for (const viz::LayoutElement& slot : d_layout.elements) {
            double sum = 0;
            for (size_t k = 0; k < b.size(); ++k) {
                sum += a[size_t(slot.row)][k] * b[k][size_t(slot.col)];
            }
            write_slot(&out[e * d_words], d_layout, slot, *encode_exact(accumulator, int(sum)));
        }
    }
    return out;
}

std::string register_id_of(const std::string& view_id) {
    const std::string type = view_id.substr(11, view_id.find('.', 11) - 11);
    return viz::wgmma_layout_id(type, 64);
}

int mismatches_starting_with(const LayoutComparison& comparison, const std::string& prefix) {
    int count = 0;
    for (const std::string& line : comparison.mismatches) count += line.rfind(prefix, 0) == 0;
    return count;
}

LayoutComparison run_emulated(const FragmentLayout& view, Quirk quirk = Quirk::None,
                              const FragmentLayout* planned_from = nullptr) {
    const WgmmaSmemProbePlan plan = plan_wgmma_smem_probe(planned_from ? *planned_from : view);
    EXPECT_EQ(plan.error, "") << view.id;
    LayoutProbeResult result;
    result.tiles = decode_wgmma_smem_probe(view, emulate(plan, register_id_of(view.id), quirk));
    return compare_layouts(view, result);
}

TEST(WgmmaSmemProbePlan, EveryViewHasAPlanWithItsDescriptorsAndDigits) {
    const std::vector<std::string> ids = viz::wgmma_smem_layout_ids();
    ASSERT_EQ(ids.size(), 20u);
    for (const std::string& id : ids) {
        const FragmentLayout view = view_of(id);
        WgmmaKind kind = WgmmaKind::S8;
        bool mn_major = true;
        ASSERT_TRUE(wgmma_smem_kind_of(id, kind, mn_major)) << id;
        EXPECT_EQ(mn_major, id.find(".mn.") != std::string::npos) << id;
        const WgmmaSmemProbePlan plan = plan_wgmma_smem_probe(view);
        ASSERT_EQ(plan.error, "") << id;
        EXPECT_EQ(plan.kind, kind);
        EXPECT_EQ(plan.a_descriptor, view.shared_memory[0].descriptor) << id;
        EXPECT_EQ(plan.b_descriptor, view.shared_memory[1].descriptor) << id;
        EXPECT_EQ(plan.a_tile_bytes % 1024, 0u);
        EXPECT_EQ(plan.b_tile_bytes % 1024, 0u);
        // base ^ digits covers the codes 1 .. 64 K, and one digit fewer would not.
        long long reach = 1;
        for (int j = 0; j < plan.digits; ++j) reach *= plan.base;
        const long long codes = (long long)view.shared_memory[0].elements.size();
        EXPECT_GT(reach, codes) << id;
        EXPECT_LE(reach / plan.base, codes) << id;
        for (size_t e = 0; e < plan.experiments.size(); ++e) {
            EXPECT_EQ(plan.a_from_registers[e], plan.experiments[e].tested == Operand::B ? 1 : 0);
        }
    }
    WgmmaKind kind = WgmmaKind::S8;
    bool mn_major = false;
    EXPECT_FALSE(wgmma_smem_kind_of("wgmma.m64n64k16.f16", kind, mn_major));
}

TEST(WgmmaSmemProbePlan, ExperimentCountsPerType) {
    // f16 and tf32: one digit, one group; e4m3: three digits; b1: 15 digits, 4 groups of 64 K.
    const std::pair<const char*, size_t> expected[] = {{"wgmma.smem.f16.k.none", 2},
                                                       {"wgmma.smem.f16.mn.sw128", 2},
                                                       {"wgmma.smem.tf32.k.sw32", 2},
                                                       {"wgmma.smem.e4m3.k.sw64", 6},
                                                       {"wgmma.smem.b1.k.none", 120}};
    for (const auto& [id, count] : expected) {
        EXPECT_EQ(plan_wgmma_smem_probe(view_of(id)).experiments.size(), count) << id;
    }
    // K-major, no swizzle, f16: 8 groups of 8 rows, SBO 256 bytes apart: 2048 bytes per tile.
    const WgmmaSmemProbePlan plan = plan_wgmma_smem_probe(view_of("wgmma.smem.f16.k.none"));
    EXPECT_EQ(plan.a_tile_bytes, 2048u);
    EXPECT_EQ(plan.b_tile_bytes, 2048u);
    EXPECT_EQ(plan.base, 2048);
    EXPECT_EQ(plan.digits, 1);
}

TEST(WgmmaSmemProbePlan, TilesHoldTheirCodesAndTheSelectors) {
    const FragmentLayout view = view_of("wgmma.smem.f16.k.sw32");
    const WgmmaSmemProbePlan plan = plan_wgmma_smem_probe(view);
    ASSERT_EQ(plan.error, "");
    ASSERT_EQ(plan.experiments.size(), 2u);
    const viz::SharedMemoryTile& a = view.shared_memory[0];
    const viz::SharedMemoryTile& b = view.shared_memory[1];
    const auto f16_at = [](const std::vector<uint8_t>& bytes, size_t at) {
        return *decode_element(ElementType::F16, uint64_t(bytes[at]) | uint64_t(bytes[at + 1])
                                                                           << 8);
    };
    // Experiment 0 measures B: element i of the B tile holds i + 1; the A tile stays empty.
    for (size_t i = 0; i < b.elements.size(); i += 37) {
        EXPECT_EQ(f16_at(plan.b_tiles, size_t(b.elements[i].byte)), double(i + 1)) << i;
    }
    // Experiment 1 measures A: element i holds i + 1, and B is 1 exactly where k == n.
    for (size_t i = 0; i < a.elements.size(); i += 37) {
        EXPECT_EQ(f16_at(plan.a_tiles, plan.a_tile_bytes + size_t(a.elements[i].byte)),
                  double(i + 1))
            << i;
    }
    for (const viz::SharedMemoryElement& e : b.elements) {
        EXPECT_EQ(f16_at(plan.b_tiles, plan.b_tile_bytes + size_t(e.byte)),
                  e.row == e.col ? 1.0 : 0.0);
    }
}

TEST(WgmmaSmemProbeEmulated, EveryViewMatchesAnEmulatedGpu) {
    for (const std::string& id : viz::wgmma_smem_layout_ids()) {
        const FragmentLayout view = view_of(id);
        const LayoutComparison comparison = run_emulated(view);
        EXPECT_EQ(comparison.total, int(2 * view.shared_memory[0].elements.size())) << id;
        EXPECT_EQ(comparison.matched, comparison.total)
            << id << ": " << (comparison.mismatches.empty() ? "" : comparison.mismatches[0]);
    }
}

TEST(WgmmaSmemProbeEmulated, CatchesHardwareThatReadsLboAndSboTheOtherWay) {
    for (const char* id :
         {"wgmma.smem.f16.mn.sw64", "wgmma.smem.f16.mn.none", "wgmma.smem.tf32.k.none"}) {
        const FragmentLayout view = view_of(id);
        const LayoutComparison comparison = run_emulated(view, Quirk::SwappedStrides);
        EXPECT_GE(mismatches_starting_with(comparison, "B byte"),
                  int(view.shared_memory[1].elements.size() / 2))
            << id;
    }
}

TEST(WgmmaSmemProbeEmulated, CatchesHardwareWithoutTheSwizzle) {
    const LayoutComparison comparison =
        run_emulated(view_of("wgmma.smem.e4m3.k.sw128"), Quirk::NoSwizzle);
    EXPECT_LT(comparison.matched, comparison.total);
    EXPECT_GT(comparison.mismatches.size(), 100u);
    // Rows 0 of each 8 are not moved by the swizzle: those still match.
    EXPECT_GT(comparison.matched, 0);
}

// Reading every byte's bits high first moves every element of both tiles, but the A experiments
// alone cannot see it: their B selector is moved the same way and the two moves cancel in the
// product. B, measured with A from registers, is what catches it (see the plan header).
TEST(WgmmaSmemProbeEmulated, CatchesB1BitsReadHighFirstThroughB) {
    const FragmentLayout view = view_of("wgmma.smem.b1.k.sw32");
    const LayoutComparison comparison = run_emulated(view, Quirk::B1HighBitFirst);
    const int b_elements = int(view.shared_memory[1].elements.size());
    EXPECT_EQ(mismatches_starting_with(comparison, "B byte"), b_elements);
    EXPECT_EQ(mismatches_starting_with(comparison, "A byte"), 0);
    ASSERT_FALSE(comparison.mismatches.empty());
    EXPECT_NE(comparison.mismatches[0].find(" bit "), std::string::npos)
        << comparison.mismatches[0];
}

TEST(WgmmaSmemProbeEmulated, CatchesAViewWithTwoElementsSwapped) {
    const FragmentLayout view = view_of("wgmma.smem.tf32.k.sw64");
    FragmentLayout broken = view;
    viz::SharedMemoryTile& a = broken.shared_memory[0];
    std::swap(a.elements[3].byte, a.elements[100].byte);
    const LayoutComparison comparison = run_emulated(broken);
    EXPECT_EQ(comparison.total - comparison.matched, 2);
    ASSERT_EQ(comparison.mismatches.size(), 2u);
    EXPECT_EQ(comparison.mismatches[0].rfind("A byte ", 0), 0u) << comparison.mismatches[0];
}

TEST(WgmmaSmemProbeDecode, NoOutputMeansNothingMeasured) {
    const FragmentLayout view = view_of("wgmma.smem.f16.k.none");
    LayoutProbeResult result;
    result.tiles = decode_wgmma_smem_probe(view, {});
    ASSERT_EQ(result.tiles.size(), 2u);
    EXPECT_EQ(result.tiles[0].coords[0].problem, "no output from the GPU");
    const LayoutComparison comparison = compare_layouts(view, result);
    EXPECT_EQ(comparison.matched, 0);
    EXPECT_EQ(comparison.total, 2048);
}

}  // namespace
}  // namespace tclens::kernels
