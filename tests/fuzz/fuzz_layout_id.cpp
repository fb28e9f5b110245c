// libFuzzer harness for the fragment-layout IDs of viz/fragment_layout.h (fragment_layout,
// parse_operand, FragmentLayout::find) and the layout JSON of viz/layout_json.h.
//
// Input: "ID\nOPERAND" (operand optional).
// Invariants:
//   - an ID has a layout exactly when fragment_layout_ids() lists it, and the layout carries
//     that ID;
//   - a layout keeps the header contract: each operand lists (lane, reg, sub) slots in
//     lane/reg/sub order, each slot at most once and inside the lanes and registers, and holds
//     each matrix element exactly once; a dense operand (is_dense) has every slot;
//   - the layout JSON reads back (layout_from_json) to the same layout;
//   - an operand parses exactly when it is "A".."E", and prints back to the same letter;
//   - a layout has the operands its family has, in that order (header contract of
//     FragmentLayout::operands: mma A, B, C, D; mma.sp A, B, C, D, E; ldmatrix D; stmatrix A;
//     movmatrix A, D; wgmma A, D; the wgmma shared-memory views none; tcgen05.ld and
//     tcgen05.mma D; tcgen05.sf A, B), and find() returns each of them, of that operand, and
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

void check_operand(const viz::FragmentLayout& layout, const viz::OperandLayout& operand) {
    const std::string name = layout.id + " " + viz::operand_letter(operand.operand);
    const int subs = viz::elements_per_register(operand.elem_bits);
    TCLENS_FUZZ_CHECK(operand.rows > 0 && operand.cols > 0, name);
    TCLENS_FUZZ_CHECK(
        operand.elements.size() == static_cast<std::size_t>(operand.rows) * operand.cols,
        name + ": " + std::to_string(operand.elements.size()) + " elements");
    std::vector<bool> held(operand.elements.size(), false);
    long previous = -1;
    for (const viz::LayoutElement& element : operand.elements) {
        const std::string where = name + " T" + std::to_string(element.lane) + "." +
                                  std::to_string(element.reg) + "." + std::to_string(element.sub);
        TCLENS_FUZZ_CHECK(element.lane >= 0 && element.lane < layout.threads && element.reg >= 0 &&
                              element.reg < operand.regs_per_thread && element.sub >= 0 &&
                              element.sub < subs,
                          where + " outside the lanes or registers");
        const long slot =
            (static_cast<long>(element.lane) * operand.regs_per_thread + element.reg) * subs +
            element.sub;
        TCLENS_FUZZ_CHECK(slot > previous, where + " out of order or held twice");
        previous = slot;
        TCLENS_FUZZ_CHECK(element.row >= 0 && element.row < operand.rows && element.col >= 0 &&
                              element.col < operand.cols,
                          where + " outside the matrix");
        const std::size_t cell = static_cast<std::size_t>(element.row) * operand.cols + element.col;
        TCLENS_FUZZ_CHECK(!held[cell], where + " holds an element held twice");
        held[cell] = true;
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
    const auto starts = [&](const char* prefix) { return id.rfind(prefix, 0) == 0; };
    if (starts("mma.sp.")) return "ABCDE";
    if (starts("mma.")) return "ABCD";
    if (starts("ldmatrix.")) return "D";
    if (starts("stmatrix.")) return "A";
    if (starts("movmatrix.")) return "AD";
    if (starts("wgmma.smem.")) return "";
    if (starts("wgmma.")) return "AD";
    if (starts("tcgen05.sf.")) return "AB";
    if (starts("tcgen05.")) return "D";
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
    const bool is_letter = operand_text == "A" || operand_text == "B" || operand_text == "C" ||
                           operand_text == "D" || operand_text == "E";
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
    TCLENS_FUZZ_CHECK(!layout->operands.empty() || !layout->shared_memory.empty(), id);
    TCLENS_FUZZ_CHECK(layout->verifiable || !layout->source.empty(), id + " model without source");
    for (const viz::OperandLayout& each : layout->operands) fuzz::check_operand(*layout, each);
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
