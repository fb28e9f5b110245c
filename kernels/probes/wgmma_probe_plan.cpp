// wgmma probe plans and decoding; see wgmma_probe_plan.h.
#include "kernels/probes/wgmma_probe_plan.h"

#include <cmath>

#include "viz/layouts/wgmma_layouts.h"

namespace tclens::kernels {

namespace {

constexpr int kCoreRows = 8;
constexpr int kB1RowsK = 64;       // "rows" experiment: B = 1 for k < 64, A = 1 for k <= m
constexpr int kB1BitsColumns = 8;  // "bits" experiment: bit n of k in columns 0..7

struct KindInfo {
    const char* type;
    WgmmaKind kind;
    ElementType input;
    ElementType accumulator;
};

constexpr KindInfo kKinds[] = {
    {"f16", WgmmaKind::F16, ElementType::F16, ElementType::F32},
    {"tf32", WgmmaKind::Tf32, ElementType::Tf32, ElementType::F32},
    {"e4m3", WgmmaKind::E4m3, ElementType::E4m3, ElementType::F32},
    {"e5m2", WgmmaKind::E5m2, ElementType::E5m2, ElementType::F32},
    {"s8", WgmmaKind::S8, ElementType::S8, ElementType::S32},
    {"u8", WgmmaKind::U8, ElementType::U8, ElementType::S32},
    {"b1", WgmmaKind::B1, ElementType::B1, ElementType::S32},
};

const KindInfo& info(WgmmaKind kind) {
    for (const KindInfo& entry : kKinds) {
        if (entry.kind == kind) return entry;
    }
    return kKinds[0];
}

std::string find_wgmma_operands(const viz::FragmentLayout& model, WgmmaKind kind, int n,
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
    const int bits = element_bits(info(kind).input);
    const std::string a_error =
        shape_error(model.id.c_str(), *a, kWgmmaM, kWgmmaRowBytes * 8 / bits, bits);
    return a_error.empty() ? shape_error(model.id.c_str(), *d, kWgmmaM, n, 32) : a_error;
}

// Writes value(k, col) for every element of a K x n tile of `input`; "" or the first inexact one.
std::string fill_b_tile(uint8_t* tile, ElementType input, int n,
                        const std::function<int(int k, int col)>& value) {
    const int bits = element_bits(input);
    const int k_elems = kWgmmaRowBytes * 8 / bits;
    for (int k = 0; k < k_elems; ++k) {
        for (int col = 0; col < n; ++col) {
            const std::optional<uint64_t> encoded = encode_exact(input, value(k, col));
            if (!encoded) {
                return "B(" + std::to_string(k) + "," + std::to_string(col) +
                       ") = " + std::to_string(value(k, col)) + " is not exact in " +
                       element_name(input);
            }
            const size_t bit = wgmma_b_bit_offset(k, col, bits);
            if (bit + size_t(bits) > size_t(kWgmmaRowBytes) * size_t(n) * 8) {
                return "B(" + std::to_string(k) + "," + std::to_string(col) +
                       ") lies outside the tile";
            }
            for (int i = 0; i < bits; ++i) {
                const uint8_t mask = uint8_t(1u << ((bit + size_t(i)) % 8));
                uint8_t& byte = tile[(bit + size_t(i)) / 8];
                byte = uint8_t(((*encoded >> i) & 1) ? (byte | mask) : (byte & ~mask));
            }
        }
    }
    return "";
}

// D of the two b1 experiments: rows gives m + 1, columns gives n + 1.
MeasuredOperand measure_b1_product(const viz::OperandLayout& d, const uint32_t* rows_image,
                                   const uint32_t* columns_image) {
    std::vector<DecodedCoord> decoded;
    for (const viz::LayoutElement& slot : d.elements) {
        const std::optional<double> row =
            decode_element(ElementType::S32, read_slot(rows_image, d, slot));
        const std::optional<double> col =
            decode_element(ElementType::S32, read_slot(columns_image, d, slot));
        if (!row || !col || *row < 1 || *row > d.rows || *col < 1 || *col > d.cols) {
            decoded.push_back({-1, -1,
                               "counts " + std::to_string(row.value_or(-1)) + " and " +
                                   std::to_string(col.value_or(-1)) + " are not m + 1 and n + 1"});
        } else {
            decoded.push_back({int(*row) - 1, int(*col) - 1, ""});
        }
    }
    return measured_from(d, decoded);
}

// A one-hot under AND: the "row" experiment lights row m only, the "bits" one spells k there.
DecodedCoord decode_b1_a(const viz::OperandLayout& d, const uint32_t* bits_image,
                         const uint32_t* row_image) {
    DecodedCoord out;
    std::vector<int> lit_per_row(size_t(d.rows), 0);
    std::vector<int> k_of_row(size_t(d.rows), 0);
    for (const viz::LayoutElement& slot : d.elements) {
        const std::optional<double> lit =
            decode_element(ElementType::S32, read_slot(row_image, d, slot));
        const std::optional<double> bit =
            decode_element(ElementType::S32, read_slot(bits_image, d, slot));
        if (!lit || !bit || (*lit != 0 && *lit != 1) || (*bit != 0 && *bit != 1)) {
            out.problem = "D(" + std::to_string(slot.row) + "," + std::to_string(slot.col) +
                          ") is no single bit";
            return out;
        }
        lit_per_row[size_t(slot.row)] += int(*lit);
        if (*bit != 0 && (slot.col >= kB1BitsColumns || *lit == 0)) {
            out.problem = "the bits experiment lights D(" + std::to_string(slot.row) + "," +
                          std::to_string(slot.col) + ")";
            return out;
        }
        if (slot.col < kB1BitsColumns) k_of_row[size_t(slot.row)] |= int(*bit) << slot.col;
    }
    for (int m = 0; m < d.rows; ++m) {
        if (lit_per_row[size_t(m)] == 0) continue;
        if (lit_per_row[size_t(m)] != d.cols || out.row != -1) {
            out.problem = "the row experiment lights more than one whole row";
            out.row = -1;
            return out;
        }
        out.row = m;
        out.col = k_of_row[size_t(m)];
    }
    if (out.row == -1) out.problem = "D is all zero";
    return out;
}

}  // namespace

size_t wgmma_b_bit_offset(int k, int n, int bits) {
    const size_t k_bits = size_t(k) * size_t(bits);
    const size_t core_bytes = size_t(n / kCoreRows) * kWgmmaStrideBytes +
                              (k_bits / 128) * kWgmmaLeadingBytes + size_t(n % kCoreRows) * 16;
    return core_bytes * 8 + k_bits % 128;
}

uint64_t wgmma_descriptor(uint32_t smem_address, uint32_t leading_bytes, uint32_t stride_bytes) {
    const auto encode = [](uint32_t x) { return uint64_t((x & 0x3ffff) >> 4); };
    return encode(smem_address) | encode(leading_bytes) << 16 | encode(stride_bytes) << 32;
}

bool wgmma_kind_of(std::string_view id, WgmmaKind& kind) {
    const std::string type = viz::wgmma_layout_type(id);
    for (const KindInfo& entry : kKinds) {
        if (type == entry.type) {
            kind = entry.kind;
            return true;
        }
    }
    return false;
}

ElementType wgmma_input_type(WgmmaKind kind) { return info(kind).input; }
ElementType wgmma_accumulator_type(WgmmaKind kind) { return info(kind).accumulator; }

WgmmaProbePlan plan_wgmma_probe(const viz::FragmentLayout& model) {
    WgmmaProbePlan plan;
    plan.n = viz::wgmma_layout_n(model.id);
    const viz::OperandLayout* a = nullptr;
    const viz::OperandLayout* d = nullptr;
    if (!wgmma_kind_of(model.id, plan.kind)) plan.n = 0;
    if ((plan.error = find_wgmma_operands(model, plan.kind, plan.n, a, d)) != "") {
        return plan;
    }
    const ElementType input = wgmma_input_type(plan.kind);
    const int k = a->cols;
    const size_t a_words = image_words(*a, kWgmmaThreads);
    const size_t tile_bytes = size_t(kWgmmaRowBytes) * size_t(plan.n);
    const bool b1 = plan.kind == WgmmaKind::B1;
    const size_t a_slots = a->elements.size();
    plan.experiments = int(b1 ? 2 + 2 * a_slots : 1 + a_slots);
    plan.a.assign(size_t(plan.experiments) * a_words, 0);
    plan.b_tiles.assign((b1 ? 4 : 2) * tile_bytes, 0);
    plan.tile_index.assign(size_t(plan.experiments), 0);
    plan.descriptor_template = wgmma_descriptor(0, kWgmmaLeadingBytes, kWgmmaStrideBytes);
    const std::optional<uint64_t> one = encode_exact(input, 1);

    std::string error;
    if (!b1) {
        // Experiment 0 (tile 0): the product design. One-hot experiments use tile 1: digits.
        const ProductDesign design = make_product_design(input, kWgmmaM, plan.n, k);
        error = design.error;
        if (error.empty()) {
            error = check_accumulator(wgmma_accumulator_type(plan.kind), design.row_scale, kWgmmaM,
                                      plan.n);
        }
        const bool fp8 = plan.kind == WgmmaKind::E4m3 || plan.kind == WgmmaKind::E5m2;
        const int largest = design.row_scale * (kWgmmaM - 1) + plan.n;
        if (error.empty() && fp8 && largest > kFp8AccumulatorExact) {
            error = "D value " + std::to_string(largest) + " needs more than the 14 bits FP8 " +
                    "wgmma's accumulator keeps";
        }
        if (error.empty()) {
            error =
                fill_operand(&plan.a[0], *a, input, [&](int m, int kk) { return design.a(m, kk); });
        }
        if (error.empty()) {
            error = fill_b_tile(&plan.b_tiles[0], input, plan.n,
                                [&](int kk, int col) { return design.b(kk, col); });
        }
        const DigitCode code = digit_code(input, k);
        if (error.empty()) {
            error = fill_b_tile(&plan.b_tiles[tile_bytes], input, plan.n,
                                [&](int kk, int col) { return k_digit(kk, col, code); });
        }
        for (size_t i = 0; i < a_slots && error.empty(); ++i) {
            write_slot(&plan.a[(1 + i) * a_words], *a, a->elements[i], *one);
            plan.tile_index[1 + i] = 1;
        }
    } else {
        // Tiles: 0 rows (B = 1 for k < 64), 1 columns (B = 1 for k <= n), 2 bits, 3 all 1s.
        error = fill_operand(&plan.a[0], *a, input,
                             [](int m, int kk) { return kk < kB1RowsK && kk <= m; });
        if (error.empty())
            error = fill_operand(&plan.a[a_words], *a, input, [](int, int) { return 1; });
        const std::function<int(int, int)> tiles[] = {
            [](int kk, int) { return int(kk < kB1RowsK); },
            [](int kk, int col) { return int(kk <= col); },
            [](int kk, int col) { return col < kB1BitsColumns ? (kk >> col) & 1 : 0; },
            [](int, int) { return 1; },
        };
        for (size_t t = 0; t < 4 && error.empty(); ++t) {
            error = fill_b_tile(&plan.b_tiles[t * tile_bytes], input, plan.n, tiles[t]);
        }
        plan.tile_index[1] = 1;
        for (size_t i = 0; i < a_slots && error.empty(); ++i) {
            for (size_t half = 0; half < 2; ++half) {
                const size_t e = 2 + 2 * i + half;
                write_slot(&plan.a[e * a_words], *a, a->elements[i], *one);
                plan.tile_index[e] = int32_t(2 + half);
            }
        }
    }
    if (!error.empty()) plan.error = model.id + ": " + error;
    return plan;
}

std::vector<MeasuredOperand> decode_wgmma_probe(const viz::FragmentLayout& model,
                                                const std::vector<uint32_t>& d) {
    WgmmaKind kind = WgmmaKind::F16;
    const int n = wgmma_kind_of(model.id, kind) ? viz::wgmma_layout_n(model.id) : 0;
    const viz::OperandLayout* a = nullptr;
    const viz::OperandLayout* d_layout = nullptr;
    if (!find_wgmma_operands(model, kind, n, a, d_layout).empty()) {
        return {};
    }
    const bool b1 = kind == WgmmaKind::B1;
    const size_t d_words = image_words(*d_layout, kWgmmaThreads);
    const size_t a_slots = a->elements.size();
    if (d.size() != (b1 ? 2 + 2 * a_slots : 1 + a_slots) * d_words) {
        return {unmeasured(*a, "no output from the GPU"),
                unmeasured(*d_layout, "no output from the GPU")};
    }
    if (b1) {
        std::vector<DecodedCoord> a_coords;
        for (size_t i = 0; i < a_slots; ++i) {
            a_coords.push_back(
                decode_b1_a(*d_layout, &d[(2 + 2 * i) * d_words], &d[(3 + 2 * i) * d_words]));
        }
        return {measured_from(*a, a_coords), measure_b1_product(*d_layout, &d[0], &d[d_words])};
    }
    const ElementType input = wgmma_input_type(kind);
    const ElementType accumulator = wgmma_accumulator_type(kind);
    const int k = a->cols;
    MeasuredOperand measured_d =
        measure_product(*d_layout, accumulator, &d[0], product_row_scale(n));
    MeasuredOperand measured_a =
        measure_one_hot(*a, *d_layout, accumulator, &d[d_words], d_words, k, digit_code(input, k));
    return {measured_a, measured_d};
}

}  // namespace tclens::kernels
