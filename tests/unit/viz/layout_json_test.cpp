// Tests for viz/layout_json.*: key names and order per docs/json-formats.md, "Layout JSON", and
// lossless round trips.
#include "viz/layout_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "viz/layouts/wgmma_layouts.h"

namespace tclens::viz {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> keys_of(const Json& object) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : object.items()) {
        keys.push_back(key);
    }
    return keys;
}

FragmentLayout json_layout_or_fail(const std::string& id) {
    std::optional<FragmentLayout> layout = fragment_layout(id);
    if (!layout) {
        ADD_FAILURE() << "no layout for " << id;
        return {};
    }
    return *layout;
}

void expect_same_layout(const FragmentLayout& got, const FragmentLayout& want) {
    EXPECT_EQ(got.id, want.id);
    EXPECT_EQ(got.ptx, want.ptx);
    EXPECT_EQ(got.threads, want.threads);
    EXPECT_EQ(got.address_lanes, want.address_lanes);
    ASSERT_EQ(got.operands.size(), want.operands.size());
    for (size_t i = 0; i < want.operands.size(); ++i) {
        const OperandLayout& g = got.operands[i];
        const OperandLayout& w = want.operands[i];
        SCOPED_TRACE(std::string("operand ") + operand_letter(w.operand));
        EXPECT_EQ(g.operand, w.operand);
        EXPECT_EQ(g.rows, w.rows);
        EXPECT_EQ(g.cols, w.cols);
        EXPECT_EQ(g.elem_bits, w.elem_bits);
        EXPECT_EQ(g.regs_per_thread, w.regs_per_thread);
        ASSERT_EQ(g.elements.size(), w.elements.size());
        for (size_t e = 0; e < w.elements.size(); ++e) {
            const LayoutElement& ge = g.elements[e];
            const LayoutElement& we = w.elements[e];
            ASSERT_TRUE(ge.lane == we.lane && ge.reg == we.reg && ge.sub == we.sub &&
                        ge.row == we.row && ge.col == we.col)
                << "element " << e << " differs";
        }
    }
}

