// wgmma shared-memory view probe plans and decoding; see wgmma_smem_probe_plan.h.
#include "kernels/probes/wgmma_smem_probe_plan.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "viz/layouts/wgmma_layouts.h"
#include "viz/layouts/wgmma_smem_layouts.h"

namespace tclens::kernels {

namespace {

constexpr int kGroupSize = 64;  // M of A selects 64 rows of B; N of B selects 64 columns of A

struct SmemType {
    const char* type;  // as in the view ID and the register model ID
    WgmmaKind kind;
    int base;  // the digits sent per experiment are 0 .. base - 1, all exact in the type
};

constexpr SmemType kTypes[] = {
    {"tf32", WgmmaKind::Tf32, 2048},
    {"f16", WgmmaKind::F16, 2048},
    {"e4m3", WgmmaKind::E4m3, 16},
    {"b1", WgmmaKind::B1, 2},
};

const SmemType* find_type(WgmmaKind kind) {
    for (const SmemType& type : kTypes) {
        if (type.kind == kind) return &type;
    }
    return nullptr;
}

// The register model (A and D of the RS form) of the view's type, for N = 64.
std::optional<viz::FragmentLayout> register_model(WgmmaKind kind) {
    const SmemType* type = find_type(kind);
    if (!type) return std::nullopt;
    return viz::wgmma_layout(viz::wgmma_layout_id(type->type, kWgmmaSmemN));
}

const viz::SharedMemoryTile* find_tile(const viz::FragmentLayout& model, viz::Operand operand) {
    for (const viz::SharedMemoryTile& tile : model.shared_memory) {
        if (tile.operand == operand) return &tile;
    }
    return nullptr;
}

// Everything both plan and decode need, checked once.
struct Setup {
    std::string error;
    WgmmaKind kind = WgmmaKind::F16;
    bool mn_major = false;
    int base = 0;
    int digits = 0;
    int depth = 0;  // K
    const viz::SharedMemoryTile* a = nullptr;
    const viz::SharedMemoryTile* b = nullptr;
    std::optional<viz::FragmentLayout> registers;
};

Setup set_up(const viz::FragmentLayout& model) {
    Setup setup;
    if (!wgmma_smem_kind_of(model.id, setup.kind, setup.mn_major)) {
        setup.error = model.id + " is not a wgmma shared-memory view";
        return setup;
    }
    const int bits = element_bits(wgmma_input_type(setup.kind));
    setup.depth = kWgmmaRowBytes * 8 / bits;
    setup.a = find_tile(model, viz::Operand::A);
    setup.b = find_tile(model, viz::Operand::B);
    setup.registers = register_model(setup.kind);
    if (!setup.a || !setup.b) {
        setup.error = model.id + ": the view lacks the A or the B tile";
        return setup;
    }
    for (const viz::SharedMemoryTile* tile : {setup.a, setup.b}) {
        const bool is_a = tile->operand == viz::Operand::A;
        const int rows = is_a ? kWgmmaM : setup.depth;
        const int cols = is_a ? setup.depth : kWgmmaSmemN;
        if (tile->rows != rows || tile->cols != cols || tile->elem_bits != bits ||
            tile->elements.size() != size_t(rows) * size_t(cols) ||
            tile->k_major == setup.mn_major) {
            setup.error = model.id + ": the " + (is_a ? "A" : "B") + " tile is not " +
                          std::to_string(rows) + "x" + std::to_string(cols) + " of " +
                          std::to_string(bits) + "-bit elements, " + (setup.mn_major ? "MN" : "K") +
                          "-major";
            return setup;
        }
        for (const viz::SharedMemoryElement& e : tile->elements) {
            if (e.byte < 0 || e.bit < 0 || e.bit + bits > 8 * std::max(1, bits / 8)) {
                setup.error = model.id + ": element (" + std::to_string(e.row) + "," +
                              std::to_string(e.col) + ") has no valid byte";
                return setup;
            }
        }
    }
    const viz::OperandLayout* a_registers =
        setup.registers ? setup.registers->find(viz::Operand::A) : nullptr;
    const viz::OperandLayout* d =
        setup.registers ? setup.registers->find(viz::Operand::D) : nullptr;
    if (!a_registers || !d || d->regs_per_thread != kWgmmaSmemN / 2 ||
        a_registers->regs_per_thread != kWgmmaARegs) {
        setup.error = model.id + ": no m64n64 register model of its type";
        return setup;
    }
    const SmemType* type = find_type(setup.kind);
    setup.base = type->base;
    setup.digits = 1;
    for (long long reach = setup.base; reach <= (long long)setup.a->elements.size();
         ++setup.digits) {
        reach *= setup.base;
    }
    return setup;
}

// The experiments in plan order: B groups then A groups, each group's digits in a row.
std::vector<WgmmaSmemExperiment> experiment_list(const Setup& setup) {
    std::vector<WgmmaSmemExperiment> list;
    const int groups = (setup.depth + kGroupSize - 1) / kGroupSize;
    for (const viz::Operand tested : {viz::Operand::B, viz::Operand::A}) {
        for (int g = 0; g < groups; ++g) {
            for (int j = 0; j < setup.digits; ++j) list.push_back({tested, g, j});
        }
    }
    return list;
}

int digit_of(int value, int base, int digit) {
    for (int i = 0; i < digit; ++i) value /= base;
    return value % base;
}

// The bytes a tile spans, rounded up to kWgmmaSmemAlignment.
size_t tile_bytes(const viz::SharedMemoryTile& tile) {
    size_t end = 0;
    for (const viz::SharedMemoryElement& e : tile.elements) {
        end = std::max(end, size_t(e.byte) + size_t(std::max(1, tile.elem_bits / 8)));
    }
    return (end + kWgmmaSmemAlignment - 1) / kWgmmaSmemAlignment * kWgmmaSmemAlignment;
}

// Writes value(element index) at every element's place; "" or the first inexact value.
std::string fill_tile(uint8_t* bytes, const viz::SharedMemoryTile& tile, ElementType type,
                      const std::function<int(size_t index)>& value) {
    for (size_t i = 0; i < tile.elements.size(); ++i) {
        const viz::SharedMemoryElement& e = tile.elements[i];
        const std::optional<uint64_t> encoded = encode_exact(type, value(i));
        if (!encoded) {
            return std::to_string(value(i)) + " is not exact in " + element_name(type);
        }
        if (tile.elem_bits < 8) {
            const uint8_t mask = uint8_t(((1u << tile.elem_bits) - 1) << e.bit);
            bytes[e.byte] =
                uint8_t((bytes[e.byte] & ~mask) | ((uint32_t(*encoded) << e.bit) & mask));
        } else {
            for (int b = 0; b < tile.elem_bits / 8; ++b) {
                bytes[size_t(e.byte) + size_t(b)] = uint8_t(*encoded >> (8 * b));
            }
        }
    }
    return "";
}

}  // namespace

bool wgmma_smem_kind_of(std::string_view id, WgmmaKind& kind, bool& mn_major) {
    if (!viz::wgmma_smem_layout(id)) return false;
    const std::string_view prefix = "wgmma.smem.";
    const std::string_view rest = id.substr(prefix.size());
    const std::string_view type = rest.substr(0, rest.find('.'));
    for (const SmemType& entry : kTypes) {
        if (type == entry.type) {
            kind = entry.kind;
            mn_major = rest.substr(type.size()).rfind(".mn.", 0) == 0;
            return true;
        }
    }
    return false;
}

WgmmaSmemProbePlan plan_wgmma_smem_probe(const viz::FragmentLayout& model) {
    WgmmaSmemProbePlan plan;
    const Setup setup = set_up(model);
    if ((plan.error = setup.error) != "") return plan;
    plan.kind = setup.kind;
    plan.mn_major = setup.mn_major;
    plan.base = setup.base;
    plan.digits = setup.digits;
    plan.experiments = experiment_list(setup);
    plan.a_tile_bytes = tile_bytes(*setup.a);
    plan.b_tile_bytes = tile_bytes(*setup.b);
    plan.a_descriptor = setup.a->descriptor;
    plan.b_descriptor = setup.b->descriptor;
    const size_t count = plan.experiments.size();
    const viz::OperandLayout& a_registers = *setup.registers->find(viz::Operand::A);
    const size_t a_words = image_words(a_registers, kWgmmaThreads);
    plan.a_tiles.assign(count * plan.a_tile_bytes, 0);
    plan.b_tiles.assign(count * plan.b_tile_bytes, 0);
    plan.a_registers.assign(count * a_words, 0);
    plan.a_from_registers.assign(count, 0);
    const ElementType input = wgmma_input_type(plan.kind);

    std::string error;
    for (size_t e = 0; e < count && error.empty(); ++e) {
        const WgmmaSmemExperiment& x = plan.experiments[e];
        const int first = x.group * kGroupSize;
        const auto code_digit = [&](size_t index) {
            return digit_of(int(index) + 1, plan.base, x.digit);
        };
        uint8_t* a_tile = &plan.a_tiles[e * plan.a_tile_bytes];
        uint8_t* b_tile = &plan.b_tiles[e * plan.b_tile_bytes];
        if (x.tested == viz::Operand::B) {
            plan.a_from_registers[e] = 1;
            error = fill_operand(&plan.a_registers[e * a_words], a_registers, input,
                                 [&](int m, int k) { return int(k == first + m); });
            if (error.empty()) error = fill_tile(b_tile, *setup.b, input, code_digit);
        } else {
            error = fill_tile(a_tile, *setup.a, input, code_digit);
            if (error.empty()) {
                error = fill_tile(b_tile, *setup.b, input, [&](size_t index) {
                    const viz::SharedMemoryElement& element = setup.b->elements[index];
                    return int(element.row == first + element.col);
                });
            }
        }
    }
    if (!error.empty()) plan.error = model.id + ": " + error;
    return plan;
}

std::vector<MeasuredTile> decode_wgmma_smem_probe(const viz::FragmentLayout& model,
                                                  const std::vector<uint32_t>& d) {
    const Setup setup = set_up(model);
    if (!setup.error.empty()) return {};
    const std::vector<WgmmaSmemExperiment> experiments = experiment_list(setup);
    const viz::OperandLayout& d_layout = *setup.registers->find(viz::Operand::D);
    const size_t d_words = image_words(d_layout, kWgmmaThreads);
    const ElementType accumulator = wgmma_accumulator_type(setup.kind);
    std::vector<MeasuredTile> tiles;
    for (const viz::SharedMemoryTile* tile : {setup.a, setup.b}) {
        const bool is_a = tile->operand == viz::Operand::A;
        const size_t elements = tile->elements.size();
        MeasuredTile measured{tile->operand, std::vector<DecodedCoord>(elements)};
        if (d.size() != experiments.size() * d_words) {
            for (DecodedCoord& coord : measured.coords) coord.problem = "no output from the GPU";
            tiles.push_back(measured);
            continue;
        }
        // code[(row, col)]: the code the hardware read for that operand coordinate, summed over
        // the digit experiments; -1 once a D value was no digit.
        std::vector<long long> code(size_t(tile->rows) * size_t(tile->cols), 0);
        for (size_t e = 0; e < experiments.size(); ++e) {
            const WgmmaSmemExperiment& x = experiments[e];
            if (x.tested != tile->operand) continue;
            const uint32_t* image = &d[e * d_words];
            for (const viz::LayoutElement& slot : d_layout.elements) {
                // A: D[m][n] = A[m][64 g + n]; B: D[m][n] = B[64 g + m][n].
                const int row = is_a ? slot.row : x.group * kGroupSize + slot.row;
                const int col = is_a ? x.group * kGroupSize + slot.col : slot.col;
                if (row >= tile->rows || col >= tile->cols) continue;
                long long& sum = code[size_t(row) * size_t(tile->cols) + size_t(col)];
                const std::optional<double> value =
                    decode_element(accumulator, read_slot(image, d_layout, slot));
                if (!value || *value < 0 || *value >= setup.base || std::floor(*value) != *value) {
                    sum = -1;
                } else if (sum >= 0) {
                    long long place = 1;
                    for (int i = 0; i < x.digit; ++i) place *= setup.base;
                    sum += (long long)(*value) * place;
                }
            }
        }
        std::vector<int> reads(elements, 0);
        for (int row = 0; row < tile->rows; ++row) {
            for (int col = 0; col < tile->cols; ++col) {
                const long long c = code[size_t(row) * size_t(tile->cols) + size_t(col)];
                if (c < 1 || c > (long long)elements) continue;  // an empty byte or no digit
                if (++reads[size_t(c - 1)] == 1) measured.coords[size_t(c - 1)] = {row, col, ""};
            }
        }
        for (size_t i = 0; i < elements; ++i) {
            if (reads[i] == 0) {
                measured.coords[i] = {-1, -1, "no coordinate of the instruction reads it"};
            } else if (reads[i] > 1) {
                measured.coords[i] = {-1, -1,
                                      "read for " + std::to_string(reads[i]) + " coordinates"};
            }
        }
        tiles.push_back(measured);
    }
    return tiles;
}

}  // namespace tclens::kernels
