// libFuzzer harness for the fragment-layout IDs of viz/fragment_layout.h (fragment_layout,
// parse_operand, FragmentLayout::find) and the layout JSON of viz/layout_json.h.
//
// Input: "ID\nOPERAND" (operand optional).
// Invariants:
//   - an ID has a layout exactly when fragment_layout_ids() lists it, and the layout carries
//     that ID;
//   - a layout is dense (header contract): each operand has one element per (lane, reg, sub),
//     in lane/reg/sub order, and each matrix element is held exactly once;
//   - the layout JSON reads back (layout_from_json) to the same layout;
//   - an operand parses exactly when it is "A".."D", and prints back to the same letter;
//   - a layout has the operands its family has (header contract: mma A, B, C, D; ldmatrix D
//     only; wgmma A and D only), and find() returns each of them, of that operand, and
//     nullptr for the others.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"
#include "viz/fragment_layout.h"
#include "viz/layout_json.h"

namespace tclens::fuzz {
namespace {

void check_dense(const viz::FragmentLayout& layout, const viz::OperandLayout& operand) {
    const std::string name = layout.id + " " + viz::operand_letter(operand.operand);
    const int subs = viz::elements_per_register(operand.elem_bits);
    const std::size_t slots =
        static_cast<std::size_t>(layout.threads) * operand.regs_per_thread * subs;
    TCLENS_FUZZ_CHECK(operand.rows > 0 && operand.cols > 0, name);
    TCLENS_FUZZ_CHECK(operand.elements.size() == slots &&
                          slots == static_cast<std::size_t>(operand.rows) * operand.cols,
                      name + ": " + std::to_string(operand.elements.size()) + " elements");
    std::vector<bool> held(slots, false);
    std::size_t index = 0;
    for (int lane = 0; lane < layout.threads; ++lane) {
        for (int reg = 0; reg < operand.regs_per_thread; ++reg) {
            for (int sub = 0; sub < subs; ++sub) {
                const viz::LayoutElement& element = operand.elements[index++];
                const std::string where = name + " T" + std::to_string(lane) + "." +
                                          std::to_string(reg) + "." + std::to_string(sub);
                TCLENS_FUZZ_CHECK(element.lane == lane && element.reg == reg && element.sub == sub,
                                  where + " out of order");
                TCLENS_FUZZ_CHECK(element.row >= 0 && element.row < operand.rows &&
                                      element.col >= 0 && element.col < operand.cols,
                                  where + " outside the matrix");
                const std::size_t cell =
                    static_cast<std::size_t>(element.row) * operand.cols + element.col;
                TCLENS_FUZZ_CHECK(!held[cell], where + " holds an element held twice");
                held[cell] = true;
            }
        }
    }
}

bool same_elements(const viz::OperandLayout& a, const viz::OperandLayout& b) {
    if (a.elements.size() != b.elements.size()) return false;
    for (std::size_t i = 0; i < a.elements.size(); ++i) {
        const viz::LayoutElement& x = a.elements[i];
        const viz::LayoutElement& y = b.elements[i];
        if (x.lane != y.lane || x.reg != y.reg || x.sub != y.sub || x.row != y.row ||
            x.col != y.col) {
            return false;
        }
    }
    return true;
}

// The register operands of an ID's family, in the order a layout lists them (header contract
// of FragmentLayout::operands).
std::string family_operands(const std::string& id) {
    if (id.rfind("mma.", 0) == 0) return "ABCD";
    if (id.rfind("ldmatrix.", 0) == 0) return "D";
    if (id.rfind("wgmma.", 0) == 0) return "AD";
    return "";
}

void check_json_round_trip(const viz::FragmentLayout& layout) {
    const viz::FragmentLayout back = viz::layout_from_json(viz::layout_to_json(layout));
    TCLENS_FUZZ_CHECK(back.id == layout.id && back.ptx == layout.ptx &&
                          back.threads == layout.threads &&
                          back.address_lanes == layout.address_lanes &&
                          back.operands.size() == layout.operands.size(),
                      layout.id);
    for (std::size_t i = 0; i < layout.operands.size(); ++i) {
        const viz::OperandLayout& x = layout.operands[i];
        const viz::OperandLayout& y = back.operands[i];
        TCLENS_FUZZ_CHECK(x.operand == y.operand && x.rows == y.rows && x.cols == y.cols &&
                              x.elem_bits == y.elem_bits &&
                              x.regs_per_thread == y.regs_per_thread && same_elements(x, y),
                          layout.id + " operand " + std::to_string(i) + " changes in JSON");
    }
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::vector<std::string> fields = fuzz::split_fields(data, size, 2);
    const std::string& id = fields[0];
    const std::string& operand_text = fields[1];

    const std::optional<viz::Operand> operand = viz::parse_operand(operand_text);
    const bool is_letter =
        operand_text == "A" || operand_text == "B" || operand_text == "C" || operand_text == "D";
    TCLENS_FUZZ_CHECK(operand.has_value() == is_letter, operand_text);
    if (operand) {
        TCLENS_FUZZ_CHECK(std::string(1, viz::operand_letter(*operand)) == operand_text,
                          operand_text);
    }

    bool listed = false;
    for (const std::string& known : viz::fragment_layout_ids()) listed = listed || known == id;
    const std::optional<viz::FragmentLayout> layout = viz::fragment_layout(id);
    TCLENS_FUZZ_CHECK(layout.has_value() == listed,
                      id + (listed ? " is listed but has no layout" : " has an unlisted layout"));
    if (!layout) return 0;
    TCLENS_FUZZ_CHECK(layout->id == id, id + " gave the layout of " + layout->id);
    TCLENS_FUZZ_CHECK(layout->threads == 32 || layout->threads == 128, id);
    TCLENS_FUZZ_CHECK(!layout->operands.empty(), id);
    for (const viz::OperandLayout& each : layout->operands) fuzz::check_dense(*layout, each);
    if (operand) {
        const viz::OperandLayout* found = layout->find(*operand);
        const bool expected =
            fuzz::family_operands(id).find(viz::operand_letter(*operand)) != std::string::npos;
        TCLENS_FUZZ_CHECK(
            (found != nullptr) == expected,
            id + (expected ? " has no layout for its operand " : " has a layout for operand ") +
                operand_text);
        TCLENS_FUZZ_CHECK(found == nullptr || found->operand == *operand, id + " " + operand_text);
    }
    std::string letters;
    for (const viz::OperandLayout& each : layout->operands)
        letters += viz::operand_letter(each.operand);
    TCLENS_FUZZ_CHECK(letters == fuzz::family_operands(id), id + " has operands " + letters);
    fuzz::check_json_round_trip(*layout);
    return 0;
}
