#include "viz/layout_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace tclens::viz {

namespace {

using Json = nlohmann::ordered_json;

Json element_to_json(const LayoutElement& element) {
    Json out;
    out["lane"] = element.lane;
    out["reg"] = element.reg;
    out["sub"] = element.sub;
    out["row"] = element.row;
    out["col"] = element.col;
    return out;
}

Json operand_to_json(const OperandLayout& layout) {
    Json elements = Json::array();
    for (const LayoutElement& element : layout.elements) {
        elements.push_back(element_to_json(element));
    }
    Json out;
    out["rows"] = layout.rows;
    out["cols"] = layout.cols;
    out["elem_bits"] = layout.elem_bits;
    out["elements"] = std::move(elements);
    return out;
}

LayoutElement element_from_json(const Json& json) {
    return {json.at("lane").get<int>(), json.at("reg").get<int>(), json.at("sub").get<int>(),
            json.at("row").get<int>(), json.at("col").get<int>()};
}

OperandLayout operand_from_json(Operand op, const Json& json) {
    OperandLayout layout{op,
                         json.at("rows").get<int>(),
                         json.at("cols").get<int>(),
                         json.at("elem_bits").get<int>(),
                         0,
                         {}};
    for (const Json& element : json.at("elements")) {
        layout.elements.push_back(element_from_json(element));
        layout.regs_per_thread = std::max(layout.regs_per_thread, layout.elements.back().reg + 1);
    }
    return layout;
}

}  // namespace

nlohmann::ordered_json layout_to_json(const FragmentLayout& layout) {
    Json operands = Json::object();
    for (const OperandLayout& operand : layout.operands) {
        operands[std::string(1, operand_letter(operand.operand))] = operand_to_json(operand);
    }
    Json out;
    out["id"] = layout.id;
    out["ptx"] = layout.ptx;
    out["threads"] = layout.threads;
    if (!layout.address_lanes.empty()) {
        out["address_lanes"] = layout.address_lanes;
    }
    out["operands"] = std::move(operands);
    return out;
}

FragmentLayout layout_from_json(const nlohmann::ordered_json& json) {
    FragmentLayout layout{json.at("id").get<std::string>(),
                          json.at("ptx").get<std::string>(),
                          json.at("threads").get<int>(),
                          {},
                          {}};
    if (json.contains("address_lanes")) {
        layout.address_lanes = json.at("address_lanes").get<std::vector<int>>();
    }
    for (const auto& [key, operand_json] : json.at("operands").items()) {
        const std::optional<Operand> op = parse_operand(key);
        if (!op) {
            throw std::invalid_argument("layout JSON: unknown operand key '" + key +
                                        "' (allowed: A, B, C, D)");
        }
        layout.operands.push_back(operand_from_json(*op, operand_json));
    }
    return layout;
}

}  // namespace tclens::viz