TEST(LayoutJson, MmaKeysAndValuesFollowTheContract) {
    const Json json = layout_to_json(json_layout_or_fail("mma.m16n8k8.tf32"));
    EXPECT_EQ(keys_of(json), (std::vector<std::string>{"id", "ptx", "threads", "operands"}));
    EXPECT_EQ(json.at("id"), "mma.m16n8k8.tf32");
    EXPECT_EQ(json.at("ptx"), "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
    EXPECT_EQ(json.at("threads"), 32);

    const Json& operands = json.at("operands");
    EXPECT_EQ(keys_of(operands), (std::vector<std::string>{"A", "B", "C", "D"}));
    const Json& a = operands.at("A");
    EXPECT_EQ(keys_of(a),
              (std::vector<std::string>{"rows", "cols", "elem_bits", "description", "elements"}));
    EXPECT_EQ(
        a.at("description").get<std::string>().rfind("A (16x8, tf32, 4 registers per lane)", 0),
        0u);
    EXPECT_EQ(a.at("rows"), 16);
    EXPECT_EQ(a.at("cols"), 8);
    EXPECT_EQ(a.at("elem_bits"), 32);
    ASSERT_EQ(a.at("elements").size(), 128u);
    const Json& first = a.at("elements").at(0);
    EXPECT_EQ(keys_of(first), (std::vector<std::string>{"lane", "reg", "sub", "row", "col"}));
    EXPECT_EQ(first, Json::parse(R"({"lane": 0, "reg": 0, "sub": 0, "row": 0, "col": 0})"));

    // PTX: lane 5 (groupID 1, threadID_in_group 1), a2 -> row 1, col 5.
    bool found = false;
    for (const Json& element : a.at("elements")) {
        if (element.at("lane") == 5 && element.at("reg") == 2) {
            found = true;
            EXPECT_EQ(element.at("sub"), 0);
            EXPECT_EQ(element.at("row"), 1);
            EXPECT_EQ(element.at("col"), 5);
        }
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(operands.at("C").at("elem_bits"), 32);
    EXPECT_EQ(operands.at("B").at("rows"), 8);
}

TEST(LayoutJson, LdmatrixCarriesAddressLanesAndOnlyD) {
    const Json json = layout_to_json(json_layout_or_fail("ldmatrix.x4.trans"));
    EXPECT_EQ(keys_of(json),
              (std::vector<std::string>{"id", "ptx", "threads", "address_lanes", "operands"}));
    EXPECT_EQ(json.at("ptx"), "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
    const Json& lanes = json.at("address_lanes");
    ASSERT_EQ(lanes.size(), 32u);
    for (int row = 0; row < 32; ++row) {
        EXPECT_EQ(lanes.at(row), row);
    }
    EXPECT_EQ(keys_of(json.at("operands")), (std::vector<std::string>{"D"}));
    EXPECT_EQ(json.at("operands").at("D").at("rows"), 32);
    EXPECT_EQ(json.at("operands").at("D").at("elem_bits"), 16);
}

TEST(LayoutJson, WgmmaHasAAndDAndLanesUpTo127) {
    const Json json = layout_to_json(json_layout_or_fail("wgmma.m64n256k16.f16"));
    EXPECT_EQ(json.at("threads"), 128);
    EXPECT_EQ(json.at("ptx"), "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16");
    EXPECT_FALSE(json.contains("address_lanes"));
    EXPECT_EQ(keys_of(json.at("operands")), (std::vector<std::string>{"A", "D"}));
    const Json& d = json.at("operands").at("D");
    EXPECT_EQ(d.at("cols"), 256);
    ASSERT_EQ(d.at("elements").size(), 64u * 256u);
    EXPECT_EQ(d.at("elements").back().at("lane"), 127);
    EXPECT_EQ(d.at("elements").back().at("reg"), 127);
}

// Every ID, except that of the 182 wgmma register IDs only the smallest, a middle and the
// largest N of each type are written (their JSON differs only in D's width; the rest took
// seconds, most of it in the JSON library).
bool json_sample(const std::string& id) {
    const std::string type = wgmma_layout_type(id);
    if (type.empty()) return true;
    const std::vector<int> ns = wgmma_layout_ns(type);
    const int n = wgmma_layout_n(id);
    return n == ns.front() || n == ns[ns.size() / 2] || n == ns.back();
}

TEST(LayoutJson, EveryIdRoundTrips) {
    for (const std::string& id : fragment_layout_ids()) {
        if (!json_sample(id)) continue;
        SCOPED_TRACE(id);
        const FragmentLayout layout = json_layout_or_fail(id);
        const FragmentLayout back = layout_from_json(layout_to_json(layout));
        expect_same_layout(back, layout);
        EXPECT_EQ(back.verifiable, layout.verifiable);
        EXPECT_EQ(back.source, layout.source);
        EXPECT_EQ(back.tmem_slots, layout.tmem_slots);
        ASSERT_EQ(back.shared_memory.size(), layout.shared_memory.size());
        for (size_t t = 0; t < layout.shared_memory.size(); ++t) {
            const SharedMemoryTile& g = back.shared_memory[t];
            const SharedMemoryTile& w = layout.shared_memory[t];
            EXPECT_EQ(g.operand, w.operand);
            EXPECT_EQ(g.descriptor, w.descriptor);
            EXPECT_EQ(g.k_major, w.k_major);
            EXPECT_EQ(g.swizzle_bytes, w.swizzle_bytes);
            ASSERT_EQ(g.elements.size(), w.elements.size());
            for (size_t e = 0; e < w.elements.size(); ++e) {
                ASSERT_TRUE(g.elements[e].byte == w.elements[e].byte &&
                            g.elements[e].bit == w.elements[e].bit &&
                            g.elements[e].core_matrix == w.elements[e].core_matrix &&
                            g.elements[e].row == w.elements[e].row &&
                            g.elements[e].col == w.elements[e].col);
            }
        }
    }
}

TEST(LayoutJson, SparseMetadataIsOperandE) {
    const Json json = layout_to_json(json_layout_or_fail("mma.sp.m16n8k16.f16.sel0"));
    EXPECT_EQ(keys_of(json.at("operands")), (std::vector<std::string>{"A", "B", "C", "D", "E"}));
    const Json& e = json.at("operands").at("E");
    EXPECT_EQ(e.at("elem_bits"), 2);
    EXPECT_EQ(e.at("cols"), 8);
    // Selector 0: only lanes 4g hold metadata, 16 fields each.
    ASSERT_EQ(e.at("elements").size(), 128u);
    for (const Json& element : e.at("elements")) EXPECT_EQ(element.at("lane").get<int>() % 4, 0);
}

TEST(LayoutJson, ModelsSayTheyAreNotVerifiedAndWhy) {
    const Json json = layout_to_json(json_layout_or_fail("tcgen05.mma.m128n64.cta1"));
    EXPECT_EQ(keys_of(json), (std::vector<std::string>{"id", "ptx", "threads", "verified", "source",
                                                       "note", "slots", "operands"}));
    EXPECT_EQ(json.at("verified"), false);
    EXPECT_EQ(json.at("note"), "model (PTX ISA), not verified: needs sm_100");
    EXPECT_EQ(json.at("source").get<std::string>().rfind("PTX ISA, ", 0), 0u);
    EXPECT_EQ(json.at("slots"), "tmem");
    // A verifiable layout carries none of these keys (its JSON is the contract's).
    const Json mma = layout_to_json(json_layout_or_fail("mma.m16n8k16.f16"));
    EXPECT_FALSE(mma.contains("verified") || mma.contains("source") || mma.contains("slots"));
}

TEST(LayoutJson, SharedMemoryViewsCarryTheDescriptor) {
    const Json json = layout_to_json(json_layout_or_fail("wgmma.smem.f16.k.sw128"));
    EXPECT_TRUE(json.at("operands").empty());
    const Json& a = json.at("shared_memory").at("A");
    EXPECT_EQ(keys_of(a),
              (std::vector<std::string>{"rows", "cols", "elem_bits", "major", "swizzle_bytes",
                                        "leading_byte_offset", "stride_byte_offset", "descriptor",
                                        "description", "elements"}));
    EXPECT_EQ(a.at("descriptor"), "0x4000004000010000");
    EXPECT_EQ(keys_of(a.at("elements").at(0)),
              (std::vector<std::string>{"row", "col", "byte", "core_matrix"}));
    const Json b1 = layout_to_json(json_layout_or_fail("wgmma.smem.b1.k.none"));
    EXPECT_EQ(keys_of(b1.at("shared_memory").at("B").at("elements").at(0)),
              (std::vector<std::string>{"row", "col", "byte", "bit", "core_matrix"}));
}

TEST(LayoutJson, RoundTripsThroughText) {
    const FragmentLayout layout = json_layout_or_fail("ldmatrix.x2");
    const std::string text = layout_to_json(layout).dump(2);
    expect_same_layout(layout_from_json(Json::parse(text)), layout);
}

TEST(LayoutJson, RejectsUnknownOperandKey) {
    Json json = layout_to_json(json_layout_or_fail("mma.m8n8k4.f64"));
    json["operands"]["F"] = json["operands"]["A"];
    EXPECT_THROW(layout_from_json(json), std::invalid_argument);
}

TEST(LayoutJson, RejectsMissingOrMistypedKeys) {
    Json missing = layout_to_json(json_layout_or_fail("mma.m8n8k4.f64"));
    missing.erase("threads");
    EXPECT_THROW(layout_from_json(missing), nlohmann::json::exception);

    Json mistyped = layout_to_json(json_layout_or_fail("mma.m8n8k4.f64"));
    mistyped["operands"]["A"]["rows"] = "eight";
    EXPECT_THROW(layout_from_json(mistyped), nlohmann::json::exception);
}

}  // namespace
}  // namespace tclens::viz
