#include "viz/layout_json.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "viz/layout_description.h"

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

Json operand_to_json(const FragmentLayout& layout, const OperandLayout& operand) {
    Json elements = Json::array();
    for (const LayoutElement& element : operand.elements) {
        elements.push_back(element_to_json(element));
    }
    Json out;
    out["rows"] = operand.rows;
    out["cols"] = operand.cols;
    out["elem_bits"] = operand.elem_bits;
    out["description"] = describe_operand(layout, operand);
    out["elements"] = std::move(elements);
    return out;
}

std::string hex_text(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
    return text;
}

std::string tile_description(const SharedMemoryTile& tile) {
    return std::string(1, operand_letter(tile.operand)) + " (" + std::to_string(tile.rows) + "x" +
           std::to_string(tile.cols) + ", " + std::to_string(tile.elem_bits) +
           "-bit): " + (tile.k_major ? "K" : "MN") + "-major, " +
           (tile.swizzle_bytes == 0 ? std::string("no swizzle")
                                    : std::to_string(tile.swizzle_bytes) + "-byte swizzle") +
           "; each core matrix is 8 rows of 16 contiguous bytes; LBO " +
           std::to_string(tile.leading_bytes) + " bytes, SBO " + std::to_string(tile.stride_bytes) +
           " bytes.";
}

Json tile_to_json(const SharedMemoryTile& tile) {
    Json elements = Json::array();
    for (const SharedMemoryElement& e : tile.elements) {
        Json element;
        element["row"] = e.row;
        element["col"] = e.col;
        element["byte"] = e.byte;
        if (tile.elem_bits < 8) element["bit"] = e.bit;
        element["core_matrix"] = e.core_matrix;
        elements.push_back(std::move(element));
    }
    Json out;
    out["rows"] = tile.rows;
    out["cols"] = tile.cols;
    out["elem_bits"] = tile.elem_bits;
    out["major"] = tile.k_major ? "K" : "MN";
    out["swizzle_bytes"] = tile.swizzle_bytes;
    out["leading_byte_offset"] = tile.leading_bytes;
    out["stride_byte_offset"] = tile.stride_bytes;
    out["descriptor"] = hex_text(tile.descriptor);
    out["description"] = tile_description(tile);
    out["elements"] = std::move(elements);
    return out;
}

LayoutElement element_from_json(const Json& json) {
    return {json.at("lane").get<int>(), json.at("reg").get<int>(), json.at("sub").get<int>(),
            json.at("row").get<int>(), json.at("col").get<int>()};
}

Operand operand_key(const std::string& key) {
    const std::optional<Operand> op = parse_operand(key);
    if (!op) {
        throw std::invalid_argument("layout JSON: unknown operand key '" + key +
                                    "' (allowed: A, B, C, D, E)");
    }
    return *op;
}

OperandLayout operand_from_json(Operand op, const Json& json) {
    OperandLayout layout{op,
                         json.at("rows").get<int>(),
                         json.at("cols").get<int>(),
                         json.at("elem_bits").get<int>(),
                         0,
                         {},
                         {}};
    for (const Json& element : json.at("elements")) {
        layout.elements.push_back(element_from_json(element));
        layout.regs_per_thread = std::max(layout.regs_per_thread, layout.elements.back().reg + 1);
    }
    return layout;
}

SharedMemoryTile tile_from_json(Operand op, const Json& json) {
    SharedMemoryTile tile{op,
                          json.at("rows").get<int>(),
                          json.at("cols").get<int>(),
                          json.at("elem_bits").get<int>(),
                          json.at("major").get<std::string>() == "K",
                          json.at("swizzle_bytes").get<int>(),
                          json.at("leading_byte_offset").get<int>(),
                          json.at("stride_byte_offset").get<int>(),
                          std::stoull(json.at("descriptor").get<std::string>(), nullptr, 16),
                          {}};
    for (const Json& e : json.at("elements")) {
        tile.elements.push_back({e.at("row").get<int>(), e.at("col").get<int>(),
                                 e.at("byte").get<int>(), e.value("bit", 0),
                                 e.at("core_matrix").get<int>()});
    }
    return tile;
}

}  // namespace

nlohmann::ordered_json layout_to_json(const FragmentLayout& layout) {
    Json operands = Json::object();
    for (const OperandLayout& operand : layout.operands) {
        operands[std::string(1, operand_letter(operand.operand))] =
            operand_to_json(layout, operand);
    }
    Json out;
    out["id"] = layout.id;
    out["ptx"] = layout.ptx;
    out["threads"] = layout.threads;
    if (!layout.verifiable) {
        out["verified"] = false;
        out["source"] = layout.source;
        out["note"] = kModelOnlyNote;
    }
    if (layout.tmem_slots) out["slots"] = "tmem";
    if (!layout.address_lanes.empty()) {
        out["address_lanes"] = layout.address_lanes;
    }
    out["operands"] = std::move(operands);
    if (!layout.shared_memory.empty()) {
        Json tiles = Json::object();
        for (const SharedMemoryTile& tile : layout.shared_memory) {
            tiles[std::string(1, operand_letter(tile.operand))] = tile_to_json(tile);
        }
        out["shared_memory"] = std::move(tiles);
    }
    return out;
}

FragmentLayout layout_from_json(const nlohmann::ordered_json& json) {
    FragmentLayout layout =
        make_fragment_layout(json.at("id").get<std::string>(), json.at("ptx").get<std::string>(),
                             json.at("threads").get<int>());
    if (json.contains("verified")) {
        layout.verifiable = json.at("verified").get<bool>();
        layout.source = json.at("source").get<std::string>();
    }
    if (json.contains("slots")) layout.tmem_slots = json.at("slots").get<std::string>() == "tmem";
    if (json.contains("address_lanes")) {
        layout.address_lanes = json.at("address_lanes").get<std::vector<int>>();
    }
    for (const auto& [key, operand_json] : json.at("operands").items()) {
        layout.operands.push_back(operand_from_json(operand_key(key), operand_json));
    }
    if (json.contains("shared_memory")) {
        for (const auto& [key, tile_json] : json.at("shared_memory").items()) {
            layout.shared_memory.push_back(tile_from_json(operand_key(key), tile_json));
        }
    }
    return layout;
}

}  // namespace tclens::viz
